/// The controller's side of SRP-6a (Pair Setup M3), S = (B - k·g^x)^(a + u·x), written from RFC 5054 with the
/// HomeKit ADK's conventions (see ``SRPServer``): A sent as its minimal bytes, K = H(MIN(S)) whole, MIN(A) and
/// MIN(B) in M1. The controller of the tests and of the benchmark.
public struct SRPClient: Sendable {
    /// A, its minimal bytes (fewer than 384 when it has a leading zero byte, 1 in 256).
    public let publicKey: [UInt8]
    /// M1, the proof sent in M3.
    public let proof: [UInt8]
    /// K, the shared session key.
    public let sessionKey: [UInt8]
    /// M2, the proof the accessory must answer with in M4.
    public let expectedServerProof: [UInt8]

    public init(server: SRPServer, password: String) throws {
        try self.init(
            group: server.group, username: server.username, salt: server.salt, serverKey: server.publicKey,
            password: password)
    }

    /// `secret` is a: 32 random bytes unless given (a test vector).
    public init(
        group: SRPGroup, username: String, salt: [UInt8], serverKey: [UInt8], password: String,
        secret: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }
    ) throws {
        let prime = try BigNumber(bytes: group.prime)
        let g = try BigNumber(bytes: group.generator)
        let a = try BigNumber(bytes: secret)
        publicKey = try g.power(a, modulo: prime).bytes
        let length = group.prime.count
        let u = try BigNumber(
            bytes: group.digest(SRPServer.pad(publicKey, to: length), SRPServer.pad(serverKey, to: length)))
        let x = try BigNumber(bytes: group.digest(salt, group.digest(Array("\(username):\(password)".utf8))))
        let kgx = try SRPServer.multiplier(group).times(g.power(x, modulo: prime), modulo: prime)
        let base = try subtract(SRPServer.pad(serverKey, to: length), kgx.padded(to: length), modulo: group.prime)
        // a + u·x, without reduction: compute as (a + u·x) over the integers through a large modulus.
        let big = try BigNumber(bytes: [1] + [UInt8](repeating: 0, count: 200))
        let exponent = try a.plus(u.times(x, modulo: big), modulo: big)
        let secret = try BigNumber(bytes: base).power(exponent, modulo: prime).bytes
        sessionKey = group.digest(secret)
        proof = SRPServer.proof(
            group: group, username: username, salt: salt, clientKey: publicKey, serverKey: serverKey,
            sessionKey: sessionKey)
        expectedServerProof = group.digest(publicKey, proof, sessionKey)
    }
}

/// (lhs - rhs) mod m on big-endian byte strings of equal length, schoolbook.
private func subtract(_ lhs: [UInt8], _ rhs: [UInt8], modulo m: [UInt8]) throws -> [UInt8] {
    var result = [UInt8](repeating: 0, count: lhs.count)
    var borrow = 0
    for index in stride(from: lhs.count - 1, through: 0, by: -1) {
        var value = Int(lhs[index]) - Int(rhs[index]) - borrow
        borrow = value < 0 ? 1 : 0
        if value < 0 { value += 256 }
        result[index] = UInt8(value)
    }
    if borrow == 1 {  // negative: add m
        var carry = 0
        for index in stride(from: result.count - 1, through: 0, by: -1) {
            let value = Int(result[index]) + Int(m[index]) + carry
            result[index] = UInt8(value & 0xFF)
            carry = value >> 8
        }
    }
    return result
}
