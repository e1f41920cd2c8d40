import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// Sensor tiles in a real browser (headless Chromium): the emulated `sensors` network's MultiSensor 6 (node 2) and
/// door sensor (node 3), both sleeping, and WallMote Quad (node 6), through real libopenzwave in the real
/// `thuis-bridge run`: each reading with its unit, binary sensors in words, the battery, no control; the tile follows
/// the sensor; the roller shutter's tile moves it; the door lock's tile (node 7) unlocks and locks it for the admin
/// and only locks it for the wall tablet; the thermostat's tile sets it; the WallMote's tile shows its buttons; the
/// node page shows the battery.
@Suite(
    .endToEnd, .timeLimit(.minutes(TestTime.scaled(minutes: 15))),
    .enabled(if: BrowserInstall.isInstalled || BrowserInstall.isRequired, Comment(rawValue: BrowserInstall.missing)))
struct DashboardSensorBrowserTests {
    static let motion = "Thuis/device/hall/motion"
    static let door = "Thuis/device/hall/door"
    static let zwave = ConfigFixture.ZWave(devices: [
        .init(node: 2, room: "hall", name: "motion"), .init(node: 3, room: "hall", name: "door"),
        .init(node: 7, room: "hall", name: "lock"),
    ])

    /// The text of sensor `sensor` on the tile of `topic`, once it contains `contains`.
    static func reading(
        _ browser: DashboardBrowser, _ topic: String, _ sensor: String, contains: String, timeout: Int = 30
    ) async throws -> String {
        try await browser.text(
            "wait_text",
            [
                ("selector", .string("[data-topic=\"\(topic)\"] [data-sensor=\"\(sensor)\"] dd")),
                ("contains", .string(contains)),
            ],
            timeout: timeout)
    }

    @Test func sensorTilesShowTheReadingsFollowTheSensorsAndHaveNoControl() async throws {
        guard BrowserInstall.isInstalled else { throw TestSupportError(BrowserInstall.missing) }
        let ready = [
            ("\(Self.motion)/temperature", "21.5"), ("\(Self.motion)/battery", "90"), ("\(Self.door)/battery", "80"),
        ]
        try await BrowserHouse.with(network: .sensors, zwave: Self.zwave, ready: ready, waking: [2, 3, 6]) {
            house, browser, _ in
            try await browser.run("open", [("url", .string(house.url + "?token=\(DashboardBrowserTests.token)"))])
            for (sensor, text) in [
                ("temperature", "21.5 °C"), ("humidity", "45 %"), ("luminance", "120 lx"),
                ("ultraviolet", "1 UV index"),
                ("battery", "90 %"),
            ] {
                let shown = try await Self.reading(browser, Self.motion, sensor, contains: text)
                #expect(shown == text, "\(sensor): \(shown)")
            }
            #expect(try await Self.reading(browser, Self.door, "temperature", contains: "°C") == "19.0 °C")
            #expect(try await Self.reading(browser, Self.door, "battery", contains: "%") == "80 %")
            // No binary reading before the first report; then the sensors in words.
            #expect(try await Self.reading(browser, Self.door, "contact", contains: "") == "—")
            #expect(house.stick.setMotion(node: 2, true))
            #expect(try await Self.reading(browser, Self.motion, "motion", contains: "motion") == "motion")
            #expect(house.stick.setDoor(node: 3, open: true))
            #expect(try await Self.reading(browser, Self.door, "contact", contains: "open") == "open")
            let header = try await browser.text(
                "wait_text",
                [("selector", .string("[data-topic=\"\(Self.door)\"] header .value")), ("contains", "open")])
            #expect(header == "open")
            #expect(house.stick.tamper(node: 3))
            #expect(try await Self.reading(browser, Self.door, "tamper", contains: "tampered") == "tampered")
            // A changed reading and a low battery.
            #expect(house.stick.setSensor(node: 2, type: 1, value: 23.5))
            #expect(try await Self.reading(browser, Self.motion, "temperature", contains: "23.5") == "23.5 °C")
            #expect(house.stick.setBattery(node: 2, level: 15))
            #expect(try await Self.reading(browser, Self.motion, "battery", contains: "15") == "15 %")
            let low = "[data-topic=\"\(Self.motion)\"] [data-sensor=\"battery\"].low"
            #expect(try await browser.run("displayed", [("selector", .string(low))]) == [true])
            #expect(house.stick.setMotion(node: 2, false))
            #expect(try await Self.reading(browser, Self.motion, "motion", contains: "no motion") == "no motion")

            // No control: no button, slider or list on a sensor tile.
            for topic in [Self.motion, Self.door] {
                let controls =
                    "[data-topic=\"\(topic)\"] button, [data-topic=\"\(topic)\"] input, [data-topic=\"\(topic)\"] select"
                #expect(try await browser.run("displayed", [("selector", .string(controls))]) == [], "\(topic)")
            }
            // The roller shutter (node 4, unassigned): its buttons and slider move it, its header follows.
            let cover = "Thuis/device/unassigned/node4"
            let coverHeader = "[data-topic=\"\(cover)\"] header .value"
            #expect(
                try await browser.text("wait_text", [("selector", .string(coverHeader)), ("contains", "open")])
                    == "open")
            try await browser.run(
                "click", [("selector", .string("[data-topic=\"\(cover)\"] [data-command=\"close\"]"))])
            #expect(
                try await browser.text(
                    "wait_text", [("selector", .string(coverHeader)), ("contains", "closed")], timeout: 60)
                    == "closed")
            #expect(house.stick.level(node: 4) == 0)
            try await Self.followLock(browser, house)
            // The radiator thermostat (node 5, unassigned): its header shows the mode and setpoint; + raises the
            // setpoint by the device's step (0.5 °C), which reaches the emulated Spirit and comes back as its report.
            let thermostat = "Thuis/device/unassigned/node5"
            let thermostatHeader = "[data-topic=\"\(thermostat)\"] header .value"
            #expect(
                try await browser.text("wait_text", [("selector", .string(thermostatHeader)), ("contains", "20.0")])
                    == "Heat · 20.0 °C")
            try await browser.run(
                "click", [("selector", .string("[data-topic=\"\(thermostat)\"] [data-command=\"raise\"]"))])
            #expect(
                try await browser.text("wait_text", [("selector", .string(thermostatHeader)), ("contains", "20.5")])
                    == "Heat · 20.5 °C")
            #expect(house.stick.thermostat(node: 5)?.setpoint == 20.5)
            // Its mode selector: eco reaches the Spirit as Energy Save Heat (11), and the header follows.
            let modeSelector = "[data-topic=\"\(thermostat)\"] select"
            _ = try await browser.run(
                "script",
                [("source", .string(DashboardMapBrowserTests.choose)), ("args", [.string(modeSelector), "eco"])])
            #expect(
                try await browser.text("wait_text", [("selector", .string(thermostatHeader)), ("contains", "Eco")])
                    == "Eco · 20.5 °C")
            #expect(house.stick.thermostat(node: 5)?.mode == 0x0B)
            // The WallMote (node 6, unassigned): a row per button with the last action and when, and no control.
            let wallmote = "Thuis/device/unassigned/node6"
            #expect(
                try await browser.text(
                    "wait_text",
                    [("selector", .string("[data-topic=\"\(wallmote)\"] header .value")), ("contains", "4 buttons")],
                    timeout: 60) == "4 buttons")
            let second = "[data-topic=\"\(wallmote)\"] [data-button=\"2\"] dd"
            #expect(try await browser.text("wait_text", [("selector", .string(second)), ("contains", "")]) == "—")
            for (action, shown) in [(SceneAction.held, "Held · "), (.pressed(2), "Pressed 2x · ")] {
                #expect(house.stick.pressSceneButton(node: 6, button: 2, action))
                let text = try await browser.text(
                    "wait_text", [("selector", .string(second)), ("contains", .string(shown))])
                #expect(text.hasPrefix(shown), "\(text)")
            }
            let first = "[data-topic=\"\(wallmote)\"] [data-button=\"1\"] dd"
            #expect(try await browser.text("wait_text", [("selector", .string(first)), ("contains", "")]) == "—")
            let controls = ["button", "input", "select"].map { "[data-topic=\"\(wallmote)\"] \($0)" }
            #expect(
                try await browser.run("displayed", [("selector", .string(controls.joined(separator: ", ")))]) == [])
            try await Self.screenshot(browser, "sensor-tiles", width: 900, height: 1100)
            try await Self.screenshot(browser, "sensor-tiles-phone", width: 390, height: 844)

            try await browser.run("open", [("url", .string(house.url + "?token=\(DashboardBrowserTests.token)"))])

            // The node page shows the battery.
            try await browser.run("open", [("url", .string(house.url + "node/2"))])
            let battery = try await browser.text(
                "wait_text", [("selector", "[data-fact=\"battery\"]"), ("contains", "%")])
            #expect(battery == "15 %")
            #expect(house.stick.setBattery(node: 2, level: 60))
            #expect(
                try await browser.text("wait_text", [("selector", "[data-fact=\"battery\"]"), ("contains", "60")])
                    == "60 %")
            // Every value OpenZWave has for the node, mapped or not (`values`): the wake-up interval (Wake Up, 0x84),
            // which no topic carries, in the facts and in the table; nothing held for the wake-up.
            let interval = try await browser.text(
                "wait_text", [("selector", "[data-fact=\"wake-up-interval\"]"), ("contains", " s")])
            #expect(interval.wholeMatch(of: /[0-9]+ s/) != nil, "\(interval)")
            let table = try await browser.text("wait_text", [("selector", "table.values"), ("contains", "0x84")])
            #expect(table.contains("0x31") && table.contains("Wake-up Interval"), "\(table)")
            #expect(
                try await browser.text("wait_text", [("selector", "ul.pending"), ("contains", "nothing")]) == "nothing")
            try await Self.screenshot(browser, "sensor-node", width: 1100, height: 700)
            // The WallMote's node page lists its buttons and their actions.
            try await browser.run("open", [("url", .string(house.url + "node/6"))])
            let buttons = try await browser.text(
                "wait_text", [("selector", "[data-fact=\"buttons\"]"), ("contains", "4: ")])
            #expect(buttons == "4: pressed, pressed 2x, pressed 3x, pressed 4x, pressed 5x, held, released")
        }
    }

    /// The lock's tile: `locked` from the interview; the admin unlocks and locks it; a jam shows; the wall tablet's
    /// dashboard has unlock disabled and locks it.
    static func followLock(_ browser: DashboardBrowser, _ house: BrowserHouse) async throws {
        let lock = "[data-topic=\"Thuis/device/hall/lock\"]"
        /// The header once the tile's state is `state` exactly (`locked` is in `unlocked`).
        func header(_ state: String) async throws -> String {
            try await browser.text(
                "wait_text",
                [("selector", .string("\(lock)[data-state=\"\(state)\"] header .value")), ("contains", .string(state))])
        }
        func click(_ command: String) async throws {
            try await browser.run("click", [("selector", .string("\(lock) [data-command=\"\(command)\"]"))])
        }
        #expect(try await header("locked") == "locked")
        try await click("unlock")
        #expect(try await header("unlocked") == "unlocked")
        #expect(house.stick.level(node: 7) == 0x00)
        try await click("lock")
        #expect(try await header("locked") == "locked")
        #expect(house.stick.level(node: 7) == 0xFF)
        #expect(house.stick.jamLock(node: 7))
        #expect(try await header("jammed") == "jammed")
        try await screenshot(browser, "lock-tile-jammed", width: 900, height: 700)

        try await browser.run("open", [("url", .string(house.url + "?token=\(DashboardBrowserTests.tablet)"))])
        #expect(try await header("jammed") == "jammed")
        let unlock = "\(lock) [data-command=\"unlock\"]:disabled"
        #expect(try await browser.run("displayed", [("selector", .string(unlock))]) == [true])
        try await click("lock")
        #expect(try await header("locked") == "locked")
    }

    /// A PNG of the page for a person to look at, in the temporary directory (its path printed); nothing is checked.
    static func screenshot(_ browser: DashboardBrowser, _ name: String, width: Int, height: Int) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("thuis-\(name).png").path
        try await browser.run(
            "screenshot", [("path", .string(path)), ("width", .int(width)), ("height", .int(height))])
        print("\(name): \(path)")
    }
}
