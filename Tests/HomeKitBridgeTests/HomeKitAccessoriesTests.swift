import BridgeCore
import HomeKit
import HomeKitBridge
import Logging
import Synchronization
import TestSupport
import Testing

/// The bridge's devices as HomeKit accessories, with a real `Bridge` (fake MQTT and backends) feeding the model its
/// publications and taking its writes through the command path.
@Suite struct HomeKitAccessoriesTests {
    static let identity = BridgeIdentity(name: "living")
    static let light = DeviceDescriptor(
        address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer, source: .zwave(node: 2, instance: nil),
        metered: true)
    static let socket = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "ambilight"), kind: .socket,
        source: .zwave(node: 3, instance: 1), metered: true)
    static let tv = DeviceDescriptor(
        address: DeviceAddress(room: "living", name: "tv"), kind: .tv, source: .cec(logicalAddress: 0),
        inputs: ["ps5": "2.0.0.0", "appletv": "1.0.0.0"])
    /// S2 single click and S1 double click of the FGD212: both buttons.
    static let scenes = [
        ZWaveSceneConfig(node: 2, scene: 26, topic: "Thuis/scene/movie", payload: "on"),
        ZWaveSceneConfig(node: 2, scene: 14, topic: "Thuis/scene/night", payload: "on"),
    ]

    /// Hands out aids from 2 on, the same for the same key (the pairing store's part).
    final class Allocator: Sendable {
        let aids = Mutex<[String: Int]>([:])
        func aid(_ key: String) -> Int {
            aids.withLock { aids in
                if let aid = aids[key] { return aid }
                let aid = (aids.values.max() ?? 1) + 1
                aids[key] = aid
                return aid
            }
        }
    }

    /// Every change the model reported, for waiting on one.
    actor ChangeRecorder {
        private(set) var changes: [AccessoryModelChange] = []
        private var waiters:
            [(matches: @Sendable (AccessoryModelChange) -> Bool, done: CheckedContinuation<Void, Never>)] = []

        func record(_ change: AccessoryModelChange) {
            changes.append(change)
            waiters.removeAll { waiter in
                guard waiter.matches(change) else { return false }
                waiter.done.resume()
                return true
            }
        }

        func waitFor(_ matches: @escaping @Sendable (AccessoryModelChange) -> Bool) async {
            if changes.contains(where: matches) { return }
            await withCheckedContinuation { waiters.append((matches, $0)) }
        }

        var structureChanges: Int { changes.filter { if case .structure = $0 { true } else { false } }.count }
    }

    struct Fixture: Sendable {
        let bridge: Bridge
        let model: HomeKitAccessories
        let zwave: FakeDeviceBackend
        let cec: FakeDeviceBackend
        let changes: ChangeRecorder
        let allocator: Allocator

        func aid(_ device: DeviceDescriptor) -> Int { allocator.aid(HomeKitAccessories.allocationKey(device.source)) }
    }

    func withBridge(
        devices: [DeviceDescriptor] = [light, socket, tv], allocator: Allocator = Allocator(),
        memory: AccessoryMemory = .none, _ body: @Sendable (Fixture) async throws -> Void
    ) async throws {
        let mqtt = FakeMQTTPort()
        let zwave = FakeDeviceBackend(adapter: .zwave)
        let cec = FakeDeviceBackend(adapter: .cec)
        let model = HomeKitAccessories(
            name: "Thuis living", identity: Self.identity, scenes: Self.scenes, allocate: allocator.aid,
            memory: memory, logger: Logger(label: "homekit"))
        let bridge = Bridge(
            identity: Self.identity, devices: devices, scenes: Self.scenes, backends: [zwave, cec],
            frontEnds: [model], mqtt: mqtt, logger: Logger(label: "test"))
        let recorder = ChangeRecorder()
        let consumer = Task {
            for await change in model.changes { await recorder.record(change) }
        }
        defer { consumer.cancel() }
        await bridge.start()
        await model.run(serving: bridge)
        await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
        await bridge.apply(.adapterAvailability(adapter: .cec, online: true, reason: ""))
        await bridge.apply(
            .details(.zwave(node: 2, instance: nil), [("manufacturer", "FIBARO"), ("product", "FGD212")]))
        let fixture = Fixture(
            bridge: bridge, model: model, zwave: zwave, cec: cec, changes: recorder, allocator: allocator)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await bridge.runCommandQueue() }
            try await body(fixture)
            await bridge.shutdown()
            try await group.waitForAll()
        }
    }

    // MARK: Reading the database

    /// The accessory with `aid` in the database.
    func accessory(_ database: JSONValue, _ aid: Int) throws -> [JSONValue] {
        guard case .array(let accessories)? = database["accessories"] else { throw TestSupportError("no accessories") }
        let found = accessories.first { $0["aid"] == .int(aid) }
        guard case .array(let services)? = found?["services"] else { throw TestSupportError("no accessory \(aid)") }
        return services
    }

    func service(_ services: [JSONValue], iid: Int) -> JSONValue? { services.first { $0["iid"] == .int(iid) } }

    func characteristic(_ service: JSONValue?, iid: Int) -> JSONValue? {
        guard case .array(let characteristics)? = service?["characteristics"] else { return nil }
        return characteristics.first { $0["iid"] == .int(iid) }
    }

    func types(_ services: [JSONValue]) -> [String] {
        services.compactMap { if case .string(let type)? = $0["type"] { type } else { nil } }
    }

    /// The values of a `.values` change, by id.
    static func values(_ change: AccessoryModelChange) -> [CharacteristicID: JSONValue] {
        guard case .values(let values) = change else { return [:] }
        return Dictionary(values.map { ($0.0, $0.1) }, uniquingKeysWith: { $1 })
    }

    func waitForChange(
        _ fixture: Fixture, _ matches: @escaping @Sendable (AccessoryModelChange) -> Bool
    ) async throws {
        let arrived: Void? = try await finishing(within: .seconds(60)) { await fixture.changes.waitFor(matches) }
        #expect(arrived != nil, "the change never came")
    }

    func waitForCommands(_ backend: FakeDeviceBackend, _ count: Int) async throws {
        let arrived: Void? = try await finishing(within: .seconds(60)) { await backend.waitForCommands(count) }
        #expect(arrived != nil, "the command never came")
    }
}
