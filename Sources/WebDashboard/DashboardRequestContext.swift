internal import Hummingbird
internal import HummingbirdWebSocket
import Synchronization

/// The dashboard's request context: Hummingbird's basic WebSocket context, except that the reference through which
/// the router hands the WebSocket handler to the upgrade sits in a ``WebSocketSlot`` the handler empties once it
/// runs.
///
/// hummingbird-websocket 2.8.1 stores the handler, with a copy of the context, in that reference (a lock box), and
/// the context holds the reference: a reference cycle nothing breaks, so every upgraded connection's context (about
/// 600 bytes, with what it holds) stayed for the life of the process. LeakSanitizer found it in the daemon suites.
struct DashboardRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let slot: WebSocketSlot

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        slot = WebSocketSlot()
    }

    var webSocket: WebSocketHandlerReference<DashboardRequestContext> { slot.reference }
}

/// Holds a request's ``DashboardRequestContext/webSocket`` reference until ``empty()``.
final class WebSocketSlot: Sendable {
    private let current = Mutex(WebSocketHandlerReference<DashboardRequestContext>())

    var reference: WebSocketHandlerReference<DashboardRequestContext> { current.withLock { $0 } }

    /// Drops the reference (and so the handler and context copy it holds): called once the upgrade has taken the
    /// handler.
    func empty() { current.withLock { $0 = .init() } }
}

/// The contexts of the WebSocket connections a server upgraded that are still in memory (weakly held): one per open
/// connection, none once they closed.
final class LiveWebSocketContexts: Sendable {
    private struct Entry { weak var slot: WebSocketSlot? }
    private let entries = Mutex<[Entry]>([])

    func track(_ slot: WebSocketSlot) {
        entries.withLock { entries in
            entries.removeAll { $0.slot == nil }
            entries.append(Entry(slot: slot))
        }
    }

    var count: Int { entries.withLock { $0.count { $0.slot != nil } } }
}
