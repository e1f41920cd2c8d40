// libFuzzer target `hap-session`: opening the encrypted frames of a verified HomeKit session (a length,
// ChaCha20-Poly1305 with the frame counter as nonce), fed in two pieces (the first byte picks the cut). Anything a peer
// sends either opens or is refused, however it arrives; what the accessory seals opens, frame by frame, with its key.
import Crypto

@testable import HomeKit

private let keys = SessionKeys(
    shared: Array(repeating: 7, count: 32),
    controller: Pairing(identifier: "fuzz", publicKey: Array(repeating: 1, count: 32), isAdmin: true))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let first = bytes.first else { return 0 }
    let input = Array(bytes.dropFirst())
    var whole = SecureSession(keys: keys)
    let wholeResult = Result { () throws(SecureSession.Failure) in try whole.open(input) }
    var pieced = SecureSession(keys: keys)
    let cut = min(Int(first), input.count)
    let piecedResult = Result { () throws(SecureSession.Failure) in
        try pieced.open(Array(input[..<cut])) + pieced.open(Array(input[cut...]))
    }
    if case .success(let plain) = wholeResult, case .success(let again) = piecedResult, plain != again {
        preconditionFailure("the plaintext depends on how the frames arrive")
    }
    var sealer = SecureSession(keys: keys)
    guard let sealed = try? sealer.seal(input) else { preconditionFailure("sealing failed") }
    var rest = sealed[...]
    var counter: UInt64 = 0
    var opened: [UInt8] = []
    while rest.count >= 18 {
        let length = Int(rest[rest.startIndex]) | Int(rest[rest.startIndex + 1]) << 8
        let frame = Array(rest.prefix(2 + length + 16))
        guard frame.count == 2 + length + 16, let nonce = SecureSession.nonce(counter),
            let box = try? ChaChaPoly.SealedBox(nonce: nonce, ciphertext: frame[2..<2 + length], tag: frame.suffix(16)),
            let plain = try? ChaChaPoly.open(box, using: keys.read, authenticating: frame[0..<2])
        else { preconditionFailure("a sealed frame does not open") }
        opened += plain
        counter += 1
        rest = rest.dropFirst(frame.count)
    }
    guard rest.isEmpty, opened == input else { preconditionFailure("the sealed frames do not hold what was sealed") }
    return 0
}
