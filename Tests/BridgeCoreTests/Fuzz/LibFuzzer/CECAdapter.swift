// libFuzzer target `cec-adapter`: the host's byte stream to the emulated Pulse-Eight adapter, through its frame
// decoder and into the adapter's answer to each message (internal: the harness is built with testing enabled).
@testable import CECEmulator

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    var adapter = CECAdapterEmulator.Adapter(configuration: CECEmulatorConfiguration(), tracing: true)
    var lines: [String] = []
    var resumes: [CECAdapterEmulator.Resume] = []
    for message in adapter.decoder.feed(bytes) {
        _ = adapter.handle(message, lines: &lines, resumes: &resumes)
    }
    return 0
}
