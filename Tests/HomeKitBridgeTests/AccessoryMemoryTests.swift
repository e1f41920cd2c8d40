import BridgeCore
import HomeKit
import HomeKitBridge
import Synchronization
import TestSupport
import Testing

/// Apple Home keeps its rooms, scenes and automations across any start: a start before the interview (no
/// OpenZWave cache) serves the accessories the last start had, with the same aids and services, so a paired iPhone
/// that connects meanwhile removes nothing.
extension HomeKitAccessoriesTests {
    /// The pairing store's part: what each device was, by the allocator's key.
    final class Memory: Sendable {
        let kinds = Mutex<[String: String]>([:])
        var memory: AccessoryMemory {
            AccessoryMemory(
                recall: { key in self.kinds.withLock { $0[key] } },
                remember: { key, kind in self.kinds.withLock { $0[key] = kind } })
        }
    }

    /// Each accessory's aid with its services' types, in order.
    func structure(_ database: JSONValue) -> [String] {
        guard case .array(let accessories)? = database["accessories"] else { return [] }
        return accessories.map { accessory in
            guard case .array(let services)? = accessory["services"] else { return "\(accessory["aid"] ?? .null)" }
            return "\(accessory["aid"] ?? .null): \(types(services).joined(separator: " "))"
        }
    }

    /// devices.toml's devices as the bridge has them before their interviews: kinds guessed, not known.
    static let beforeInterview = [light, socket, tv].map { device in
        DeviceDescriptor(
            address: device.address, kind: device.kind == .tv ? .tv : .binarySwitch, source: device.source,
            inputs: device.inputs, kindKnown: false)
    }

    @Test func aStartBeforeTheInterviewsServesTheAccessoriesTheLastStartHad() async throws {
        let allocator = Allocator()
        let memory = Memory()
        let known = Mutex<[String]>([])
        try await withBridge(allocator: allocator, memory: memory.memory) { fixture in
            let structure = structure(await fixture.model.database())
            known.withLock { $0 = structure }
        }
        let before = known.withLock { $0 }
        #expect(before.count == 4, "the bridge and three devices: \(before)")
        #expect(
            memory.kinds.withLock { $0 } == ["zwave:2": "dimmer+metered", "zwave:3:1": "socket+metered", "cec:0": "tv"])

        try await withBridge(devices: Self.beforeInterview, allocator: allocator, memory: memory.memory) { fixture in
            #expect(structure(await fixture.model.database()) == before, "an accessory changed before its interview")
            // The interview then tells the same kind: the accessories stay as they are.
            await fixture.bridge.apply(.identified(Self.light.source, kind: .dimmer, metered: true))
            #expect(structure(await fixture.model.database()) == before)
        }
    }

    @Test func withoutTheMemoryTheDevicesWaitForTheirInterviews() async throws {
        try await withBridge(devices: Self.beforeInterview) { fixture in
            #expect(structure(await fixture.model.database()).count == 1, "only the bridge, as before the fix")
        }
    }

    @Test func aDeviceDevicesTomlDropsLeavesEvenIfRemembered() async throws {
        let allocator = Allocator()
        let memory = Memory()
        try await withBridge(allocator: allocator, memory: memory.memory) { _ in }
        try await withBridge(devices: [Self.beforeInterview[0]], allocator: allocator, memory: memory.memory) {
            fixture in
            let structure = structure(await fixture.model.database())
            #expect(structure.count == 2, "the bridge and the light only: \(structure)")
        }
    }

    @Test func theStoreKeepsWhatEachDeviceWasAcrossARestart() throws {
        let directory = try TemporaryDirectory(prefix: "accessory-memory")
        let path = directory.file("homekit.json")
        let store = try HomeKitStore(path: path)
        store.rememberKind("dimmer+metered", for: "zwave:2")
        let reopened = try HomeKitStore(path: path)
        #expect(reopened.rememberedKind(for: "zwave:2") == "dimmer+metered")
        #expect(reopened.rememberedKind(for: "zwave:3") == nil)
    }
}
