/// An event published (never retained) on `<prefix>/bridge/<bridge>/event` as JSON `{"type": "...", ...}`.
///
/// The cases are the catalogue of event types; ``json`` is their one encoder (the `type` first, then the
/// fields in a fixed order), so every part of the bridge reports a fact in the same shape.
public enum BridgeEvent: Sendable, Equatable, CustomStringConvertible {
    /// `command_rejected`: a message the bridge did not accept (topic, payload or state), with the reason.
    case commandRejected(topic: String, payload: [UInt8], reason: String)
    /// `command_failed`: an accepted command the hardware did not take.
    case commandFailed(device: DeviceAddress, command: String, reason: String)
    /// `adapter_lost`: an adapter stopped answering or vanished.
    case adapterLost(Adapter, reason: String)
    /// `adapter_recovered`: an adapter is back after a reported loss.
    case adapterRecovered(Adapter)
    /// `node_dead` / `node_alive`: a Z-Wave node (or CEC device) died or came back, once per fact, with every
    /// configured device of it (the bridge marks them `offline`/`online`).
    case nodeAvailability(DeviceSource, online: Bool, devices: [DeviceAddress])
    /// `low_battery`: a device's battery fell below the `[zwave] low_battery` threshold (once per crossing; its
    /// `battery_low` turns `on`), with the level.
    case lowBattery(device: DeviceAddress, level: Int)
    /// `<operation>_<step>`: progress of inclusion, exclusion or failed-node removal on the controller.
    case controller(ControllerOperation, ControllerStep)
    /// `inclusion_failed` / `exclusion_failed`: the operation ended without a node joining or leaving.
    case controllerFailed(ControllerOperation, reason: String)
    /// `node_added`: inclusion added a node.
    case nodeAdded(node: Int)
    /// `node_removed`: a node left the network.
    case nodeRemoved(node: Int)
    /// `interview_progress`: a node's interview reached `stage`.
    case interviewProgress(node: Int, stage: String)
    /// `interview_completed`: a node's interview finished.
    case interviewCompleted(node: Int, manufacturer: String, product: String)
    /// `interview_failed`: a node's interview did not finish in time (the node stays usable).
    case interviewFailed(node: Int, stage: String, reason: String)
    /// `configuration_applied`: the desired configuration parameters of a node were compared and set.
    case configurationApplied(node: Int, changed: [ParameterChange], failed: [ParameterFailure])
    /// `wake_up_interval_applied` / `wake_up_interval_failed`: a battery node's wake-up interval was brought to
    /// devices.toml's `wake_up_interval` (`from` what it reported, nil if unknown; `confirmed` false when the node
    /// has not reported the new interval yet: it takes it at its next wake-up), or could not be (`reason`).
    case wakeUpInterval(node: Int, from: Int?, to: Int, confirmed: Bool, failure: String?)
    /// `associations_applied` / `associations_failed`: the desired associations of a node were compared and added.
    case associations(AssociationsOutcome)
    /// `cec_rx`: a CEC frame the bridge received and was asked to report (`[cec] rx_events`).
    case cecReceived(frame: String)
    /// `messages_dropped`: MQTT messages the bridge's connection dropped (a queue was full), with how many and on
    /// which topics.
    case messagesDropped(DroppedMessages)
    /// `health_check_<step>`: progress and results of a `health_check` request.
    case healthCheck(HealthCheckStep)
    /// `homekit_unavailable`: `[homekit]` is enabled but the bridge runs without HomeKit: its pairing file (`file`)
    /// cannot be used (`reason`); `moved_to`: where a damaged file was moved aside, if it was.
    case homeKitUnavailable(file: String, reason: String, movedTo: String?)
    /// `command_pending` / `pending_applied` / `pending_failed`: a `set_config` to a sleeping node, held for its
    /// wake-up, and what became of it (``PendingParameter``, ``PendingOutcome``).
    case pending(PendingParameter, PendingOutcome)

    /// A controller operation, spelled as its events' prefix.
    public enum ControllerOperation: String, Sendable, Hashable {
        case inclusion
        case exclusion
        case removeFailed = "remove_failed"
    }

    /// A step of a controller operation.
    public enum ControllerStep: Sendable, Hashable {
        /// The controller waits for a device's button.
        case waiting
        /// A device answered.
        case nodeFound
        /// The controller is adding (inclusion) or removing (exclusion) `node`.
        case node(Int)
        /// The protocol part ended (with the node, when the controller named one).
        case protocolDone(node: Int?)
    }

    /// A configuration parameter that was changed.
    public struct ParameterChange: Sendable, Hashable {
        public let parameter: Int
        public let from: Int?
        public let to: Int
        public init(parameter: Int, from: Int?, to: Int) {
            self.parameter = parameter
            self.from = from
            self.to = to
        }
    }

    /// A configuration parameter that could not be set, with the reason.
    public struct ParameterFailure: Sendable, Hashable {
        public let parameter: Int
        public let reason: String
        public init(parameter: Int, reason: String) {
            self.parameter = parameter
            self.reason = reason
        }
    }

    /// The event's `type` field.
    public var type: String {
        switch self {
        case .commandRejected: "command_rejected"
        case .commandFailed: "command_failed"
        case .adapterLost: "adapter_lost"
        case .adapterRecovered: "adapter_recovered"
        case .nodeAvailability(_, let online, _): online ? "node_alive" : "node_dead"
        case .lowBattery: "low_battery"
        case .controller(let operation, let step):
            switch step {
            case .waiting: "\(operation.rawValue)_waiting"
            case .nodeFound: "\(operation.rawValue)_node_found"
            case .node: "\(operation.rawValue)_\(operation == .exclusion ? "removing" : "adding")"
            case .protocolDone: "\(operation.rawValue)_protocol_done"
            }
        case .controllerFailed(let operation, _): "\(operation.rawValue)_failed"
        case .nodeAdded: "node_added"
        case .nodeRemoved: "node_removed"
        case .interviewProgress: "interview_progress"
        case .interviewCompleted: "interview_completed"
        case .interviewFailed: "interview_failed"
        case .configurationApplied: "configuration_applied"
        case .wakeUpInterval(_, _, _, _, let failure):
            failure == nil ? "wake_up_interval_applied" : "wake_up_interval_failed"
        case .associations(let outcome): outcome.failed.isEmpty ? "associations_applied" : "associations_failed"
        case .cecReceived: "cec_rx"
        case .messagesDropped: "messages_dropped"
        case .healthCheck(let step): "health_check_\(step.name)"
        case .pending(_, .held): "command_pending"
        case .pending(_, .applied): "pending_applied"
        case .pending(_, .failed): "pending_failed"
        case .homeKitUnavailable: "homekit_unavailable"
        }
    }

    /// The fields after `type`, in their published order.
    public var fields: [(String, JSONValue)] {
        switch self {
        case .commandRejected(let topic, let payload, let reason):
            // The payload is shown as text (invalid UTF-8 replaced, at most 64 characters), with its size.
            let shown = String(decoding: payload.prefix(PayloadParser.maximumLength), as: UTF8.self)
            return [
                ("topic", .string(topic)), ("payload", .string(shown)), ("payload_bytes", .int(payload.count)),
                ("reason", .string(reason)),
            ]
        case .commandFailed(let device, let command, let reason):
            return [
                ("device", .string(device.description)), ("command", .string(command)), ("reason", .string(reason)),
            ]
        case .adapterLost(let adapter, let reason):
            return [("adapter", .string(adapter.rawValue)), ("reason", .string(reason))]
        case .adapterRecovered(let adapter):
            return [("adapter", .string(adapter.rawValue))]
        case .nodeAvailability(let source, _, let devices):
            let id: (String, JSONValue) =
                switch source {
                case .zwave(let node, _): ("node", .int(node))
                case .cec(let address): ("logical_address", .int(address))
                }
            return [
                id, ("device", devices.first.map { .string($0.description) } ?? .null),
                ("devices", .array(devices.map { .string($0.description) })),
            ]
        case .lowBattery(let device, let level):
            return [("device", .string(device.description)), ("battery", .int(level))]
        case .controller(_, let step):
            switch step {
            case .waiting, .nodeFound, .protocolDone(nil): return []
            case .node(let node), .protocolDone(let node?): return [("node", .int(node))]
            }
        case .controllerFailed(_, let reason):
            return [("reason", .string(reason))]
        case .nodeAdded(let node), .nodeRemoved(let node):
            return [("node", .int(node))]
        case .interviewProgress(let node, let stage):
            return [("node", .int(node)), ("stage", .string(stage))]
        case .interviewCompleted(let node, let manufacturer, let product):
            return [("node", .int(node)), ("manufacturer", .string(manufacturer)), ("product", .string(product))]
        case .interviewFailed(let node, let stage, let reason):
            return [("node", .int(node)), ("stage", .string(stage)), ("reason", .string(reason))]
        case .configurationApplied(let node, let changed, let failed):
            return [
                ("node", .int(node)),
                (
                    "changed",
                    .array(
                        changed.map {
                            .object([
                                ("parameter", .int($0.parameter)), ("from", $0.from.map { .int($0) } ?? .null),
                                ("to", .int($0.to)),
                            ])
                        })
                ),
                (
                    "failed",
                    .array(failed.map { .object([("parameter", .int($0.parameter)), ("reason", .string($0.reason))]) })
                ),
            ]
        case .wakeUpInterval(let node, let from, let to, let confirmed, let failure):
            var fields: [(String, JSONValue)] = [
                ("node", .int(node)), ("from", from.map { .int($0) } ?? .null), ("to", .int(to)),
            ]
            if let failure {
                fields.append(("reason", .string(failure)))
            } else {
                fields.append(("confirmed", .bool(confirmed)))
            }
            return fields
        case .associations(let outcome):
            return outcome.fields
        case .cecReceived(let frame):
            return [("frame", .string(frame))]
        case .messagesDropped(let dropped):
            return [
                ("direction", .string(dropped.direction.rawValue)), ("count", .int(dropped.count)),
                ("topics", .object(dropped.topics.map { ($0.topic, .int($0.count)) })),
                ("other_topics", .int(dropped.otherTopics)), ("reason", .string(dropped.reason)),
            ]
        case .healthCheck(let step):
            return step.fields
        case .homeKitUnavailable(let file, let reason, let movedTo):
            return [
                ("file", .string(file)), ("reason", .string(reason)),
                ("moved_to", movedTo.map { .string($0) } ?? .null),
            ]
        case .pending(let command, .failed(let reported, let reason)):
            return command.fields + [("reported", reported.map { .int($0) } ?? .null), ("reason", .string(reason))]
        case .pending(let command, _):
            return command.fields
        }
    }

    /// The event as a JSON object, `type` first: the one encoder of every event.
    public var json: JSONValue { .object([("type", .string(type))] + fields) }

    public var description: String { json.serialized }
}

/// MQTT messages dropped by the bridge's connection since the last report: how many, and on which topics (the first
/// ``maximumTopics`` distinct ones with their counts; the messages on further topics are counted together).
public struct DroppedMessages: Sendable, Equatable {
    /// Which queue was full.
    public enum Direction: String, Sendable, Hashable {
        /// Messages from the broker the bridge fell behind on (the oldest dropped).
        case inbound
        /// Events and responses published while the broker was unreachable (the oldest dropped).
        case outbound
    }

    /// One topic and how many of its messages were dropped.
    public struct TopicCount: Sendable, Hashable {
        public let topic: String
        public var count: Int
        public init(topic: String, count: Int) {
            self.topic = topic
            self.count = count
        }
    }

    public static let maximumTopics = 10

    public let direction: Direction
    /// The queue's capacity, for the reason.
    public let limit: Int
    public private(set) var count = 0
    public private(set) var topics: [TopicCount] = []
    /// Messages dropped on topics beyond the first ``maximumTopics``.
    public private(set) var otherTopics = 0

    public init(direction: Direction, limit: Int) {
        self.direction = direction
        self.limit = limit
    }

    /// Counts one dropped message on `topic`.
    public mutating func add(_ topic: String) {
        count += 1
        if let index = topics.firstIndex(where: { $0.topic == topic }) {
            topics[index].count += 1
        } else if topics.count < Self.maximumTopics {
            topics.append(TopicCount(topic: topic, count: 1))
        } else {
            otherTopics += 1
        }
    }

    /// Why they were dropped, in words.
    public var reason: String {
        switch direction {
        case .inbound:
            "the bridge fell behind: its queue of \(limit) messages from the broker was full, the oldest were dropped"
        case .outbound:
            "the broker was unreachable: the queue of \(limit) events and responses waiting for it was full, the "
                + "oldest were dropped"
        }
    }
}
