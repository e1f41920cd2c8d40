// libFuzzer target `hap-pairing`: the Pair Setup and Pair Verify state machines fed any message in any state. The
// input is a sequence of messages cut at 0xFF 0x00 0xFF; each message's first byte picks the machine (even: Pair
// Setup, odd: Pair Verify) and whether the accessory is paired, the rest is its TLV8 body. Every answer is TLV8 with
// a state, and nothing a random peer sends pairs or verifies.
import Crypto

@testable import HomeKit

private let identity = PairSetup.Identity(
    pairingID: "AA:BB:CC:DD:EE:FF",
    signingKey: (try? Curve25519.Signing.PrivateKey(rawRepresentation: Array(repeating: 3, count: 32)))
        ?? Curve25519.Signing.PrivateKey())
private let controller = Pairing(identifier: "fuzz", publicKey: Array(repeating: 1, count: 32), isAdmin: true)
private let code = try? SetupCode("031-45-154")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let code else { preconditionFailure("the setup code does not parse") }
    var setup = PairSetup(identity: identity, setupCode: code)
    var verify = PairVerify(identity: identity)
    for message in messages(bytes).prefix(16) {
        guard let selector = message.first, let body = try? TLV8(decoding: message.dropFirst()) else { continue }
        if selector & 1 == 0 {
            let outcome = setup.handle(body, isPaired: selector & 2 != 0, failedAttempts: Int(selector >> 2))
            precondition(outcome.response.byte(.state) != nil, "a Pair Setup answer without a state")
            precondition(outcome.paired == nil, "random bytes completed Pair Setup")
        } else {
            let outcome = verify.handle(body) { $0 == controller.identifier ? controller : nil }
            precondition(outcome.response.byte(.state) != nil, "a Pair Verify answer without a state")
            precondition(outcome.session == nil, "random bytes completed Pair Verify")
        }
    }
    return 0
}

private func messages(_ bytes: [UInt8]) -> [[UInt8]] {
    var result: [[UInt8]] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if index + 2 < bytes.count, bytes[index] == 0xFF, bytes[index + 1] == 0x00, bytes[index + 2] == 0xFF {
            result.append(current)
            current = []
            index += 3
        } else {
            current.append(bytes[index])
            index += 1
        }
    }
    result.append(current)
    return result
}
