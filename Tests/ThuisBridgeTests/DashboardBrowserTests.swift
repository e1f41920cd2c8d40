import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// the dashboard in a real browser (headless Chromium) against the real `thuis-bridge run` process on a
/// real mosquitto and the emulated Z-Wave stick (FGD212 node 2, PowerNode 6 node 3, node 10 joining when asked):
/// the token, tiles following MQTT, a slider and a toggle reaching the stick, inclusion from the network page, the
/// node page reading OpenZWave's statistics and parameters.
/// The time limit only catches a hang: it counts the wait for an end-to-end slot too (another suite, such as the
/// 231-node one, may hold one for minutes).
@Suite(
    .endToEnd, .timeLimit(.minutes(TestTime.scaled(minutes: 15))),
    .enabled(if: BrowserInstall.isInstalled || BrowserInstall.isRequired, Comment(rawValue: BrowserInstall.missing)))
struct DashboardBrowserTests {
    static let token = "browser-test-token-0123456789"
    static let tablet = "browser-test-tablet-0123456789"
    static let light = "Thuis/device/bedroom/light"
    static let ambilight = "Thuis/device/living/ambilight"

    @Test func theDashboardDrivesAndFollowsTheHouse() async throws {
        guard BrowserInstall.isInstalled else { throw TestSupportError(BrowserInstall.missing) }
        try await BrowserHouse.with { house, browser, version in
            print("dashboard: \(house.url) in Chromium \(version)")
            try await refusesAMissingOrWrongToken(house, browser)
            try await tilesFollowMQTT(house, browser)
            try await theSliderReachesTheDimmer(house, browser)
            try await theToggleReachesTheSocket(house, browser)
            try await inclusionFromTheNetworkPage(house, browser)
            try await theNetworkPageShowsStatisticsAndChecksHealth(house, browser)
            try await theNodePageReadsOpenZWave(house, browser)
            try await theTabletSeesTheTilesAndNoNetwork(house, browser)
        }
    }

    /// Without the token (or with a wrong one) the pages are 401 and the browser's WebSocket is refused.
    func refusesAMissingOrWrongToken(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        var body = try await browser.text("open", [("url", .string(house.url))])
        #expect(body.hasPrefix("401 unauthorized"), "without the token: \(body)")
        body = try await browser.text("open", [("url", .string(house.url + "network?token=wrong-token-0123456789"))])
        #expect(body.hasPrefix("401 unauthorized"), "with a wrong token: \(body)")
        let socket = try await browser.text("socket", [("path", "/ws")])
        #expect(socket.hasPrefix("closed "), "the browser's WebSocket without the cookie: \(socket)")
    }

    /// With `?token=` once (it becomes a cookie), the tile shows what another MQTT client changes.
    func tilesFollowMQTT(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        try await browser.run("open", [("url", .string(house.url + "?token=\(Self.token)"))])
        let before = try await browser.run("wait_state", [("topic", .string(Self.light)), ("state", "0")])
        #expect(before == "0")
        #expect(try await browser.text("socket", [("path", "/ws")]) == "open", "the cookie does not open the socket")

        try await browser.run("watch", [("topic", .string(Self.light)), ("state", "30")])
        let mark = await house.watcher.received.count
        let published = Date().timeIntervalSince1970 * 1000
        try await house.watcher.publish(topic: Self.light + "/set", text: "30")
        try await house.watcher.waitForMessage(topic: Self.light, text: "30", from: mark, timeout: .seconds(20))
        let delivered = Date().timeIntervalSince1970 * 1000
        // A time in milliseconds; Chromium's clock has 0.1 ms steps, so about one in ten is a whole number (an int).
        let shown: Double
        switch try await browser.run("watched", [("topic", .string(Self.light)), ("state", "30")]) {
        case .double(let time): shown = time
        case .int(let time): shown = Double(time)
        case let other:
            Issue.record("the tile never showed 30: \(other)")
            return
        }
        print(
            "MQTT → tile: /set published → tile shows it: \(Int(shown - published)) ms; the state's delivery to an "
                + "MQTT subscriber (seen by the test) → tile: \(Int(shown - delivered)) ms")
    }

    /// Dragging the dimmer's slider (keys on a range input fire its input and change events, as a drag does) sends
    /// levels while it moves; the stick gets Switch Multilevel Sets, the last one the slider's level.
    func theSliderReachesTheDimmer(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        let frames = house.stick.hostFrameCount
        try await browser.run(
            "keys",
            [
                ("selector", .string("[data-topic=\"\(Self.light)\"] input[type=range]")),
                ("keys", .array(["HOME"] + Array(repeating: "ARROW_RIGHT", count: 45))),
            ])
        try await browser.run("wait_state", [("topic", .string(Self.light)), ("state", "45")])
        let sets = house.stick.sets(to: 2, since: frames)
        #expect(!sets.isEmpty)
        #expect(sets.allSatisfy { $0.bytes.first == 0x26 }, "not all Switch Multilevel Sets: \(sets)")
        #expect(sets.last?.setValue == 45, "Sets to the dimmer: \(sets)")
        #expect(house.stick.level(node: 2) == 45)
        print(
            "slider: \(sets.count) Switch Multilevel Sets reached the stick for 46 slider positions: \(sets.compactMap(\.setValue))"
        )
    }

    /// The socket's button toggles it: one Switch Binary Set to the PowerNode's endpoint 4.
    func theToggleReachesTheSocket(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        let before = try await browser.text("state", [("topic", .string(Self.ambilight))])
        #expect(before == "on" || before == "off", "\(before)")
        let after = before == "on" ? "off" : "on"
        let frames = house.stick.hostFrameCount
        try await browser.run("click", [("selector", .string("[data-topic=\"\(Self.ambilight)\"] button"))])
        try await browser.run("wait_state", [("topic", .string(Self.ambilight)), ("state", .string(after))])
        let sets = house.stick.sets(to: 3, since: frames)
        #expect(sets.count == 1 && sets.first?.endpoint == 4, "Sets to the PowerNode: \(sets)")
        #expect(sets.first?.bytes.prefix(3) == [0x25, 0x01, after == "on" ? 0xFF : 0x00], "\(sets)")
        #expect(house.stick.switchState(node: 3, endpoint: 4) == (after == "on"))
    }

    /// Include on the network page: the countdown and progress run, node 10 joins, gets its row and its stanza.
    func inclusionFromTheNetworkPage(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        try await browser.run("click", [("selector", "nav a[href=\"/network\"]")])
        try await browser.run("wait_text", [("selector", "tr[data-node=\"2\"]"), ("contains", "bedroom/light")])
        try await browser.run("click", [("selector", "#include")])
        try await browser.run("wait_text", [("selector", "#controller-countdown"), ("contains", "inclusion:")])
        let stanza = try await browser.text(
            "wait_text", [("selector", "#stanza"), ("contains", "[[zwave.device]]")], timeout: 120)
        #expect(stanza.contains("node = 10"), "\(stanza)")
        #expect(house.stick.includedNodeIDs.contains(10))
        let row = try await browser.text(
            "wait_text", [("selector", "tr[data-node=\"10\"]"), ("contains", "unassigned/node10")])
        #expect(row.contains("alive"), "\(row)")
        let progress = try await browser.text(
            "wait_text", [("selector", "#controller-progress"), ("contains", "Node added")])
        #expect(progress.contains("Inclusion waiting"), "\(progress)")
    }

    /// The network page's statistics table (network_stats: counts on top, route fields the emulated stick does not
    /// report shown as such) and its health check of every node, with the results.
    func theNetworkPageShowsStatisticsAndChecksHealth(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        let counts = try await browser.text("wait_text", [("selector", "#network-counts"), ("contains", "alive")])
        #expect(counts.contains("0 dead"), "\(counts)")
        let hops = try await browser.text(
            "wait_text",
            [("selector", "#network-stats tr[data-stats-node=\"2\"] [data-column=\"hops\"]"), ("contains", "")])
        #expect(hops == "not reported", "hops of node 2: \(hops)")
        // OpenZWave 1.6 never computes a node's quality: no column that is always 0.
        #expect(try await browser.run("displayed", [("selector", "#network-stats [data-column=\"quality\"]")]) == [])
        try await browser.run("click", [("selector", "#health-check")])
        let rating = try await browser.text(
            "wait_text", [("selector", "#health-results tr[data-health-node=\"2\"] .rating"), ("contains", "/10")],
            timeout: 120)
        #expect(rating == "10/10", "node 2's rating: \(rating)")
        let progress = try await browser.text("wait_text", [("selector", "#health-progress"), ("contains", "frame")])
        #expect(progress.contains("acknowledged"), "\(progress)")
    }

    /// The node page reads OpenZWave's statistics (node_stats) and the FGD212's parameters (config_list), 28 first.
    func theNodePageReadsOpenZWave(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        try await browser.run("click", [("selector", "a[href=\"/node/2\"]")])
        let sent = try await browser.text("wait_text", [("selector", "[data-stat=\"sent\"]"), ("contains", "")])
        #expect((Int(sent) ?? 0) > 0, "frames sent to node 2: \(sent)")
        #expect(try await browser.run("displayed", [("selector", "[data-stat=\"quality\"]")]) == [])
        let first = try await browser.text("wait_text", [("selector", "tbody tr[data-parameter]"), ("contains", "28")])
        #expect(first.hasPrefix("28"), "the first parameter row: \(first)")
    }

    /// The control token (the wall tablet): the tiles and the events, no network link, and the network page is 403.
    func theTabletSeesTheTilesAndNoNetwork(_ house: BrowserHouse, _ browser: DashboardBrowser) async throws {
        try await browser.run("open", [("url", .string(house.url + "?token=\(Self.tablet)"))])
        _ = try await browser.run("wait_text", [("selector", "#connection"), ("contains", "online")])
        #expect(try await browser.run("displayed", [("selector", "nav a[href=\"/network\"]")]) == [false])
        #expect(try await browser.run("displayed", [("selector", "nav a[href=\"/events\"]")]) == [true])
        let body = try await browser.text("open", [("url", .string(house.url + "network"))])
        #expect(body.hasPrefix("403 forbidden"), "the network page with the control token: \(body)")
    }
}

/// A real mosquitto, the emulated Z-Wave stick (the default network), the real `thuis-bridge run` process with its
/// dashboard on a free loopback port behind a token, and an MQTT client on `Thuis/#`.
final class BrowserHouse: Sendable {
    let broker: MosquittoBroker
    let stick: ZWaveStickEmulator
    let watcher: MQTTTestClient
    let directory: TemporaryDirectory
    let bridge: ChildProcess
    /// The dashboard's base URL (`http://127.0.0.1:<port>/`).
    let url: String
    /// Wakes the sleeping nodes OpenZWave tries to reach (nil: none to wake).
    let waker: Task<Void, Never>?

    /// What shows the default network is ready: the FGD212 and a PowerNode socket online, and the dimmer's state.
    static let defaultReady = [
        ("Thuis/device/bedroom/light/availability", "online"), ("Thuis/device/living/ambilight/availability", "online"),
        (DashboardBrowserTests.light, "0"),
    ]

    private init(
        broker: MosquittoBroker, stick: ZWaveStickEmulator, watcher: MQTTTestClient, directory: TemporaryDirectory,
        bridge: ChildProcess, url: String, waker: Task<Void, Never>?
    ) {
        self.broker = broker
        self.stick = stick
        self.watcher = watcher
        self.directory = directory
        self.bridge = bridge
        self.url = url
        self.waker = waker
    }

    /// - Parameters:
    ///   - zwave: devices.toml's Z-Wave part (its port and state directory are the house's).
    ///   - ready: the topics and payloads to wait for before the house is ready.
    ///   - sleepers: the sleeping nodes to wake whenever OpenZWave sends them a frame (as in ``ZWaveHouse``).
    static func start(
        network: NetworkDescription = .defaultNetwork, zwave mapped: ConfigFixture.ZWave = ZWaveHouse.zwave,
        ready: [(String, String)] = defaultReady, waking sleepers: Set<UInt8> = []
    ) async throws -> BrowserHouse {
        let broker = try await MosquittoBroker.start()
        let directory = try TemporaryDirectory(prefix: "thuis-web")
        let stick = ZWaveStickEmulator(network: network)
        try stick.start(link: directory.file("zwave"))
        var zwave = mapped
        zwave.port = directory.file("zwave")
        zwave.stateDirectory = directory.file("state")
        let config = try directory.write(
            "devices.toml",
            ConfigFixture(
                name: "web", mqtt: .local(port: broker.port), zwave: zwave,
                web: .init(
                    listen: "127.0.0.1:0", adminToken: DashboardBrowserTests.token,
                    controlToken: DashboardBrowserTests.tablet)
            ).text)
        let watcher = try await MQTTTestClient.connect(port: broker.port)
        try await watcher.subscribe("Thuis/#")
        let waker = sleepers.isEmpty ? nil : ZWaveHouse.wake(sleepers, of: stick)
        let bridge = try ZWaveHouse.startBridge(config: config, directory: directory)
        func fail(_ reason: String) async -> any Error {
            _ = await bridge.stop(timeout: .seconds(15))
            waker?.cancel()
            stick.stop()
            await watcher.close()
            await broker.stop()
            directory.remove()
            return TestSupportError("\(reason):\n\(bridge.outputText.suffix(10_000))")
        }
        guard
            let line = await bridge.waitForLine(
                timeout: .seconds(30), where: { $0.text.contains("dashboard listening") }),
            let found = line.text.range(of: #"http://127\.0\.0\.1:[0-9]+/"#, options: .regularExpression)
        else { throw await fail("the bridge did not say where its dashboard listens") }
        do {
            for (topic, payload) in ready {
                try await watcher.waitForMessage(topic: topic, text: payload, timeout: .seconds(60))
            }
        } catch {
            throw await fail("the bridge did not get ready: \(error)")
        }
        return BrowserHouse(
            broker: broker, stick: stick, watcher: watcher, directory: directory, bridge: bridge,
            url: String(line.text[found]), waker: waker)
    }

    /// Runs `body` with a started house and browser (and the browser's version), printing the bridge's and the
    /// harness's output when it fails, stopping both after.
    static func with(
        network: NetworkDescription = .defaultNetwork, zwave: ConfigFixture.ZWave = ZWaveHouse.zwave,
        ready: [(String, String)] = defaultReady, waking sleepers: Set<UInt8> = [],
        _ body: (BrowserHouse, DashboardBrowser, String) async throws -> Void
    ) async throws {
        let house = try await BrowserHouse.start(network: network, zwave: zwave, ready: ready, waking: sleepers)
        let (browser, version) = try await DashboardBrowser.start()
        do {
            try await body(house, browser, version)
        } catch {
            print("bridge output:\n\(house.bridge.outputText.suffix(15_000))")
            print("browser harness:\n\(browser.process.outputText.suffix(5_000))")
            await browser.stop()
            await house.stop()
            throw error
        }
        await browser.stop()
        await house.stop()
    }

    func stop() async {
        let stopped = await bridge.stop(timeout: .seconds(15))
        if stopped != .exited(0) { print("the bridge did not stop cleanly: \(String(describing: stopped))") }
        waker?.cancel()
        stick.stop()
        await watcher.close()
        await broker.stop()
        directory.remove()
    }
}
