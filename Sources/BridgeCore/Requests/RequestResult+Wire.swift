internal import SystemSupport

/// The MQTT contract's JSON of every request's answer (`<prefix>/bridge/<bridge>/response/<verb>`'s `data`) and of
/// the events the drivers report as values (`health_check_*`, a node's inventory facts): the one encoder, so a
/// driver never spells the wire format. Keys keep their published order.
extension RequestResult {
    /// The response's `data`.
    public var json: JSONValue {
        switch self {
        case .inclusion(let outcome): outcome.json
        case .excluded(let node), .failedNodeRemoved(let node): .object([("node", .int(node))])
        case .cancelled(let operation): .object([("cancelled", operation.map { .string($0) } ?? .null)])
        case .healStarted(let node): .object([("node", node.map { .int($0) } ?? .null), ("started", true)])
        case .configParameter(let value): value.json
        case .configParameters(let list): list.json
        case .nodeValues(let values): values.json
        case .cecTransmitted(let result): .object([("frame", .string(result.frame))])
        case .nodeStatistics(let nodes): .object([("nodes", .array(nodes.map { .object($0.fields()) }))])
        case .networkStatistics(let statistics): statistics.json
        case .network(let network): network.json
        case .associations(let groups): groups.json
        case .associationGroup(let node, let group): .object([("node", .int(node))] + group.fields)
        case .neighbors(let map): map.json
        case .healthCheck(let report):
            .object([("frames", .int(report.frames)), ("nodes", .array(report.nodes.map { .object($0.fields) }))])
        }
    }

    /// A time as the contract writes it (`last_seen`, `read_at`): `2026-11-22T04:38:02Z`, UTC, whole seconds
    /// (truncated).
    public static func timestamp(secondsSince1970: Double) -> String {
        Timestamp.iso8601(secondsSince1970: secondsSince1970)
    }
}

extension InclusionOutcome {
    var json: JSONValue {
        .object([
            ("node", .int(node)), ("manufacturer", .string(manufacturer)), ("product", .string(product)),
            ("manufacturer_id", .string(manufacturerID)), ("product_type", .string(productType)),
            ("product_id", .string(productID)), ("interview", .string(interviewCompleted ? "completed" : "failed")),
            ("stage", .string(stage)), ("stanza", .string(stanza)),
        ])
    }
}

extension ConfigParameterValue {
    var json: JSONValue {
        let fields: [(String, JSONValue)] = [
            ("node", .int(node)), ("parameter", .int(parameter)), ("value", .int(value)), ("size", .int(size)),
        ]
        return .object(pending ? fields + [("pending", .bool(true))] : fields)
    }
}

extension ConfigParameterList {
    /// Each parameter: `choice` for a list, `size` with a value only, `units` when it has some.
    var json: JSONValue {
        let entries: [JSONValue] = parameters.map { parameter in
            var fields: [(String, JSONValue)] = [
                ("parameter", .int(parameter.parameter)), ("label", .string(parameter.label)),
                ("value", parameter.value.map { .int($0) } ?? .null),
            ]
            if let choice = parameter.choice { fields.append(("choice", .string(choice))) }
            if parameter.value != nil { fields.append(("size", .int(parameter.size))) }
            if !parameter.units.isEmpty { fields.append(("units", .string(parameter.units))) }
            fields.append(("read_only", .bool(parameter.readOnly)))
            return .object(fields)
        }
        return .object([("node", .int(node)), ("parameters", .array(entries))])
    }
}

extension NodeStatistics {
    /// `node`, the counters, then the route (`null` each without a transmit status report); `status` (in
    /// `network_stats`) goes second.
    func fields(status: NodeStatus? = nil) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("node", .int(node))]
        if let status { fields.append(("status", .string(status.rawValue))) }
        fields += [
            ("sent", .int(sent)), ("sent_failed", .int(sentFailed)), ("retries", .int(retries)),
            ("received", .int(received.total)), ("received_duplicates", .int(received.duplicates)),
            ("received_unsolicited", .int(received.unsolicited)), ("average_request_rtt_ms", .int(averageRequestRTT)),
            ("average_response_rtt_ms", .int(averageResponseRTT)), ("quality", .int(quality)),
            ("last_sent", .string(lastSent)), ("last_received", .string(lastReceived)),
        ]
        guard let route else {
            return fields + [("hops", .null), ("rssi", .null), ("route", .null), ("last_failed_link", .null)]
        }
        return fields + [
            ("hops", .int(route.hops)), ("rssi", .array(route.rssi.map { .string($0) })),
            ("route", .array(route.repeaters.map { .int($0) })),
            (
                "last_failed_link",
                route.lastFailedLink.map { .object([("from", .int($0.from)), ("to", .int($0.to))]) } ?? .null
            ),
        ]
    }
}

extension NetworkStatistics {
    var json: JSONValue {
        .object([
            ("alive", .int(count(.alive))), ("dead", .int(count(.dead))), ("asleep", .int(count(.asleep))),
            ("nodes", .array(nodes.map { .object($0.statistics.fields(status: $0.status)) })),
            ("driver", .object(driver.map { ($0.name, .int($0.value)) })),
        ])
    }
}

extension NetworkInfo {
    var json: JSONValue {
        .object([
            ("home_id", homeID.map { .string($0) } ?? .null), ("controller", controller.map { .int($0) } ?? .null),
            ("openzwave", .string(openZWave)), ("patches_written_for", .string(patchesWrittenFor)),
            ("patches", .array(patches.map { .string($0) })),
            ("patches_refused", patchesRefused.map { .string($0) } ?? .null),
        ])
    }
}

extension AssociationGroups {
    var json: JSONValue {
        .object([
            ("node", .int(node)), ("controller", controller.map { .int($0) } ?? .null),
            ("groups", .array(groups.map { .object($0.fields) })),
        ])
    }
}

extension AssociationGroup {
    /// `"group": 2, "label": "On/Off(S1)", "max": 8, "members": ["4", "5:1"]`.
    var fields: [(String, JSONValue)] {
        [
            ("group", .int(group)), ("label", .string(label)), ("max", .int(maxMembers)),
            ("members", .array(members.map { .string($0.description) })),
        ]
    }
}

extension NeighborMap {
    var json: JSONValue {
        let entries: [JSONValue] = nodes.map { entry in
            var fields: [(String, JSONValue)] = [
                ("node", .int(entry.node)), ("neighbors", .array(entry.neighbors.map { .int($0) })),
                ("hops", entry.hops.map { .int($0) } ?? .null),
                ("read_at", entry.readAt.map { .string(RequestResult.timestamp(secondsSince1970: $0)) } ?? .null),
                ("dead", .bool(entry.dead)),
            ]
            if let error = entry.refreshError { fields.append(("refresh_error", .string(error))) }
            return .object(fields)
        }
        return .object([("controller", controller.map { .int($0) } ?? .null), ("nodes", .array(entries))])
    }
}

extension NodeHealth {
    /// A node's result, in the `health_check` answer and its `health_check_node` event; the mean round trip to a
    /// tenth of a millisecond.
    var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("node", .int(node)), ("status", .string(status.rawValue)), ("sent", .int(sent)),
            ("acknowledged", .int(acknowledged)), ("failed", .int(failed)),
            ("rtt_min_ms", roundTrips.min().map { .int($0) } ?? .null),
            ("rtt_mean_ms", meanRoundTrip.map { .double(($0 * 10).rounded() / 10) } ?? .null),
            ("rtt_max_ms", roundTrips.max().map { .int($0) } ?? .null), ("rating", rating.map { .int($0) } ?? .null),
            ("queued_max_ms", queueWaits.max().map { .int($0) } ?? .null),
        ]
        if let reason { fields.append(("reason", .string(reason))) }
        return fields
    }
}

extension HealthCheckStep {
    /// The event's fields after `type`.
    var fields: [(String, JSONValue)] {
        switch self {
        case .started(let nodes, let frames):
            return [("nodes", .array(nodes.map { .int($0) })), ("frames", .int(frames))]
        case .frame(let frame):
            return [
                ("node", .int(frame.node)), ("frame", .int(frame.frame)), ("of", .int(frame.of)),
                ("acknowledged", .bool(frame.roundTrip != nil)), ("rtt_ms", frame.roundTrip.map { .int($0) } ?? .null),
                ("queued_ms", frame.queued.map { .int($0) } ?? .null),
            ]
        case .node(let health):
            return health.fields
        case .completed(let nodes):
            return [("nodes", .int(nodes))]
        }
    }
}

extension NodeDetails {
    /// The inventory fields of a node: identity, interview stage, then `last_seen` when published.
    var fields: [(String, JSONValue)] {
        [
            ("manufacturer", .string(manufacturer)), ("product", .string(product)),
            ("manufacturer_id", .string(manufacturerID)), ("product_type", .string(productType)),
            ("product_id", .string(productID)), ("interview_stage", .string(interviewStage)),
        ] + (lastSeen.map { [("last_seen", .string(RequestResult.timestamp(secondsSince1970: $0)))] } ?? [])
    }
}
