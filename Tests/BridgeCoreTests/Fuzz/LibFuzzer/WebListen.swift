// libFuzzer target `web-listen`: the dashboard's `[web] listen` value. An accepted address prints as text that
// parses back to the same address.
import BridgeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let address = try? WebListenAddress(parsing: String(decoding: bytes, as: UTF8.self)) else { return 0 }
    guard let again = try? WebListenAddress(parsing: address.description), again == address else {
        preconditionFailure("\(address) does not parse back to itself")
    }
    _ = address.isLoopback
    return 0
}
