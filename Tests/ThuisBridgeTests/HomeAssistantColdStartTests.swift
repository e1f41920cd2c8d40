import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// What Home Assistant sees while the bridge starts: a node's discovery configs appear once its devices' kinds are
/// known (from the interview, or the network cache), so no config is published and removed moments later. A real
/// mosquitto, the emulated stick and the real `thuis-bridge run`, with a recorder on `homeassistant/#` subscribed
/// before the bridge starts.
@Suite(.endToEnd) struct HomeAssistantColdStartTests {
    /// The Home Assistant house's switches (FGD212 node 2, PowerNode 6 node 3, binary switch node 4) and their Z-Wave
    /// devices, the binary switch `hall/fan` configured without a kind (devices.toml has none).
    static var zwave: ConfigFixture.ZWave {
        var zwave = ZWaveHouse.zwave
        zwave.devices.append(.init(node: 4, room: "hall", name: "fan"))
        return zwave
    }

    static let namespace = "thuis_zwave_\(HomeAssistantHouse.home)"

    /// Every node's interview complete, as the inventory reports it.
    static func interviewed(_ message: MQTTMessage) -> Bool {
        guard let devices = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [[String: Any]] else {
            return false
        }
        let zwave = devices.filter { $0["adapter"] as? String == "zwave" }
        return zwave.count == zwave.count(where: { $0["interview_stage"] as? String == "Complete" })
            && Set(zwave.compactMap { $0["node"] as? Int }) == [2, 3, 4]
    }

    /// Config topics that were published with a config and cleared later in `messages`.
    static func publishedThenRemoved(_ messages: [MQTTMessage]) -> [String] {
        var published: Set<String> = []
        var removed: [String] = []
        for message in messages where message.topic.hasSuffix("/config") {
            if !message.payload.isEmpty {
                published.insert(message.topic)
            } else if published.contains(message.topic) {
                removed.append(message.topic)
            }
        }
        return removed
    }

    @Test func aColdStartPublishesNoConfigItRemovesAndTheSwitchIsASwitch() async throws {
        try await ZWaveHouse.with(
            name: "ha-cold", network: HomeAssistantHouse.switchNetwork, zwave: Self.zwave,
            watching: ["Thuis/#", "homeassistant/#"]
        ) { house in
            let switchConfig = "homeassistant/switch/\(Self.namespace)/\(Self.namespace)_4_switch/config"
            let config = try await house.watcher.waitForMessage(
                topic: switchConfig, timeout: .seconds(60), where: { !$0.payload.isEmpty })
            #expect(JSONMessage(config)?.string("command_topic") == "Thuis/device/hall/fan/set", "\(config.text)")
            // Every node interviewed: every kind the start will ever report is known.
            _ = try await house.watcher.waitForMessage(
                topic: "Thuis/bridge/ha-cold/devices", timeout: .seconds(60), where: Self.interviewed)
            try await house.watcher.barrier()
            let messages = await house.watcher.received
            let discovery = messages.filter { $0.topic.hasPrefix("homeassistant/") }
            #expect(Self.publishedThenRemoved(discovery).isEmpty, "\(Self.publishedThenRemoved(discovery))")
            // The binary switch (no Meter) never appeared as what it is not (a metered light with a scene event and
            // triggers).
            let node4 = discovery.filter { $0.topic.contains("/\(Self.namespace)_4_") && !$0.payload.isEmpty }
            #expect(Set(node4.map(\.topic)) == [switchConfig], "\(node4.map(\.topic))")
            // The dimmer's own configs are there: gating by kind publishes every node once it is known.
            let light = "homeassistant/light/\(Self.namespace)/\(Self.namespace)_2_light/config"
            #expect(discovery.contains { $0.topic == light && !$0.payload.isEmpty })
        }
    }
}
