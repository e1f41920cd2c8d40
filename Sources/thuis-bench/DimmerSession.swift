import Foundation
import LabSupport
import ZWaveEmulator

/// A broker, the emulated default network (FGD212 node 2, PowerNode 6 node 3), the real bridge mapping them,
/// a commanding client and a watching client: the setting of scenarios 1-3.
struct DimmerSession: Sendable {
    let broker: MosquittoBroker
    let fixture: ZWaveFixture
    let bridge: BridgeRun
    let commander: BenchClient
    let watcher: BenchClient
    let refreshAfterSet: Bool
    let startup: Duration

    static let node: UInt8 = 2
    static let stateTopic = "Thuis/device/bench/d2"
    static let setTopic = "Thuis/device/bench/d2/set"
    static let echoTopic = "Thuis/bench/echo"

    /// Starts the session; `openZWavePatches: false` runs the bridge with OpenZWave as shipped; `homeKit`: the
    /// bridge also serves HomeKit with this `[homekit]` section (its directory named after `label`).
    static func start(
        run: BenchDirectory, refreshAfterSet: Bool, openZWavePatches: Bool = true, label: String = "",
        homeKit: (String) -> String = { _ in "" }, log: (String) -> Void
    ) async throws -> DimmerSession {
        let directory = try run.subdirectory(
            "dimmer-refresh-\(refreshAfterSet)" + (openZWavePatches ? "" : "-patches-off") + label)
        let broker = try await MosquittoBroker.bench(directory: run)
        let fixture = try ZWaveFixture(
            network: .defaultNetwork, radioLatency: .zero,
            link: (directory as NSString).appendingPathComponent("zwave"))
        let watcher = try await BenchClient(port: broker.port, name: "watcher")
        try await watcher.subscribe("Thuis/#")
        let commander = try await BenchClient(port: broker.port, name: "commander")
        let body =
            fixture.zwaveSection(
                stateDirectory: (directory as NSString).appendingPathComponent("state"),
                refreshAfterSet: refreshAfterSet,
                openZWavePatches: openZWavePatches) + homeKit(directory)
        let started = ContinuousClock.now
        let bridge = try BridgeRun.start(name: "bench", brokerPort: broker.port, body: body, directory: directory)
        guard await watcher.wait(topic: stateTopic, from: 0, timeout: .seconds(60)) != nil else {
            let output = bridge.process.outputText.suffix(4000)
            await bridge.process.stop(timeout: .seconds(10))
            await commander.close()
            await watcher.close()
            await fixture.stop()
            await broker.stop()
            throw BenchError("the bridge never published \(stateTopic):\n\(output)")
        }
        _ = await fixture.waitForQuiet(.seconds(1), timeout: .seconds(60))
        let startup = ContinuousClock.now - started
        log(
            "  bridge ready (refresh_after_set = \(refreshAfterSet), openzwave_patches = \(openZWavePatches)) after \(seconds(startup.milliseconds / 1000)) incl. 1 s quiet"
        )
        return DimmerSession(
            broker: broker, fixture: fixture, bridge: bridge, commander: commander, watcher: watcher,
            refreshAfterSet: refreshAfterSet, startup: startup)
    }

    func stop() async {
        await bridge.process.stop(timeout: .seconds(10))
        await commander.close()
        await watcher.close()
        await fixture.stop()
        await broker.stop()
    }

    /// One broker round trip: commander publishes, watcher receives. Milliseconds, nil on timeout.
    func brokerRoundTrip(_ sequence: Int) async throws -> Double? {
        let text = "rt-\(sequence)"
        let from = watcher.inbox.mark
        let start = ContinuousClock.now
        try await commander.publish(Self.echoTopic, text)
        guard let got = await watcher.wait(topic: Self.echoTopic, text: text, from: from, timeout: .seconds(5)) else {
            return nil
        }
        return (got.time - start).milliseconds
    }

    /// A level different from the previous one, 1-99.
    static func level(_ index: Int) -> UInt8 { UInt8(index % 98 + 1) }
}
