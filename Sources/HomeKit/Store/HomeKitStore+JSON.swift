internal import BridgeCore

/// The file's JSON: keys in hex, the rest as they are.
extension HomeKitStore {
    static func encode(_ state: State) -> [UInt8] {
        let pairings = state.pairings.map { pairing in
            JSONValue.object([
                ("identifier", .string(pairing.identifier)), ("publicKey", .string(Hex.encode(pairing.publicKey))),
                ("admin", .bool(pairing.isAdmin)),
            ])
        }
        let accessories = state.accessoryIDs.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map {
            ($0.key, JSONValue.int($0.value))
        }
        var members: [(String, JSONValue)] = [
            ("version", .int(1)), ("deviceID", .string(state.deviceID)),
            ("signingKey", .string(Hex.encode(state.signingKey))), ("setupID", .string(state.setupID)),
            ("pairings", .array(pairings)), ("configurationNumber", .int(state.configurationNumber)),
            ("structureHash", .string(state.structureHash)), ("accessoryIDs", .object(accessories)),
            ("failedAttempts", .int(state.failedAttempts)),
        ]
        if let last = state.lastFailedAttempt { members.append(("lastFailedAttempt", .int(last))) }
        if !state.accessoryKinds.isEmpty {
            let kinds = state.accessoryKinds.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }
            members.append(("accessoryKinds", .object(kinds)))
        }
        return Array(JSONValue.object(members).serialized.utf8)
    }

    static func decode(_ bytes: [UInt8], path: String) throws(HomeKitStoreError) -> State {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw .malformed(path: path, reason: "not JSON (\(error))")
        }
        func fail(_ reason: String) -> HomeKitStoreError { .malformed(path: path, reason: reason) }
        guard case .string(let deviceID) = json["deviceID"], deviceID.utf8.count == 17 else {
            throw fail("`deviceID` is missing or not XX:XX:XX:XX:XX:XX")
        }
        guard case .string(let keyText) = json["signingKey"], let signingKey = Hex.decode(keyText),
            signingKey.count == 32
        else { throw fail("`signingKey` is missing or not 32 bytes in hex") }
        guard case .string(let setupID) = json["setupID"], setupID.count == 4 else {
            throw fail("`setupID` is missing or not four characters")
        }
        guard case .int(let configurationNumber) = json["configurationNumber"],
            (1...65535).contains(configurationNumber)
        else { throw fail("`configurationNumber` is missing or not 1 to 65535") }
        guard case .string(let structureHash) = json["structureHash"] else { throw fail("`structureHash` is missing") }
        guard case .int(let failedAttempts) = json["failedAttempts"], failedAttempts >= 0 else {
            throw fail("`failedAttempts` is missing or negative")
        }
        var lastFailedAttempt: Int?
        switch json["lastFailedAttempt"] {
        case nil: break
        case .int(let milliseconds)?: lastFailedAttempt = milliseconds
        default: throw fail("`lastFailedAttempt` is not a number")
        }
        guard case .array(let pairingValues) = json["pairings"] else { throw fail("`pairings` is missing") }
        var pairings: [Pairing] = []
        for value in pairingValues {
            guard case .string(let identifier) = value["identifier"], case .string(let keyHex) = value["publicKey"],
                let publicKey = Hex.decode(keyHex), publicKey.count == 32, case .bool(let admin) = value["admin"]
            else { throw fail("a pairing lacks its `identifier`, 32-byte `publicKey` or `admin`") }
            pairings.append(Pairing(identifier: identifier, publicKey: publicKey, isAdmin: admin))
        }
        guard case .object(let accessoryMembers) = json["accessoryIDs"] else { throw fail("`accessoryIDs` is missing") }
        var accessoryIDs: [String: Int] = [:]
        var owners: [Int: String] = [:]
        for (key, value) in accessoryMembers {
            guard case .int(let aid) = value, aid >= 2 else { throw fail("accessory id of \(key) is not 2 or more") }
            // Two devices with one aid would be one accessory to every controller (the fuzzer's `hap-store` found a
            // file that said so, and its two writes came out different).
            if let other = owners.updateValue(key, forKey: aid) {
                throw fail("accessory id \(aid) is given to both \(other) and \(key)")
            }
            accessoryIDs[key] = aid
        }
        // Optional (files written before it have none).
        var accessoryKinds: [String: String] = [:]
        switch json["accessoryKinds"] {
        case nil: break
        case .object(let members)?:
            for (key, value) in members {
                guard case .string(let kind) = value else { throw fail("the remembered kind of \(key) is not text") }
                accessoryKinds[key] = kind
            }
        default: throw fail("`accessoryKinds` is not an object")
        }
        return State(
            deviceID: deviceID, signingKey: signingKey, setupID: setupID, pairings: pairings,
            configurationNumber: configurationNumber, structureHash: structureHash, accessoryIDs: accessoryIDs,
            failedAttempts: failedAttempts, lastFailedAttempt: lastFailedAttempt, accessoryKinds: accessoryKinds)
    }
}

/// Lower-case hexadecimal text of bytes.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    static func decode(_ text: String) -> [UInt8]? {
        let nibbles = text.utf8.map { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        guard nibbles.count % 2 == 0, !nibbles.contains(nil) else { return nil }
        let values = nibbles.compactMap { $0 }
        return stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
    }
}
