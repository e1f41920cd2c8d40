/// The other bridges on the broker (one Pi with the Z-Wave stick, one behind the TV): each bridge subscribes to
/// every device command, and answers only for its own devices.
///
/// A bridge learns the others from the broker: their devices from the retained `<prefix>/device/<room>/<name>/
/// availability` every bridge publishes for each of its devices, and which bridges are online from their retained
/// `<prefix>/bridge/<name>/state`. A command for another bridge's device is left to that bridge, silently. A
/// command (or a malformed topic) that no bridge serves, such as a typo in a device's name, is reported once, by
/// the online bridge whose name sorts first, so that a user watching `<prefix>/bridge/+/event` sees one
/// `command_rejected`, whichever bridge it comes from.
struct PeerTracker: Sendable {
    /// This bridge's name.
    private let ownName: String
    /// Devices other bridges serve (their retained `availability` is set).
    private var peerDevices: Set<DeviceAddress> = []
    /// Other bridges whose retained `state` is `online`.
    private var onlineBridges: Set<String> = []

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
            if let device, peerDevices.contains(device) { return .peer }
        }
        return reportsUnservedTopics ? .unservedReportedHere : .unservedReportedElsewhere
    }

    /// Whether this bridge reports commands that no bridge serves: the online bridge whose name sorts first.
    var reportsUnservedTopics: Bool {
        !onlineBridges.contains { $0 < ownName }
    }

    /// A bridge's retained `state`: `online`, or anything else (`offline`, cleared).
    mutating func noteBridgeState(_ bridge: String, payload: [UInt8]) {
        guard bridge != ownName else { return }
        if payload.elementsEqual("online".utf8) {
            onlineBridges.insert(bridge)
        } else {
            onlineBridges.remove(bridge)
        }
    }

    /// Another bridge's device's retained `availability`: set (some bridge serves it) or cleared (none does any
    /// more). The caller passes only devices that are not this bridge's.
    mutating func noteAvailability(of device: DeviceAddress, payload: [UInt8]) {
        if payload.isEmpty {
            peerDevices.remove(device)
        } else {
            peerDevices.insert(device)
        }
    }
}
