import BridgeCore
import Foundation
import Logging
import TestSupport
import Testing

@Suite struct ShippedConfigurationTests {
    /// The repository's devices.toml, found from this file's path.
    static let shippedPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("devices.toml").path

    @Test func shippedFileLoadsWithTheExampleHouse() throws {
        let configuration = try ConfigurationLoader.load(path: Self.shippedPath)
        #expect(configuration.bridge == BridgeSection(name: "living", prefix: "Thuis", logLevel: .info))
        #expect(configuration.mqtt == MQTTSection(host: "localhost", port: 1883))
        #expect(!configuration.mqtt.usesTLS)

        let zwave = try #require(configuration.zwave)
        #expect(zwave.port == "/dev/zwave")
        #expect(zwave.configPath == "/etc/openzwave")
        #expect(zwave.stateDirectory == "/var/lib/thuis-bridge")
        #expect(zwave.logLevel == .warning)
        let mapped = zwave.devices.map { "\($0.source) \($0.address)" }
        #expect(
            mapped == [
                "zwave node 2 bedroom/light",
                "zwave node 3 instance 1 living/receiver", "zwave node 3 instance 2 living/appletv",
                "zwave node 3 instance 3 living/subwoofer", "zwave node 3 instance 4 living/ambilight",
                "zwave node 3 instance 5 living/playstation", "zwave node 3 instance 6 living/spare",
                "zwave node 4 living/main", "zwave node 5 living/mood", "zwave node 6 dining/light",
                "zwave node 7 kitchen/light", "zwave node 8 entrance/light", "zwave node 9 office/light",
                "zwave node 11 living/shutter", "zwave node 12 bedroom/radiator", "zwave node 13 entrance/lock",
            ])
        #expect(
            zwave.devices[0].config == [
                ZWaveConfigParameter(parameter: 28, value: 1), ZWaveConfigParameter(parameter: 50, value: 20),
                ZWaveConfigParameter(parameter: 52, value: 600), ZWaveConfigParameter(parameter: 53, value: 5),
            ])
        #expect(zwave.devices.dropFirst().allSatisfy { $0.config.isEmpty })
        #expect(
            zwave.scenes == [
                ZWaveSceneConfig(node: 2, scene: 26, topic: "Thuis/scene/homeTheater", payload: "on")
            ])

        let cec = try #require(configuration.cec)
        #expect(cec.port == "auto")
        #expect(cec.osdName == "Thuis")
        #expect(cec.deviceType == .recording)
        #expect(cec.rxEvents == false)
        #expect(
            cec.devices == [
                CECDeviceConfig(
                    logicalAddress: 0, address: DeviceAddress(room: "living", name: "tv"),
                    inputs: [
                        "appletv": PhysicalAddress(rawValue: 0x1000), "chromecast": PhysicalAddress(rawValue: 0x2000),
                    ])
            ])
    }

    @Test func shippedFileTopicTableListsEveryDeviceAndTheBridgeTopics() throws {
        let table = TopicTable(try ConfigurationLoader.load(path: Self.shippedPath))
        #expect(table.devices.count == 17)
        let tv = try #require(table.devices.first { $0.address == DeviceAddress(room: "living", name: "tv") })
        #expect(tv.kind == "tv")
        #expect(tv.source == .cec(logicalAddress: 0))
        #expect(tv.topics.contains("Thuis/device/living/tv/input/set"))
        let text = table.description
        #expect(text.contains("living/ambilight"))
        #expect(text.contains("zwave node 3 instance 4"))
        #expect(text.contains("Thuis/device/bedroom/light"))
        #expect(text.contains("cec LA 0"))
        #expect(text.contains("Thuis/scene/homeTheater"))
        #expect(text.contains("Thuis/bridge/living/request/<command>"))
        #expect(text.contains("Thuis/device/+/+/+/set"))
        #expect(!text.split(separator: "\n").contains { $0.hasSuffix(" ") })
    }

    @Test func minimalFileGetsTheDocumentedDefaults() throws {
        let configuration = try ConfigurationLoader.parse(text: ConfigFixture(name: "pi").text)
        #expect(configuration == BridgeConfiguration(bridge: BridgeSection(name: "pi")))
        #expect(configuration.bridge.prefix == "Thuis")
        #expect(configuration.mqtt.host == "localhost")
        #expect(configuration.mqtt.port == 1883)
        #expect(configuration.zwave == nil)
        #expect(configuration.cec == nil)
        #expect(configuration.topics.bridgeState == "Thuis/bridge/pi/state")

        let sections = try ConfigurationLoader.parse(
            text: ConfigFixture(name: "pi", zwave: .init(port: "/dev/ttyACM0"), cec: .init()).text)
        #expect(sections.zwave == ZWaveSection(port: "/dev/ttyACM0"))
        #expect(sections.zwave?.configPath == "/etc/openzwave")
        #expect(sections.zwave?.stateDirectory == "/var/lib/thuis-bridge")
        #expect(sections.cec == CECSection())
        #expect(sections.cec?.osdName == "Thuis")
        #expect(sections.cec?.deviceType == .recording)
    }

    @Test func everyOptionalKeyIsRead() throws {
        let fixture = ConfigFixture(
            name: "tv-pi", prefix: "home/Thuis", logLevel: .debug,
            mqtt: .init(
                host: "broker.lan", port: 8883, username: "thuis", passwordFile: "/etc/thuis-bridge/mqtt.password",
                caFile: "/etc/thuis-bridge/ca.crt", certFile: "/etc/thuis-bridge/client.crt",
                keyFile: "/etc/thuis-bridge/client.key"),
            zwave: .init(
                port: "/dev/zwave", logLevel: .detail,
                devices: [
                    .init(node: 12, instance: 2, room: "garden", name: "pump", config: [3: -1, 1: 2_147_483_647])
                ],
                scenes: [.init(node: 12, instance: 2, scene: 10, topic: "home/scene/garden", payload: "")]),
            cec: .init(
                port: "Linux", osdName: "Woonkamer Pi", deviceType: .playback, rxEvents: true,
                devices: [.init(address: 5, room: "living", name: "avr")]))
        let configuration = try ConfigurationLoader.parse(text: fixture.text)
        #expect(configuration.bridge == BridgeSection(name: "tv-pi", prefix: "home/Thuis", logLevel: .debug))
        #expect(
            configuration.mqtt
                == MQTTSection(
                    host: "broker.lan", port: 8883, username: "thuis", passwordFile: "/etc/thuis-bridge/mqtt.password",
                    caFile: "/etc/thuis-bridge/ca.crt", certFile: "/etc/thuis-bridge/client.crt",
                    keyFile: "/etc/thuis-bridge/client.key"))
        #expect(configuration.mqtt.usesTLS)
        #expect(configuration.zwave?.logLevel == .detail)
        #expect(
            configuration.zwave?.devices == [
                ZWaveDeviceConfig(
                    node: 12, instance: 2, address: DeviceAddress(room: "garden", name: "pump"),
                    config: [
                        ZWaveConfigParameter(parameter: 1, value: .max), ZWaveConfigParameter(parameter: 3, value: -1),
                    ])
            ])
        #expect(
            configuration.zwave?.scenes == [
                ZWaveSceneConfig(node: 12, instance: 2, scene: 10, topic: "home/scene/garden", payload: "")
            ])
        #expect(
            configuration.cec
                == CECSection(
                    port: "Linux", osdName: "Woonkamer Pi", deviceType: .playback, rxEvents: true,
                    devices: [CECDeviceConfig(logicalAddress: 5, address: DeviceAddress(room: "living", name: "avr"))]))
        #expect(configuration.topics.device(room: "living", name: "avr").state == "home/Thuis/device/living/avr")
    }
}
