internal import Logging

/// Several bridges on one broker (one Pi with the Z-Wave stick, one behind the TV): each subscribes to every
/// device command, and answers only for its own devices.
///
/// A bridge learns the others from the broker: their devices from the retained `<prefix>/device/<room>/<name>/
/// availability` every bridge publishes for each of its devices, and which bridges are online from their retained
/// `<prefix>/bridge/<name>/state`. A command for another bridge's device is left to that bridge, silently. A
/// command (or a malformed topic) that no bridge serves, such as a typo in a device's name, is reported once, by
/// the online bridge whose name sorts first, so that a user watching `<prefix>/bridge/+/event` sees one
/// `command_rejected`, whichever bridge it comes from.
extension Bridge {
    /// Whether this bridge answers for a message on `topic` that is not a request, about `device` (the device its
    /// topic is under, as the topic's one parse found it; nil for another topic): always for its own devices;
    /// never for another bridge's; for anything else only if it reports what no bridge serves.
    func answers(for device: DeviceAddress?, topic: String) -> Bool {
        if let address = device {
            if registry.device(at: address) != nil { return true }
            if peerDevices.contains(address) {
                logger.debug("another bridge's device", metadata: ["topic": "\(topic.prefix(200))"])
                return false
            }
        }
        guard reportsUnservedTopics else {
            logger.debug("served by no bridge; reported by another", metadata: ["topic": "\(topic.prefix(200))"])
            return false
        }
        return true
    }

    /// Whether this bridge reports commands that no bridge serves: the online bridge whose name sorts first.
    var reportsUnservedTopics: Bool {
        onlineBridges.filter { $0 < identity.name }.isEmpty
    }

    /// A bridge's retained `state`: `online`, or anything else (`offline`, cleared).
    func noteBridgeState(_ bridge: String, payload: [UInt8]) {
        guard bridge != identity.name else { return }
        if payload.elementsEqual("online".utf8) {
            onlineBridges.insert(bridge)
        } else {
            onlineBridges.remove(bridge)
        }
    }

    /// A device's retained `availability`: a device some bridge serves (its topics cleared: none does any more).
    func noteAvailability(of device: DeviceAddress, payload: [UInt8]) {
        guard registry.device(at: device) == nil else { return }
        if payload.isEmpty {
            peerDevices.remove(device)
        } else {
            peerDevices.insert(device)
        }
    }
}
