import BridgeCore
import MQTTDriver
import ServiceLifecycle

/// Runs the bridge (`Bridge.run`, both flows) as a service until graceful shutdown (SIGTERM/SIGINT); the bridge
/// then marks every device and itself `offline` before the MQTT service, which stops after this one, flushes
/// and disconnects.
struct BridgeService: Service {
    let bridge: Bridge
    let mqtt: MQTTClient
    let hardware: [AsyncStream<HardwareEvent>]

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await bridge.run(inbound: mqtt.inboundMessages, hardware: hardware)
        }
    }
}
