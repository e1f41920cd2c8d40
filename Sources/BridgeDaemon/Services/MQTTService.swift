import BridgeCore
import Logging
import MQTTDriver
import ServiceLifecycle

/// Runs the MQTT connection. It is the first service of the group, so on SIGTERM/SIGINT it stops last:
/// after the bridge has published every `offline` state, it publishes the bridge `offline` with QoS 1,
/// waits for the broker's acknowledgement (bounded) and disconnects cleanly.
struct MQTTService: Service {
    let client: MQTTClient
    let finalPublications: [MQTTPublication]

    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await client.run() }
            try? await gracefulShutdown()
            await client.shutdown(final: finalPublications, timeout: .seconds(2))
        }
    }
}
