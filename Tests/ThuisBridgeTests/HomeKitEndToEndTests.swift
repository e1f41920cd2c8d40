import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Apple Home's side of the bridge, with a real HomeKit client: aiohomekit (the library under Home Assistant's
/// HomeKit Controller) finds the bridge's `_hap._tcp` service through the real avahi-daemon, pairs with the setup
/// code, lists the accessories, reads and writes the FGD212's Lightbulb (a Brightness write reaches the emulated
/// stick as one Switch Multilevel Set), receives events for changes made over MQTT and at the device, and removes
/// its pairing, after which the bridge advertises itself unpaired again. The real `thuis-bridge run`, real
/// libopenzwave and mosquitto.
@Suite(.endToEnd) struct HomeKitEndToEndTests {
    static let setupCode = "031-45-154"
    /// HAP types: Lightbulb, On, Brightness; Outlet.
    static let lightbulb = "43"
    static let on = "25"
    static let brightness = "8"
    static let outlet = "47"
    /// Stateless Programmable Switch, Programmable Switch Event.
    static let programmableSwitch = "89"
    static let switchEvent = "73"
    static let serviceLabelIndex = "CB"

    static func homeKitLines(port: Int) -> [String] {
        ["[homekit]", "enabled = true", "name = \"Thuis \(port)\"", "port = \(port)", "setup_code = \"\(setupCode)\""]
    }

    /// The bridge's service as avahi resolved it, once `ready` holds for its TXT records.
    static func service(port: Int, _ what: String, ready: @escaping ([String]) -> Bool) async throws
        -> AvahiDaemon.BrowsedService
    {
        var found: AvahiDaemon.BrowsedService?
        try await MQTTTestClient.poll(timeout: .seconds(60), "the _hap._tcp service on port \(port) \(what)") {
            let services = (try? await AvahiDaemon.browse("_hap._tcp")) ?? []
            found = services.first { $0.port == port && $0.address.contains(".") && ready($0.txt) }
            return found != nil
        }
        guard let found else { throw TestSupportError("no _hap._tcp service on port \(port)") }
        return found
    }

    @Test(.aiohomekit) func aiohomekitPairsReadsWritesReceivesEventsAndUnpairs() async throws {
        try await HomeKitController.prepare()
        let port = try FreePort.next()
        try await ZWaveHouse.with(name: "homekit", appending: Self.homeKitLines(port: port)) { house in
            // The dimmer's kind is known once its state is published; its accessory is there from then on.
            _ = try await house.watcher.waitForMessage(topic: "Thuis/device/bedroom/light", timeout: .seconds(90))
            try await HomeKitController.with(port: port) { controller, unpaired in
                #expect(unpaired.txt.contains("ci=2"), "a bridge: \(unpaired.txt)")
                #expect(house.bridge.outputText.contains(Self.setupCode) == false, "the setup code is never logged")
                try await Self.session(controller, house: house, port: port)
            }
        }
    }

    static func session(_ controller: HomeKitController, house: ZWaveHouse, port: Int) async throws {
        try await controller.send(.object([("cmd", "pair"), ("pin", .string(setupCode))]))
        _ = try await service(port: port, "paired (sf=0)") { $0.contains("sf=0") }

        let database = AccessoryDatabase(try await controller.send(.object([("cmd", "accessories")])))
        // The bridge, the dimmer and the three PowerNode sockets.
        #expect(database.accessories.count == 5, "accessories: \(database.accessories.count)")
        let onID = try #require(database.id(service: lightbulb, characteristic: on))
        let brightnessID = try #require(database.id(service: lightbulb, characteristic: brightness))
        #expect(database.id(service: outlet, characteristic: on) != nil, "a PowerNode socket is an Outlet")
        // The FGD212's buttons (scene activation on in devices.toml) are programmable switches, S1 labelled 1, S2 2.
        let s1 = try #require(
            database.id(
                service: programmableSwitch, characteristic: switchEvent, labelType: serviceLabelIndex, label: 1))
        let s2 = try #require(
            database.id(
                service: programmableSwitch, characteristic: switchEvent, labelType: serviceLabelIndex, label: 2))

        // Subscribed, then a change over MQTT arrives as an event.
        let subscribed = try await controller.send(
            .object([
                ("cmd", "subscribe"),
                ("ids", .array([.string(onID), .string(brightnessID), .string(s1), .string(s2)])),
            ]))
        #expect(subscribed["statuses"] == .object([]), "subscribe: \(subscribed.serialized)")
        var events = controller.events.count
        try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "30")
        _ = try await controller.waitForEvent(brightnessID, from: events) { $0 == .int(30) }
        let read = try await controller.send(.object([("cmd", "get"), ("ids", .array([.string(brightnessID)]))]))
        #expect(read["values"]?[brightnessID]?["value"] == .int(30), "read: \(read.serialized)")

        // A change at the device (the wall switch, S1 double click: full on) arrives as an event too, with the double
        // press of S1's programmable switch; a click of S2 as a single press of S2's.
        events = controller.events.count
        #expect(house.stick.pressButton(node: 2, button: .s1, .double))
        _ = try await controller.waitForEvent(brightnessID, from: events) { $0 == .int(100) }
        _ = try await controller.waitForEvent(s1, from: events) { $0 == .int(1) }
        events = controller.events.count
        #expect(house.stick.pressButton(node: 2, button: .s2, .single))
        _ = try await controller.waitForEvent(s2, from: events) { $0 == .int(0) }
        #expect(!controller.events[events...].contains { $0.0 == s1 }, "S2's click is not S1's")

        // Brightness 100 from HomeKit: one Switch Multilevel Set of 99 at the stick.
        try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "20")
        try await house.watcher.waitForMessage(topic: "Thuis/device/bedroom/light", text: "20", from: await house.mark)
        let frames = house.stick.hostFrameCount
        let mark = await house.mark
        let put = try await controller.send(
            .object([("cmd", "put"), ("values", .object([(brightnessID, .int(100))]))]))
        #expect(put["statuses"] == .object([]), "put: \(put.serialized)")
        try await house.watcher.waitForMessage(topic: "Thuis/device/bedroom/light", text: "99", from: mark)
        let sets = house.stick.sets(to: 2, since: frames)
        #expect(sets.compactMap(\.setValue) == [99], "Sets to the dimmer: \(sets)")

        // Unpaired: the bridge says so in its advertisement.
        try await controller.send(.object([("cmd", "remove_pairing")]))
        _ = try await service(port: port, "unpaired again (sf=1)") { $0.contains("sf=1") }
    }
}
