import BridgeCore
import Logging
import Testing

@testable import ZWaveDriver

/// The events a request causes through the library's notifications go through the request's sink, so its response
/// follows them: a claimed node's events while the request runs, an excluded node's removal before the exclusion
/// is answered.
@Suite struct RequestEventRoutingTests {
    /// A claimed node's events go through the request's sink until the request is answered (its sink closed); the
    /// other nodes' events, and the node's after the answer, go to the backend's stream.
    @ZWaveBackendActor
    @Test func aClaimedNodesEventsGoThroughTheRequestUntilItIsAnswered() async {
        let (stream, continuation) = AsyncStream.makeStream(of: HardwareEvent.self)
        let router = EventRouter(stream: continuation)
        let (progress, requestEvents) = RequestProgress.makeStream()
        router.claim(NodeID(5), for: progress)
        router.yield(.removed(.zwave(node: 5, instance: nil)))
        router.yield(.update(.zwave(node: 3, instance: nil), .level(10)))
        router.emit(.nodeRemoved(node: 5))
        router.emit(.healthCheck(.completed(nodes: 1)))
        progress.finish()
        router.yield(.update(.zwave(node: 5, instance: 1), .level(20)))
        router.finish()

        #expect(
            await Self.texts(requestEvents) == [
                "\(HardwareEvent.removed(.zwave(node: 5, instance: nil)))",
                "\(HardwareEvent.event(.nodeRemoved(node: 5)))",
            ])
        #expect(
            await Self.texts(stream) == [
                "\(HardwareEvent.update(.zwave(node: 3, instance: nil), .level(10)))",
                "\(HardwareEvent.event(.healthCheck(.completed(nodes: 1))))",
                "\(HardwareEvent.update(.zwave(node: 5, instance: 1), .level(20)))",
            ])
    }

    /// OpenZWave reports an exclusion's `Completed` before the node's `Type_NodeRemoved`: the exclusion is answered
    /// only once the removal (the node's devices and `node_removed`) went through the request's sink, after the
    /// controller's progress.
    @ZWaveBackendActor
    @Test func anExclusionIsAnsweredAfterTheRemovalOfItsNode() async throws {
        let backend = ZWaveBackend(
            driver: OpenZWave(
                configuration: ZWaveDriverConfiguration(port: "/dev/null", userPath: "/tmp"),
                logger: Logger(label: "test")),
            devices: [ZWaveDeviceConfig(node: 2, address: DeviceAddress(room: "bedroom", name: "light"))],
            logger: Logger(label: "test"))
        let (progress, requestEvents) = RequestProgress.makeStream()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let exclusion = Task { @ZWaveBackendActor in
            try await backend.sessions.run(
                .exclude, timeout: .seconds(600), healthCheckRunning: false, progress: progress
            ) { () async throws(ZWaveError) in start.yield() }
        }
        for await _ in started { break }

        await backend.handle(.controllerCommand(Self.exclusion(.inProgress)))
        await backend.handle(.controllerCommand(Self.exclusion(.completed)))
        #expect(backend.sessions.session != nil, "the exclusion ended before the library reported the removal")
        await backend.handle(.nodeRemoved(NodeID(2)))
        let outcome = try await exclusion.value
        #expect(outcome == .completed(NodeID(2)))
        progress.finish()

        #expect(
            await Self.texts(requestEvents) == [
                "\(HardwareEvent.event(.controller(.exclusion, .nodeFound)))",
                "\(HardwareEvent.event(.controller(.exclusion, .node(2))))",
                "\(HardwareEvent.event(.controller(.exclusion, .protocolDone(node: 2))))",
                "\(HardwareEvent.removed(.zwave(node: 2, instance: nil)))",
                "\(HardwareEvent.event(.nodeRemoved(node: 2)))",
            ])
    }

    static func exclusion(_ state: ZWaveControllerUpdate.State) -> ZWaveControllerUpdate {
        ZWaveControllerUpdate(command: 4, state: state, error: .none, node: NodeID(2))
    }

    static func texts(_ stream: AsyncStream<HardwareEvent>) async -> [String] {
        var texts: [String] = []
        for await event in stream { texts.append("\(event)") }
        return texts
    }
}
