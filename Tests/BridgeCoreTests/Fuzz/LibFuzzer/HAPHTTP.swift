// libFuzzer target `hap-http`: the HomeKit server's HTTP/1.1 request parser, fed the input in pieces as TCP would
// deliver them (the first byte picks the piece length). Whatever the pieces, the same requests come out, in the same
// order, as when the whole input arrives at once; no body is over the limit.
@testable import HomeKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let first = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    let whole = requests(in: [input])
    let pieceLength = Int(first % 32) + 1
    let pieces = stride(from: 0, to: input.count, by: pieceLength).map {
        Array(input[$0..<min($0 + pieceLength, input.count)])
    }
    let pieced = requests(in: pieces)
    guard whole == pieced else { preconditionFailure("the requests depend on how the bytes arrive") }
    return 0
}

/// The requests parsed from `pieces`, then the failure that stopped the parser, if any.
private func requests(in pieces: [[UInt8]]) -> [String] {
    var parser = HTTPRequestParser()
    var parsed: [String] = []
    for piece in pieces {
        parser.append(piece)
        while true {
            do {
                guard let request = try parser.next() else { break }
                precondition(request.body.count <= HTTPRequestParser.maximumBody, "a body over the limit")
                parsed.append("\(request.method) \(request.path) \(request.query.count) \(request.body)")
            } catch {
                parsed.append("failure \(error)")
                return parsed
            }
        }
    }
    return parsed
}
