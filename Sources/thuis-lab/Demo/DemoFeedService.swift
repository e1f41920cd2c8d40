import BridgeCore
import FoundationEssentials
internal import Glibc
import Logging
import MQTTDriver
import ServiceLifecycle
internal import Synchronization
internal import SystemSupport

/// The live feed: a second MQTT client subscribed to everything under the prefix (and the scene topics),
/// printing one line per message. It stops after the bridge, and waits (bounded) until the bridge's
/// `offline` has arrived, so the watcher sees the goodbye.
struct DemoFeedService: Service {
    let client: MQTTClient
    let filters: [String]
    let formatter: DemoFeedFormatter
    let console: DemoConsole
    /// `<prefix>/bridge/<name>/state`: its `offline` is the last message worth waiting for.
    let bridgeStateTopic: String
    /// `<prefix>/bridge/<name>/devices`.
    let inventoryTopic: String
    /// When the house is ready: every Z-Wave interview done, every CEC device online.
    let readiness: DemoReadiness
    /// Printed once ready (how to drive it).
    let readyHint: [String]
    let started = ContinuousClock.now

    init(
        configuration: BridgeConfiguration, readyHint: [String], console: DemoConsole,
        logger: Logger
    ) throws(MQTTError) {
        let options = MQTTClientOptions(
            clientID: "thuis-demo-feed-\(getpid())", host: configuration.mqtt.host, port: configuration.mqtt.port,
            reconnectDelayMin: .milliseconds(200), reconnectDelayMax: .seconds(2))
        client = try MQTTClient(options: options, logger: logger)
        let prefix = configuration.bridge.prefix
        let scenes = (configuration.zwave?.scenes ?? []).map(\.topic).filter { !$0.hasPrefix(prefix + "/") }
        filters = ["\(prefix)/#"] + Array(Set(scenes)).sorted()
        formatter = DemoFeedFormatter(prefix: prefix)
        self.console = console
        bridgeStateTopic = configuration.topics.bridgeState
        inventoryTopic = configuration.topics.bridgeDevices
        readiness = DemoReadiness(configuration: configuration)
        self.readyHint = readyHint
    }

    func run() async throws {
        for filter in filters { try await client.subscribe(filter, qos: .atMostOnce) }
        let sawOffline = OfflineFlag()
        await withDiscardingTaskGroup { group in
            group.addTask { try? await client.run() }
            group.addTask {
                // The bridge republishes its inventory at every interview step: show it when its size changes or
                // all interviews are done.
                var lastInventory: String?
                var readiness = readiness
                for await item in client.inbound {
                    guard case .message(let message) = item else { continue }
                    let line = formatter.format(
                        topic: message.topic, payload: message.payload, retained: message.retained)
                    if message.topic == inventoryTopic {
                        let key = DemoFeedFormatter.inventoryKey(message.payload)
                        if key == lastInventory { continue }
                        lastInventory = key
                    }
                    console.line(line.kind, line.text)
                    if message.topic == bridgeStateTopic, message.text == "offline" { sawOffline.set() }
                    if readiness.observe(message) {
                        console.ready(after: ContinuousClock.now - started, hint: readyHint)
                    }
                }
            }
            try? await gracefulShutdown()
            // The bridge has stopped; its final `offline` may still be on its way through the broker.
            let deadline = ContinuousClock.now.advanced(by: .seconds(2))
            while !sawOffline.value, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(50))
            }
            await client.shutdown(timeout: .seconds(1))
        }
    }
}

/// A flag set by the feed when it sees the bridge's `offline`.
private final class OfflineFlag: Sendable {
    private let flag = Mutex(false)

    var value: Bool { flag.withLock { $0 } }

    func set() { flag.withLock { $0 = true } }
}
