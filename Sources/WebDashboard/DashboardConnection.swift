import BridgeCore
import HummingbirdWebSocket
import Logging
internal import NIOWebSocket
internal import ServiceLifecycle

/// One dashboard's WebSocket: the snapshot first, then everything the bridge publishes (``DashboardHub``), while its
/// messages go to the bridge the way MQTT messages do: a device command through `Bridge.receive` in arrival order, a
/// request through ``DashboardRequests``. A message the bridge cannot use, or the dashboard's ``DashboardRole`` may not
/// send (``DashboardPolicy``), gets an `error` reply naming why; nothing a dashboard sends closes the socket except a
/// frame over 64 KiB (1009, as the WebSocket layer does).
struct DashboardConnection: Sendable {
    let hub: DashboardHub
    let bridge: Bridge
    let requests: DashboardRequests
    let logger: Logger

    /// Why the bridge closes a dashboard that did not keep up (1013, "try again later": the page reconnects).
    static let tooSlow = WebSocketErrorCode.unknown(1013)

    func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, role: DashboardRole) async throws {
        let client = hub.connect(role: role)
        defer { hub.disconnect(client.id) }
        logger.debug("dashboard connected", metadata: ["client": "\(client.id)", "role": "\(role)"])
        try await outbound.write(.text(client.snapshot))
        // On SIGTERM the connection ends at once, whether or not the page reads or closes: the server's stop waits
        // for every connection (and the Z-Wave cache write waits for the server's stop).
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await text in client.messages { try await outbound.write(.text(text)) }
                    // The queue ended: the hub dropped this dashboard (too slow), or the socket is closing.
                    if !Task.isCancelled {
                        logger.warning("dashboard too slow: disconnected", metadata: ["client": "\(client.id)"])
                        try await outbound.close(Self.tooSlow, reason: "too slow: reconnect for the current state")
                    }
                }
                group.addTask {
                    for try await message in inbound.messages(maxSize: DashboardServer.maximumFrameSize) {
                        await handle(message, from: client.id, role: role)
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        logger.debug("dashboard disconnected", metadata: ["client": "\(client.id)"])
    }

    func handle(_ message: WebSocketMessage, from client: Int, role: DashboardRole) async {
        let parsed: DashboardProtocol.ClientMessage
        do throws(DashboardProtocol.ProtocolError) {
            guard case .text(let text) = message else { throw DashboardProtocol.binary() }
            parsed = try DashboardProtocol.parse(Array(text.utf8))
        } catch {
            return hub.send(DashboardProtocol.error(error.description), to: client)
        }
        let topics = hub.identity.topics
        switch parsed {
        case .set(let topic, let payload):
            let target: DashboardPolicy.SetTarget
            switch DashboardPolicy.target(ofSet: topic, topics: topics, registry: await bridge.currentRegistry) {
            case .success(let allowed): target = allowed
            case .failure(let refusal): return hub.send(DashboardProtocol.error(refusal.reason), to: client)
            }
            // Parsed as an MQTT payload on the same topic would be; a payload that makes no command is refused like
            // one (a `command_rejected` event).
            do {
                let command = try PayloadParser.command(for: target.route, payload: payload, device: target.device)
                if let refusal = DashboardPolicy.refusal(ofCommand: command, role: role) {
                    return hub.send(DashboardProtocol.error(refusal), to: client)
                }
                await bridge.submit(command, to: target.device.address, from: .dashboard(client: client))
            } catch {
                await bridge.refuse(
                    InboundMessage(topic: topic, payload: payload, retained: false), reason: error.reason,
                    from: .dashboard(client: client))
            }
        case .request(let verb, let payload):
            if let refusal = DashboardPolicy.refusal(ofRequest: verb, role: role) {
                return hub.send(DashboardProtocol.error(refusal), to: client)
            }
            let message = InboundMessage(topic: topics.request(verb), payload: payload, retained: false)
            if !requests.submit(message, from: client) {
                hub.send(
                    DashboardProtocol.error(
                        "too many requests in flight (\(DashboardRequests.perClient)); wait for a response"),
                    to: client)
            }
        case .scene(let topic, let payload):
            do {
                try await bridge.activateScene(topic: topic, payload: payload)
            } catch {
                hub.send(DashboardProtocol.error(error.reason), to: client)
            }
        }
    }
}
