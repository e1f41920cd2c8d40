internal import HummingbirdCore
internal import HummingbirdWebSocket
internal import Logging
internal import NIOCore
internal import NIOHTTP1

/// The server's connections: HTTP/1 with the WebSocket upgrade, where a refused upgrade is answered with the access
/// decision's own status (401 for a missing or wrong token, 403 for a foreign origin or host) and reason, instead of
/// the bare 400 the WebSocket layer gives any upgrade it does not make.
///
/// An ``UpgradeGate`` between the HTTP decoder and the upgrade handler takes the `Upgrade` header off a request
/// ``DashboardAccess`` refuses; the request then goes to the router as a plain one, whose ``AccessMiddleware`` refuses
/// it with the reason.
struct DashboardChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let upgrade: HTTP1WebSocketUpgradeChannel
    let access: DashboardAccess

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let access = self.access
        return upgrade.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(UpgradeGate(access: access), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await upgrade.handle(value: value, logger: logger)
    }
}

/// Takes the `Upgrade` header off a WebSocket upgrade the dashboard refuses (see ``DashboardChannel``). Only a
/// connection's first request can be an upgrade: the gate leaves the pipeline once that request's head passed (before
/// the WebSocket's frames could reach it).
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    let access: DashboardAccess

    init(access: DashboardAccess) {
        self.access = access
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(gated(data))
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func gated(_ data: NIOAny) -> NIOAny {
        guard case .head(var head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") else { return data }
        let target = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let request = DashboardAccess.Request(
            path: target.first.map(String.init) ?? "/", query: target.count > 1 ? String(target[1]) : nil,
            authorization: head.headers.first(name: "authorization"), cookies: head.headers["cookie"],
            host: head.headers.first(name: "host"), origin: head.headers.first(name: "origin"), upgrade: true)
        if case .allowed = access.decide(request) { return data }
        head.headers.remove(name: "upgrade")
        head.headers.replaceOrAdd(name: "connection", value: "keep-alive")
        return wrapInboundOut(.head(head))
    }
}
