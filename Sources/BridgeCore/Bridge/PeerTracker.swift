internal import Synchronization

/// The other bridges on the broker (one Pi with the Z-Wave stick, one behind the TV): each bridge subscribes to
/// every device command, and answers only for its own devices.
///
/// A bridge learns the others from the broker: their devices from the retained `<prefix>/device/<room>/<name>/
/// availability` every bridge publishes for each of its devices, and which bridges are online from their retained
/// `<prefix>/bridge/<name>/state`. A command for another bridge's device is left to that bridge, silently. A
/// command (or a malformed topic) that no bridge serves, such as a typo in a device's name, is reported once, by
/// the online bridge whose name sorts first, so that a user watching `<prefix>/bridge/+/event` sees one
/// `command_rejected`, whichever bridge it comes from.
///
/// Its state has its own lock, so that the retained states a subscription brings (one `availability` per device on
/// the broker, hundreds at once on a large network) are noted by the inbound loop as they arrive, without waiting for
/// the bridge's actor (which may be busy applying the hardware's start-up) and without filling the inbound queue.
final class PeerTracker: Sendable {
    /// This bridge's name.
    private let ownName: String
    private let state = Mutex(State())

    private struct State {
        /// Devices whose retained `availability` is set (this bridge's own among them; ``verdict(for:isOwn:)``
        /// asks about its own first).
        var servedDevices: Set<DeviceAddress> = []
        /// Other bridges whose retained `state` is `online`.
        var onlineBridges: Set<String> = []
    }

    init(ownName: String) {
        self.ownName = ownName
    }

    /// Who answers for a message that is not a request.
    enum Verdict: Equatable {
        /// One of this bridge's devices.
        case own
        /// Another bridge's device: left to that bridge.
        case peer
        /// No bridge serves it, and this bridge is the one that says so.
        case unservedReportedHere
        /// No bridge serves it, and another online bridge says so.
        case unservedReportedElsewhere

        /// Whether this bridge handles the message.
        var answers: Bool { self == .own || self == .unservedReportedHere }
    }

    /// Who answers for a message about `device` (the device its topic is under; nil for a topic that names none).
    /// `isOwn`: whether `device` is one of this bridge's.
    func verdict(for device: DeviceAddress?, isOwn: Bool) -> Verdict {
        if device != nil {
            if isOwn { return .own }
            if let device, state.withLock({ $0.servedDevices.contains(device) }) { return .peer }
        }
        return reportsUnservedTopics ? .unservedReportedHere : .unservedReportedElsewhere
    }

    /// Whether this bridge reports commands that no bridge serves: the online bridge whose name sorts first.
    var reportsUnservedTopics: Bool {
        !state.withLock { $0.onlineBridges.contains { $0 < ownName } }
    }

    /// A bridge's retained `state`: `online`, or anything else (`offline`, cleared).
    func noteBridgeState(_ bridge: String, payload: [UInt8]) {
        guard bridge != ownName else { return }
        let online = payload.elementsEqual("online".utf8)
        state.withLock { state in
            if online {
                state.onlineBridges.insert(bridge)
            } else {
                state.onlineBridges.remove(bridge)
            }
        }
    }

    /// A device's retained `availability`: set (some bridge serves it) or cleared (none does any more).
    func noteAvailability(of device: DeviceAddress, payload: [UInt8]) {
        state.withLock { state in
            if payload.isEmpty {
                state.servedDevices.remove(device)
            } else {
                state.servedDevices.insert(device)
            }
        }
    }

    /// Notes `topic`'s message if it is one the tracker follows (a bridge's `state`, a device's `availability`);
    /// returns whether it was.
    func note(_ topic: Result<TopicScheme.Inbound, TopicScheme.ParseError>, payload: [UInt8]) -> Bool {
        switch topic {
        case .success(.bridgeState(let bridge)):
            noteBridgeState(bridge, payload: payload)
            return true
        case .success(.deviceAvailability(let device)):
            noteAvailability(of: device, payload: payload)
            return true
        default:
            return false
        }
    }
}
