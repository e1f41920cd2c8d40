internal import Crypto

/// The encrypted HAP session after Pair Verify: the byte stream in frames of at most 1024 bytes of plaintext,
/// each sent as a 2-byte little-endian length (authenticated, not encrypted), the ChaCha20-Poly1305 ciphertext and
/// its 16-byte tag; the nonce is a per-direction counter (four zero bytes, then the counter as 8 bytes little
/// endian). A frame that does not authenticate ends the session: the connection must be closed.
public struct SecureSession: Sendable {
    public static let maximumFrame = 1024

    public enum Failure: Error, Sendable, Hashable {
        /// A received frame failed authentication (or claims more than 1024 bytes).
        case authentication
        /// Encryption failed (swift-crypto refused the key or nonce).
        case sealing
    }

    private let keys: SessionKeys
    private var readCounter: UInt64 = 0
    private var writeCounter: UInt64 = 0
    private var pending: [UInt8] = []

    public var controller: Pairing { keys.controller }

    public init(keys: SessionKeys) { self.keys = keys }

    /// Encrypts what the accessory sends, in as many frames as it takes.
    public mutating func seal(_ plain: [UInt8]) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        var rest = plain[...]
        repeat {
            let chunk = rest.prefix(Self.maximumFrame)
            rest = rest.dropFirst(chunk.count)
            let length = [UInt8(chunk.count & 0xFF), UInt8(chunk.count >> 8)]
            guard let nonce = Self.nonce(writeCounter),
                let box = try? ChaChaPoly.seal(chunk, using: keys.read, nonce: nonce, authenticating: length)
            else { throw .sealing }
            writeCounter += 1
            out += length + Array(box.ciphertext) + Array(box.tag)
        } while !rest.isEmpty
        return out
    }

    /// Adds received bytes and returns the plaintext of every complete frame; a frame that does not authenticate
    /// throws (and the session is unusable).
    public mutating func open(_ received: [UInt8]) throws(Failure) -> [UInt8] {
        pending += received
        var plain: [UInt8] = []
        while pending.count >= 2 {
            let length = Int(pending[0]) | Int(pending[1]) << 8
            guard length <= Self.maximumFrame else { throw .authentication }
            guard pending.count >= 2 + length + 16 else { break }
            let frame = Array(pending[2..<2 + length + 16])
            guard let nonce = Self.nonce(readCounter),
                let box = try? ChaChaPoly.SealedBox(
                    nonce: nonce, ciphertext: frame.prefix(length), tag: frame.suffix(16)),
                let opened = try? ChaChaPoly.open(box, using: keys.write, authenticating: pending[0..<2])
            else { throw .authentication }
            readCounter += 1
            plain += opened
            pending.removeFirst(2 + length + 16)
        }
        return plain
    }

    static func nonce(_ counter: UInt64) -> ChaChaPoly.Nonce? {
        var bytes: [UInt8] = [0, 0, 0, 0]
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: counter >> UInt64(shift)))
        }
        return try? ChaChaPoly.Nonce(data: bytes)
    }
}
