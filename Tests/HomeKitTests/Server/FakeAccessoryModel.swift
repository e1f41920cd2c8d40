import BridgeCore
import Synchronization

@testable import HomeKit

/// An attribute database of two accessories: the bridge (aid 1: Identify write-only, Name read-only) and a
/// lightbulb (aid 2: On and Brightness, readable, writable, with events). Writes change the values and report them
/// as changes, as the bridge's mapping does; `emit` reports a change made elsewhere.
final class FakeAccessoryModel: AccessoryModel {
    let changes: AsyncStream<AccessoryModelChange>
    private let continuation: AsyncStream<AccessoryModelChange>.Continuation
    private let values = Mutex<[CharacteristicID: JSONValue]>([
        CharacteristicID(aid: 1, iid: 3): .string("Thuis"),
        CharacteristicID(aid: 2, iid: 10): .bool(false),
        CharacteristicID(aid: 2, iid: 11): .int(40),
    ])
    private let lampName = Mutex("Lamp")

    static let on = CharacteristicID(aid: 2, iid: 10)
    static let brightness = CharacteristicID(aid: 2, iid: 11)
    static let name = CharacteristicID(aid: 1, iid: 3)
    static let identify = CharacteristicID(aid: 1, iid: 2)

    init() {
        (changes, continuation) = AsyncStream.makeStream()
    }

    func value(_ id: CharacteristicID) -> JSONValue? { values.withLock { $0[id] } }

    func emit(_ change: AccessoryModelChange) { continuation.yield(change) }

    /// Gives the lamp another service (a structure change: the configuration number must go up).
    func renameLampService(_ name: String) {
        lampName.withLock { $0 = name }
        continuation.yield(.structure)
    }

    func database() async -> JSONValue {
        let current = values.withLock { $0 }
        func characteristic(
            _ id: CharacteristicID, _ type: String, _ perms: [String], _ format: String,
            _ extra: [(String, JSONValue)] = []
        ) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("iid", .int(id.iid)), ("type", .string(type)), ("perms", .array(perms.map { .string($0) })),
                ("format", .string(format)),
            ]
            if let value = current[id] { members.append(("value", value)) }
            return .object(members + extra)
        }
        let bridge = JSONValue.object([
            ("aid", .int(1)),
            (
                "services",
                .array([
                    .object([
                        ("iid", .int(1)), ("type", .string("3E")),
                        (
                            "characteristics",
                            .array([
                                characteristic(Self.identify, "14", ["pw"], "bool"),
                                characteristic(Self.name, "23", ["pr"], "string"),
                            ])
                        ),
                    ])
                ])
            ),
        ])
        let lamp = JSONValue.object([
            ("aid", .int(2)),
            (
                "services",
                .array([
                    .object([
                        ("iid", .int(9)), ("type", .string("43")), ("name", .string(lampName.withLock { $0 })),
                        (
                            "characteristics",
                            .array([
                                characteristic(Self.on, "25", ["pr", "pw", "ev"], "bool"),
                                characteristic(
                                    Self.brightness, "8", ["pr", "pw", "ev"], "int",
                                    [("unit", .string("percentage")), ("minValue", .int(0)), ("maxValue", .int(100))]),
                            ])
                        ),
                    ])
                ])
            ),
        ])
        return .object([("accessories", .array([bridge, lamp]))])
    }

    func read(_ ids: [CharacteristicID]) async -> [CharacteristicID: Result<JSONValue, HAPStatus>] {
        let current = values.withLock { $0 }
        var results: [CharacteristicID: Result<JSONValue, HAPStatus>] = [:]
        for id in ids {
            if id == Self.identify {
                results[id] = .failure(.writeOnly)
            } else {
                results[id] = current[id].map { .success($0) } ?? .failure(.resourceDoesNotExist)
            }
        }
        return results
    }

    func write(_ writes: [(CharacteristicID, JSONValue)]) async -> [CharacteristicID: HAPStatus] {
        var statuses: [CharacteristicID: HAPStatus] = [:]
        var changed: [(CharacteristicID, JSONValue)] = []
        for (id, value) in writes {
            switch id {
            case Self.identify: statuses[id] = .success
            case Self.name: statuses[id] = .readOnly
            case Self.on, Self.brightness:
                values.withLock { $0[id] = value }
                changed.append((id, value))
                statuses[id] = .success
            default: statuses[id] = .resourceDoesNotExist
            }
        }
        if !changed.isEmpty { continuation.yield(.values(changed)) }
        return statuses
    }

    func eventStatus(_ id: CharacteristicID) async -> HAPStatus {
        switch id {
        case Self.on, Self.brightness: .success
        case Self.name, Self.identify: .notificationNotSupported
        default: .resourceDoesNotExist
        }
    }
}
