import BridgeCore
import Logging
import MQTTDriver
import ServiceLifecycle

/// Runs the bridge: subscribes, pumps inbound MQTT messages and hardware events into it, executes its
/// command queue, and on graceful shutdown marks every device and the bridge `offline` before the MQTT
/// service (which stops after this one) flushes and disconnects.
struct BridgeService: Service {
    let bridge: Bridge
    let inbound: AsyncStream<MQTTInbound>
    /// `MQTTClient.inboundExecutor`: the inbound loop runs on the MQTT network thread as messages arrive.
    let inboundExecutor: InboundExecutor
    let hardware: [AsyncStream<HardwareEvent>]
    let logger: Logger
    /// `<prefix>/bridge/<bridge>/request/`: messages under it are handled concurrently.
    let requestTopicPrefix: String

    func run() async throws {
        await bridge.start()
        await withDiscardingTaskGroup { group in
            group.addTask { await bridge.run() }
            group.addTask(executorPreference: inboundExecutor) {
                // Bridge API requests run concurrently (an `include` lasts until inclusion ends, and its
                // `cancel` and the device commands meanwhile must still arrive); everything else in order.
                await withDiscardingTaskGroup { running in
                    for await item in inbound {
                        switch item {
                        case .message(let message) where message.topic.hasPrefix(requestTopicPrefix):
                            let request = message.inboundMessage
                            running.addTask { await bridge.receive(request) }
                        case .message(let message):
                            await bridge.receive(message.inboundMessage)
                        case .oversized(let topic, let size, let retained):
                            // The payload was never copied; the bridge rejects it by its size.
                            await bridge.receive(
                                InboundMessage(topic: topic, payload: [], retained: retained, oversize: size))
                        }
                    }
                }
            }
            for stream in hardware {
                group.addTask {
                    for await event in stream { await bridge.apply(event) }
                }
            }
            // Runs until SIGTERM/SIGINT (graceful shutdown) or cancellation.
            try? await gracefulShutdown()
            group.cancelAll()
        }
        logger.info("stopping: marking devices and the bridge offline")
        await bridge.shutdown()
    }
}
