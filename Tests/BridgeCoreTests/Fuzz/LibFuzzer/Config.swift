// libFuzzer target `config`: a devices.toml, loaded and validated as `thuis-bridge run` and `check-config` do.
import BridgeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    _ = try? ConfigurationLoader.parse(text: text)
    return 0
}
