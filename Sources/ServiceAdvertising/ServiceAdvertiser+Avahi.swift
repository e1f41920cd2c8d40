internal import CAvahi
import Logging
import Synchronization

/// The avahi client's and entry group's callbacks: they run on avahi's poll thread with its lock held.
extension ServiceAdvertiser {
    /// Makes the client; with `AVAHI_CLIENT_NO_FAIL` it exists even while avahi-daemon is not running (its state is
    /// then `CONNECTING`). Only a missing D-Bus system bus makes it fail.
    func connect(poll: OpaquePointer, context: Unmanaged<ServiceAdvertiser>) {
        var error: Int32 = 0
        let client = avahi_client_new(
            avahi_threaded_poll_get(poll), AVAHI_CLIENT_NO_FAIL, clientCallback, context.toOpaque(), &error)
        guard let client else {
            report(
                "the D-Bus system bus is not reachable (avahi: \(Self.describe(error))), so avahi-daemon cannot "
                    + "publish the service: start dbus and avahi-daemon, then restart the bridge")
            return
        }
        state.withLock { $0.client = client }
    }

    /// The client's state changed (also called from inside `avahi_client_new`, before it returns).
    func clientChanged(_ client: OpaquePointer, _ clientState: AvahiClientState) {
        if clientState == AVAHI_CLIENT_S_RUNNING {
            state.withLock { $0.client = client }
            publish(client)
        } else if clientState == AVAHI_CLIENT_S_COLLISION || clientState == AVAHI_CLIENT_S_REGISTERING {
            // The host name is being (re)registered: the service follows when the client runs again.
            if let group = withdrawn() { avahi_entry_group_reset(group) }
        } else if clientState == AVAHI_CLIENT_CONNECTING {
            report(
                "avahi-daemon is not running, so nothing on the network can find the service (start avahi-daemon: "
                    + "it is published as soon as the daemon appears)")
        } else if clientState == AVAHI_CLIENT_FAILURE {
            let error = avahi_client_errno(client)
            guard error == Int32(AVAHI_ERR_DISCONNECTED) else {
                _ = withdrawn()
                report("avahi's client failed (\(Self.describe(error))): the service is not advertised")
                return
            }
            // The daemon went away: a new client waits for it (NO_FAIL) and publishes again when it is back.
            report(
                "avahi-daemon stopped, so nothing on the network can find the service until it runs again "
                    + "(published again as soon as it does)")
            state.withLock { state in
                state.client = nil
                state.group = nil
                state.established = nil
            }
            avahi_client_free(client)
            guard let poll = state.withLock({ $0.poll }) else { return }
            connect(poll: poll, context: Unmanaged.passUnretained(self))
        }
    }

    /// Clears the published state and returns the entry group, if any, for a reset.
    private func withdrawn() -> OpaquePointer? {
        state.withLock { state in
            state.established = nil
            return state.group
        }
    }

    /// Adds the service to the entry group (made on first use) and commits it.
    func publish(_ client: OpaquePointer) {
        var group = state.withLock { $0.group }
        if group == nil {
            group = avahi_entry_group_new(client, groupCallback, Unmanaged.passUnretained(self).toOpaque())
            state.withLock { $0.group = group }
        }
        guard let group else {
            report("avahi could not make an entry group (\(Self.describe(avahi_client_errno(client))))")
            return
        }
        guard avahi_entry_group_is_empty(group) != 0 else { return }
        while true {
            let (name, txt) = state.withLock { ($0.name, $0.txt) }
            let list = Self.stringList(txt)
            let added = avahi_entry_group_add_service_strlst(
                group, AvahiIfIndex(AVAHI_IF_UNSPEC), AvahiProtocol(AVAHI_PROTO_UNSPEC), AvahiPublishFlags(0), name,
                type, nil, nil, port, list)
            avahi_string_list_free(list)
            if added == Int32(AVAHI_ERR_COLLISION) {
                rename(from: name)
                avahi_entry_group_reset(group)
                continue
            }
            guard added >= 0 else {
                report("avahi refused the service \(name) (\(Self.describe(added)))")
                return
            }
            let committed = avahi_entry_group_commit(group)
            if committed < 0 { report("avahi could not publish \(name) (\(Self.describe(committed)))") }
            return
        }
    }

    /// The entry group's state changed.
    func groupChanged(_ group: OpaquePointer, _ groupState: AvahiEntryGroupState) {
        if groupState == AVAHI_ENTRY_GROUP_ESTABLISHED {
            let name = state.withLock { state in
                state.established = state.name
                state.reportedProblem = nil
                return state.name
            }
            logger.info("Service advertised", metadata: ["service": "\(name)", "type": "\(type)", "port": "\(port)"])
        } else if groupState == AVAHI_ENTRY_GROUP_COLLISION {
            // Another host published the same name: take avahi's alternative and publish again.
            rename(from: state.withLock { $0.name })
            avahi_entry_group_reset(group)
            if let client = avahi_entry_group_get_client(group) { publish(client) }
        } else if groupState == AVAHI_ENTRY_GROUP_FAILURE {
            let error = avahi_entry_group_get_client(group).map { avahi_client_errno($0) } ?? Int32(AVAHI_ERR_FAILURE)
            report("avahi could not publish the service (\(Self.describe(error)))")
        }
    }

    /// Takes avahi's alternative for `name` (`Name` → `Name #2`), logged.
    private func rename(from name: String) {
        guard let alternative = avahi_alternative_service_name(name) else { return }
        let renamed = String(cString: alternative)
        avahi_free(alternative)
        state.withLock { $0.name = renamed }
        logger.warning(
            "The service name is taken on the network: advertising under avahi's alternative",
            metadata: ["taken": "\(name)", "service": "\(renamed)", "type": "\(type)"])
    }

    /// Logs why the service cannot be found, once per reason.
    func report(_ problem: String) {
        let (name, fresh) = state.withLock { state in
            let fresh = state.reportedProblem != problem
            state.reportedProblem = problem
            return (state.name, fresh)
        }
        guard fresh else { return }
        logger.warning(
            "The service cannot be found on the network: \(problem)",
            metadata: ["service": "\(name)", "type": "\(type)", "port": "\(port)"])
    }

    /// The TXT records as avahi's list (free it with `avahi_string_list_free`), in the given order.
    static func stringList(_ records: [(String, String)]) -> UnsafeMutablePointer<AvahiStringList>? {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for (key, value) in records { list = avahi_string_list_add_pair(list, key, value) }
        return avahi_string_list_reverse(list)
    }

    static func describe(_ error: Int32) -> String {
        avahi_strerror(error).map { String(cString: $0) } ?? "error \(error)"
    }
}

private func clientCallback(client: OpaquePointer?, state: AvahiClientState, context: UnsafeMutableRawPointer?) {
    guard let client, let context else { return }
    Unmanaged<ServiceAdvertiser>.fromOpaque(context).takeUnretainedValue().clientChanged(client, state)
}

private func groupCallback(group: OpaquePointer?, state: AvahiEntryGroupState, context: UnsafeMutableRawPointer?) {
    guard let group, let context else { return }
    Unmanaged<ServiceAdvertiser>.fromOpaque(context).takeUnretainedValue().groupChanged(group, state)
}
