internal import BridgeCore
internal import Crypto
internal import Logging

/// The model's changes: values as `EVENT/1.0` to the subscribed sessions, structure as a new configuration number
/// (and TXT records).
extension HAPServer {
    /// Consumes `model.changes` until it ends or the server stops.
    func forwardChanges() async {
        for await change in model.changes {
            switch change {
            case .values(let values): deliver(values)
            case .structure: await structureChanged()
            }
        }
    }

    /// One event per session with the values it subscribed to, except a value the session itself wrote. A
    /// session whose queue is full (`outgoingLimit`: its controller stopped reading) is closed, logged and
    /// counted.
    func deliver(_ values: [(CharacteristicID, JSONValue)]) {
        for (id, var connection) in connections where connection.controller != nil && !connection.overflowed {
            var items: [JSONValue] = []
            for (characteristic, value) in values where connection.subscriptions.contains(characteristic) {
                if let echo = connection.echoes.removeValue(forKey: characteristic), echo == value { continue }
                items.append(
                    .object([("aid", .int(characteristic.aid)), ("iid", .int(characteristic.iid)), ("value", value)]))
            }
            guard !items.isEmpty else {
                connections[id] = connection
                continue
            }
            let event = Self.json(200, .object([("characteristics", .array(items))]))
            if !connection.output.yield(.bytes(event.encoded(protocol: "EVENT/1.0"))) {
                connection.overflowed = true
                droppedSlowConnections += 1
                logger.warning(
                    "HomeKit: connection \(id) does not read its events (\(configuration.outgoingLimit) waiting): closed",
                    metadata: ["dropped": "\(droppedSlowConnections)"])
            }
            connections[id] = connection
        }
    }

    /// Hashes the attribute database without its values; a new hash raises the configuration number.
    func structureChanged() async {
        let hash = Self.structureHash(await model.database())
        do {
            let number = try store.noteStructure(hash: hash)
            logger.debug("HomeKit: configuration number \(number)")
        } catch {
            logger.error("HomeKit: \(error)")
        }
        advertiseNow()
    }

    /// Reports the current TXT records to the advertiser.
    func advertiseNow() {
        advertise(
            HAPAdvertisement.txt(
                name: configuration.name, deviceID: store.deviceID, configurationNumber: store.configurationNumber,
                isPaired: store.isPaired, category: configuration.category, setupID: store.setupID))
    }

    /// SHA-256 of the database's JSON with every `value` member left out, in hex.
    static func structureHash(_ database: JSONValue) -> String {
        func strip(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let members): .object(members.filter { $0.0 != "value" }.map { ($0.0, strip($0.1)) })
            case .array(let items): .array(items.map(strip))
            default: value
            }
        }
        return Hex.encode(Array(SHA256.hash(data: Array(strip(database).serialized.utf8))))
    }
}
