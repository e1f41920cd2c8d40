internal import COpenSSL

/// A non-negative integer of any size in OpenSSL's `BIGNUM`, for SRP-6a's modular arithmetic. Exponentiations
/// with a secret exponent run in constant time (`BN_FLG_CONSTTIME`).
final class BigNumber: @unchecked Sendable {
    // Owned; never shared between threads while mutated (each value is built once and then only read).
    fileprivate let pointer: OpaquePointer

    private init(owning pointer: OpaquePointer) { self.pointer = pointer }

    deinit { BN_clear_free(pointer) }

    /// The big-endian `bytes` as a number.
    convenience init(bytes: [UInt8]) throws(SRPError) {
        guard let pointer = BN_bin2bn(bytes, Int32(bytes.count), nil) else { throw .arithmetic("BN_bin2bn") }
        self.init(owning: pointer)
    }

    /// The big-endian bytes without leading zeros (zero is no bytes).
    var bytes: [UInt8] {
        let count = (Int(BN_num_bits(pointer)) + 7) / 8
        return padded(to: count)
    }

    /// The big-endian bytes, left-padded with zeros to `length`.
    func padded(to length: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        _ = BN_bn2binpad(pointer, &out, Int32(length))
        return out
    }

    var isZero: Bool { BN_is_zero(pointer) == 1 }

    /// `self ^ exponent mod modulus`, in constant time in the exponent.
    func power(_ exponent: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try Self.compute("BN_mod_exp_mont_consttime") { result, context in
            BN_mod_exp_mont_consttime(result, pointer, exponent.pointer, modulus.pointer, context, nil)
        }
    }

    func times(_ other: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try Self.compute("BN_mod_mul") { result, context in
            BN_mod_mul(result, pointer, other.pointer, modulus.pointer, context)
        }
    }

    func plus(_ other: BigNumber, modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try Self.compute("BN_mod_add") { result, context in
            BN_mod_add(result, pointer, other.pointer, modulus.pointer, context)
        }
    }

    func reduced(modulo modulus: BigNumber) throws(SRPError) -> BigNumber {
        try Self.compute("BN_nnmod") { result, context in BN_nnmod(result, pointer, modulus.pointer, context) }
    }

    private static func compute(
        _ name: String, _ operation: (OpaquePointer, OpaquePointer) -> Int32
    ) throws(SRPError) -> BigNumber {
        guard let context = BN_CTX_new() else { throw .arithmetic("BN_CTX_new") }
        defer { BN_CTX_free(context) }
        guard let result = BN_new() else { throw .arithmetic("BN_new") }
        guard operation(result, context) == 1 else {
            BN_clear_free(result)
            throw .arithmetic(name)
        }
        return BigNumber(owning: result)
    }
}

extension BigNumber: Equatable {
    static func == (lhs: BigNumber, rhs: BigNumber) -> Bool { BN_cmp(lhs.pointer, rhs.pointer) == 0 }
}
