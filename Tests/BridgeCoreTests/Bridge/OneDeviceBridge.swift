import BridgeCore
import Logging
import TestSupport

/// A Z-Wave node of devices.toml (node, room and name only): the configuration's first guess is a dimmer, until the
/// hardware tells its kind.
func configuredZWaveDevice(room: String, name: String, node: Int) -> DeviceDescriptor {
    DeviceDescriptor(
        address: DeviceAddress(room: room, name: name), kind: .dimmer, source: .zwave(node: node, instance: nil),
        kindKnown: false)
}

/// A bridge over fakes with one Z-Wave device of devices.toml, identified by the hardware as `kind`, and its command
/// queue running for `body`.
func withOneDeviceBridge(
    _ device: DeviceDescriptor, identifiedAs kind: DeviceKind,
    _ body: @Sendable (Bridge, FakeMQTTPort, FakeDeviceBackend) async throws -> Void
) async throws {
    let mqtt = FakeMQTTPort()
    let zwave = FakeDeviceBackend(adapter: .zwave)
    let bridge = Bridge(
        identity: BridgeIdentity(name: "living"), devices: [device], scenes: [], backends: [zwave], mqtt: mqtt,
        logger: Logger(label: "test"))
    await bridge.start()
    await bridge.apply(.adapterAvailability(adapter: .zwave, online: true, reason: ""))
    guard case .zwave(let node, _) = device.source else { return }
    await bridge.apply(.identified(.zwave(node: node, instance: 1), kind: kind, metered: false))
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await bridge.runCommandQueue() }
        try await body(bridge, mqtt, zwave)
        await bridge.shutdown()
        try await group.waitForAll()
    }
}
