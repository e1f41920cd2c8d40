// libFuzzer target `zwave-serial`: the host's byte stream to the emulated Z-Wave stick, through its Serial API frame
// parser. The first byte sets how the rest is cut into reads (as a pty delivers them); the tokens must not depend on
// the cut.
import ZWaveEmulator

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let chunk = Int(data[0] % 16) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var whole = SerialFrameParser()
    let expected = whole.feed(bytes)
    var cut = SerialFrameParser()
    var tokens: [SerialToken] = []
    var start = 0
    while start < bytes.count {
        tokens += cut.feed(bytes[start..<min(start + chunk, bytes.count)])
        start += chunk
    }
    precondition(tokens == expected, "the tokens depend on how the stream is cut into reads")
    for case .frame(let frame) in tokens { _ = frame.encoded }
    return 0
}
