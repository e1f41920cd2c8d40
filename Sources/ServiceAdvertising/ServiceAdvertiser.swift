internal import CAvahi
public import Logging
import Synchronization

/// Publishes one DNS-SD service (e.g. `_hap._tcp`, the HomeKit bridge) through the machine's avahi-daemon, over
/// libavahi-client on avahi's own poll thread.
///
/// `start()` returns at once. The client is made with `AVAHI_CLIENT_NO_FAIL`: when avahi-daemon is not running
/// the advertiser logs once why the service cannot be found on the network and publishes as soon as the daemon
/// appears; when the daemon stops while the service is published, the same happens. A name another machine
/// already uses is replaced by avahi's alternative (`Name #2`), logged. The C handles are touched only with
/// avahi's poll lock held: inside its callbacks (which run with it held), between `avahi_threaded_poll_lock` and
/// `unlock`, or while the poll thread is not running.
public final class ServiceAdvertiser: Sendable {
    public let type: String
    public let port: UInt16
    let logger: Logger
    let state: Mutex<State>

    /// The C handles and what is published; `@unchecked Sendable` because the handles are used under avahi's
    /// poll lock only (see the type's documentation).
    struct State: @unchecked Sendable {
        var name: String
        var txt: [(String, String)]
        var poll: OpaquePointer?
        var client: OpaquePointer?
        var group: OpaquePointer?
        /// The name the daemon confirmed, while the service is published.
        var established: String?
        /// The last reason the service is not visible that was logged, so it is logged once per reason.
        var reportedProblem: String?
    }

    /// Advertises `name` as `type` (e.g. `_hap._tcp`) on `port` with the TXT records `txt` (key, value), in this
    /// order. Nothing is published before `start()`.
    public init(name: String, type: String, port: UInt16, txt: [(String, String)], logger: Logger) {
        self.type = type
        self.port = port
        self.logger = logger
        state = Mutex(State(name: name, txt: txt))
    }

    deinit {
        stop()
    }

    /// The service name the daemon confirmed (the configured one or avahi's alternative after a collision), or nil
    /// while nothing is published.
    public var publishedName: String? { state.withLock { $0.established } }

    /// Starts avahi's poll thread and the client; returns at once. Publishing follows when the daemon answers.
    /// A second call does nothing.
    public func start() {
        guard state.withLock({ $0.poll == nil }) else { return }
        guard let poll = avahi_threaded_poll_new() else {
            report("avahi's poll thread could not be created (out of memory?): the service is not advertised")
            return
        }
        // The callbacks hold an unretained reference: `stop()` (and so `deinit`) ends the poll thread before `self`
        // goes away, and no callback runs after that.
        let context = Unmanaged.passUnretained(self)
        state.withLock { $0.poll = poll }
        connect(poll: poll, context: context)
        guard avahi_threaded_poll_start(poll) >= 0 else {
            report("avahi's poll thread could not be started: the service is not advertised")
            state.withLock { state in
                if let client = state.client { avahi_client_free(client) }
                state.client = nil
                state.group = nil
            }
            avahi_threaded_poll_free(poll)
            state.withLock { $0.poll = nil }
            return
        }
    }

    /// Replaces the TXT records and re-publishes them (e.g. `sf` after pairing, `c#` after a change of the
    /// accessories). Before the service is published the new records are the ones it will be published with.
    public func update(txt: [(String, String)]) {
        let poll = state.withLock { $0.poll }
        if let poll { avahi_threaded_poll_lock(poll) }
        defer { if let poll { avahi_threaded_poll_unlock(poll) } }
        let current: (group: OpaquePointer?, client: OpaquePointer?, name: String?) = state.withLock { state in
            state.txt = txt
            return (state.group, state.client, state.established)
        }
        guard let group = current.group else { return }
        guard let name = current.name else {
            // Still registering: publish again with the new records.
            avahi_entry_group_reset(group)
            if let client = current.client { publish(client) }
            return
        }
        let list = Self.stringList(txt)
        defer { avahi_string_list_free(list) }
        let result = avahi_entry_group_update_service_txt_strlst(
            group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), name, type,
            nil, list)
        if result < 0 {
            logger.error(
                "The service's TXT records could not be updated",
                metadata: ["service": "\(name)", "error": "\(Self.describe(result))"])
        } else {
            logger.debug("Service TXT records updated", metadata: ["service": "\(name)"])
        }
    }

    /// Withdraws the service and ends avahi's poll thread. Safe to call more than once, and without `start()`.
    public func stop() {
        guard let poll = state.withLock({ $0.poll }) else { return }
        avahi_threaded_poll_stop(poll)
        state.withLock { state in
            // Freeing the client frees its entry group too, which withdraws the service.
            if let client = state.client { avahi_client_free(client) }
            state.client = nil
            state.group = nil
            state.established = nil
            state.poll = nil
        }
        avahi_threaded_poll_free(poll)
    }
}
