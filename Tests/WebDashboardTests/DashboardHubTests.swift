import BridgeCore
import Testing
import WebDashboard

/// The hub: what a dashboard gets on connect, the fan-out of publications, and that a slow dashboard is dropped
/// instead of holding the bridge or growing without bound.
@Suite struct DashboardHubTests {
    let identity = BridgeIdentity(name: "living")

    func hub(queueLimit: Int = 256) -> DashboardHub {
        DashboardHub(
            identity: identity,
            scenes: [ZWaveSceneConfig(node: 2, scene: 26, topic: "Thuis/scene/movie", payload: "on")],
            metrics: DashboardMetrics(), queueLimit: queueLimit)
    }

    func publish(_ hub: DashboardHub, _ topic: String, _ payload: String, retain: Bool = true) {
        hub.bridgePublished(topic: topic, payload: Array(payload.utf8), retain: retain)
    }

    @Test func theSnapshotSaysTheRoleAndOnlyTheAdminGetsTheAnswersToRequests() async throws {
        let hub = hub()
        let tablet = hub.connect(role: .control)
        let admin = hub.connect(role: .admin)
        #expect(try JSONValue.parse(Array(tablet.snapshot.utf8))["role"] == "control")
        #expect(try JSONValue.parse(Array(admin.snapshot.utf8))["role"] == "admin")
        publish(hub, "Thuis/bridge/living/response/include", #"{"status":"ok"}"#, retain: false)
        publish(hub, "Thuis/device/bedroom/light", "60")
        var adminMessages = admin.messages.makeAsyncIterator()
        #expect(await adminMessages.next()?.hasPrefix(#"{"type":"response""#) == true)
        // The tablet's next message is the state: the response passed it by.
        var tabletMessages = tablet.messages.makeAsyncIterator()
        #expect(await tabletMessages.next() == #"{"type":"state","topic":"Thuis/device/bedroom/light","payload":"60"}"#)
    }

    @Test func aDashboardGetsTheWholeStateOnConnectThenEveryChange() async throws {
        let hub = hub()
        publish(hub, "Thuis/bridge/living/state", "online")
        publish(hub, "Thuis/bridge/living/devices", #"[{"topic":"Thuis/device/bedroom/light"}]"#)
        publish(hub, "Thuis/device/bedroom/light", "40")
        publish(hub, "Thuis/device/bedroom/light/availability", "online")
        publish(hub, "Thuis/device/hall/gone", "on")
        publish(hub, "Thuis/device/hall/gone", "")  // cleared: the device left
        let client = hub.connect()
        let snapshot = try JSONValue.parse(Array(client.snapshot.utf8))
        #expect(snapshot["type"] == "snapshot")
        #expect(snapshot["state"] == "online")
        #expect(snapshot["bridge"] == "living")
        #expect(snapshot["devices"] == .array([.object([("topic", "Thuis/device/bedroom/light")])]))
        #expect(
            snapshot["retained"]
                == .object([
                    ("Thuis/device/bedroom/light", "40"), ("Thuis/device/bedroom/light/availability", "online"),
                ]))
        #expect(snapshot["scenes"]?.serialized.contains("Thuis/scene/movie") == true)

        publish(hub, "Thuis/device/bedroom/light", "60")
        publish(hub, "Thuis/bridge/living/event", #"{"type":"adapter_lost"}"#, retain: false)
        var messages = client.messages.makeAsyncIterator()
        #expect(await messages.next() == #"{"type":"state","topic":"Thuis/device/bedroom/light","payload":"60"}"#)
        #expect(await messages.next() == #"{"type":"event","event":{"type":"adapter_lost"}}"#)
        #expect(hub.clientCount == 1)
        #expect(hub.disconnect(client.id) == false)
        #expect(hub.clientCount == 0)
    }

    /// A mapped scene names the button and press that send it once the node's product is known (its device
    /// profile); before, only the node and scene id.
    @Test func aMappedSceneNamesItsButtonAndPressFromTheProductsProfile() async throws {
        let hub = hub()
        func scene() throws -> JSONValue? {
            guard case .array(let scenes)? = try JSONValue.parse(Array(hub.connect().snapshot.utf8))["scenes"] else {
                return nil
            }
            return scenes.first
        }
        #expect(try scene()?["button"] == nil)
        let dimmer = DeviceDescriptor(
            address: DeviceAddress(room: "bedroom", name: "light"), kind: .dimmer,
            source: .zwave(node: 2, instance: nil))
        let fgd212 = ["manufacturer_id": "0x010f", "product_type": "0x0102", "product_id": "0x1000"]
        await hub.inventoryChanged(
            BridgeInventory(identity: identity, devices: [BridgeInventory.Device(descriptor: dimmer, facts: fgd212)]))
        #expect(try scene()?["button"] == .int(2))
        #expect(try scene()?["press"] == "single")
        // Another product: its scene 26 is nothing the bridge can name.
        let other = ["manufacturer_id": "0x0086", "product_type": "0x0003", "product_id": "0x0063"]
        await hub.inventoryChanged(
            BridgeInventory(identity: identity, devices: [BridgeInventory.Device(descriptor: dimmer, facts: other)]))
        #expect(try scene()?["press"] == nil)
    }

    @Test func aDashboardThatDoesNotKeepUpIsDroppedAndTheOthersGetEverything() async throws {
        let hub = hub(queueLimit: 4)
        let slow = hub.connect()
        let fast = hub.connect()
        var fastMessages = fast.messages.makeAsyncIterator()
        var received: [String] = []
        for level in 0..<20 {
            publish(hub, "Thuis/device/bedroom/light", String(level))
            // The fast one reads as it goes; the slow one never reads.
            if let message = await fastMessages.next() { received.append(message) }
        }
        #expect(received.count == 20)
        #expect(hub.clientCount == 1)
        // The slow one's queue holds what it had room for, then ends: its socket is closed (1013) by its connection.
        var slowMessages: [String] = []
        for await message in slow.messages { slowMessages.append(message) }
        #expect(slowMessages.count == 4)
        #expect(hub.disconnect(slow.id) == true, "the slow dashboard is not marked as dropped")
        let metrics = String(decoding: hub.metrics.exposition(), as: UTF8.self)
        #expect(metrics.contains("thuis_dashboard_clients_dropped_total 1"), "\(metrics)")
        #expect(metrics.contains("thuis_dashboard_clients 1.0"), "\(metrics)")
    }
}
