import BridgeCore
import Logging
import MQTTDriver
import ServiceLifecycle
import SystemSupport

/// Runs the bridge (`Bridge.run`, both flows) as a service until graceful shutdown (SIGTERM/SIGINT); the bridge
/// then marks every device and itself `offline` before the MQTT service, which stops after this one, flushes
/// and disconnects.
///
/// Each time the bridge's adapters have settled (`Bridge.settled`: the start-up, or a recovered adapter's set-up, is
/// over), the executable's read-only pages go back to the kernel (`ExecutablePages.pageOut()`, memory measure
/// `code-page-out`): most of them held code that only the start-up ran.
struct BridgeService: Service {
    let bridge: Bridge
    let mqtt: MQTTClient
    let hardware: [AsyncStream<HardwareEvent>]
    let pageOutAfterStartUp: Bool
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                if pageOutAfterStartUp {
                    group.addTask { await pageOutWhenSettled() }
                }
                await bridge.run(
                    inbound: mqtt.inboundMessages, hardware: hardware, inboundExecutor: mqtt.inboundExecutor)
                group.cancelAll()
            }
        }
    }

    func pageOutWhenSettled() async {
        for await _ in bridge.settled {
            switch ExecutablePages.pageOut() {
            case .success(let bytes):
                logger.info(
                    "start-up over: the executable's read-only pages given back", metadata: ["bytes": "\(bytes)"])
            case .failure(let error):
                logger.notice("start-up over: the executable's pages stay", metadata: ["reason": "\(error)"])
            }
        }
    }
}
