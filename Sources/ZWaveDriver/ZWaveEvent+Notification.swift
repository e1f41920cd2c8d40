internal import CZWaveShim

extension ZWaveValueID {
    init(_ c: zw_value_id) {
        self.init(
            home: HomeID(c.home_id), node: NodeID(c.node_id), genre: Genre(rawValue: c.genre) ?? .unknown,
            commandClass: c.command_class, instance: c.instance, index: c.index,
            type: ValueType(rawValue: c.type) ?? .unknown, id: c.id)
    }

    /// The shim's C form (only `home_id` and `id` matter to OpenZWave).
    var cValue: zw_value_id {
        zw_value_id(
            home_id: home.rawValue, id: id, node_id: node.rawValue, genre: genre.rawValue,
            command_class: commandClass, instance: instance, index: index, type: type.rawValue)
    }
}

extension ZWaveValue {
    init(id: ZWaveValueID, snapshot s: zw_value_snapshot) {
        let text = String(cTuple: s.string_value)
        let content: Content
        if !s.valid {
            content = .unavailable
        } else {
            switch id.type {
            case .bool: content = .bool(s.bool_value)
            case .byte: content = .byte(UInt8(clamping: s.int_value))
            case .short: content = .short(Int16(clamping: s.int_value))
            case .int: content = .int(s.int_value)
            case .decimal: content = .decimal(s.double_value, precision: s.precision)
            case .string: content = .string(text)
            case .list: content = .list(value: s.int_value, label: text)
            case .schedule, .button, .raw, .bitSet, .unknown: content = .other(text)
            }
        }
        self.init(
            id: id, label: String(cTuple: s.label), units: String(cTuple: s.units), readOnly: s.read_only,
            content: content)
    }
}

extension ZWaveEvent {
    /// Converts one copied notification; `nil` for those the driver does not surface (polling
    /// toggles, buttons, transaction-complete codes, the manufacturer DB).
    init?(_ n: zw_notification) {
        let node = NodeID(n.node_id)
        switch zw_notification_type(rawValue: UInt32(bitPattern: n.type)) {
        case ZW_NOTE_DRIVER_READY: self = .driverReady(home: HomeID(n.home_id), controller: node)
        case ZW_NOTE_DRIVER_FAILED: self = .driverFailed
        case ZW_NOTE_DRIVER_REMOVED: self = .driverRemoved
        case ZW_NOTE_DRIVER_RESET: self = .driverReset
        case ZW_NOTE_NODE_NEW: self = .nodeNew(node)
        case ZW_NOTE_NODE_ADDED: self = .nodeAdded(node)
        case ZW_NOTE_NODE_REMOVED: self = .nodeRemoved(node)
        case ZW_NOTE_NODE_RESET: self = .nodeReset(node)
        case ZW_NOTE_NODE_PROTOCOL_INFO: self = .nodeProtocolInfo(node)
        case ZW_NOTE_NODE_NAMING: self = .nodeNaming(node)
        case ZW_NOTE_ESSENTIAL_NODE_QUERIES_COMPLETE: self = .essentialQueriesComplete(node)
        case ZW_NOTE_NODE_QUERIES_COMPLETE: self = .nodeReady(node)
        case ZW_NOTE_VALUE_ADDED:
            self = .valueAdded(ZWaveValue(id: ZWaveValueID(n.value_id), snapshot: n.value))
        case ZW_NOTE_VALUE_CHANGED:
            self = .valueChanged(ZWaveValue(id: ZWaveValueID(n.value_id), snapshot: n.value))
        case ZW_NOTE_VALUE_REFRESHED:
            self = .valueRefreshed(ZWaveValue(id: ZWaveValueID(n.value_id), snapshot: n.value))
        case ZW_NOTE_VALUE_REMOVED: self = .valueRemoved(ZWaveValueID(n.value_id))
        case ZW_NOTE_SCENE_EVENT: self = .sceneEvent(node, sceneID: n.scene_id)
        case ZW_NOTE_NODE_EVENT: self = .nodeEvent(node, value: n.event)
        case ZW_NOTE_GROUP: self = .group(node, index: n.group_index)
        case ZW_NOTE_AWAKE_NODES_QUERIED: self = .awakeNodesQueried
        case ZW_NOTE_ALL_NODES_QUERIED: self = .allNodesQueried(someDead: false)
        case ZW_NOTE_ALL_NODES_QUERIED_SOME_DEAD: self = .allNodesQueried(someDead: true)
        case ZW_NOTE_USER_ALERTS: self = .userAlert(node, code: Int(n.user_alert))
        case ZW_NOTE_CONTROLLER_COMMAND:
            self = .controllerCommand(
                ZWaveControllerUpdate(
                    command: n.command,
                    state: ZWaveControllerUpdate.State(rawValue: n.event) ?? .unknown,
                    error: ZWaveControllerUpdate.ControllerError(rawValue: n.notification_code) ?? .unknown,
                    node: node))
        case ZW_NOTE_NOTIFICATION:
            switch zw_notification_code(rawValue: UInt32(n.notification_code)) {
            case ZW_CODE_DEAD: self = .nodeDead(node)
            case ZW_CODE_ALIVE: self = .nodeAlive(node)
            case ZW_CODE_TIMEOUT: self = .nodeTimeout(node)
            case ZW_CODE_AWAKE: self = .nodeAwake(node)
            case ZW_CODE_SLEEP: self = .nodeAsleep(node)
            case ZW_CODE_NO_OPERATION: self = .noOperationCompleted(node)
            default: return nil
            }
        default: return nil
        }
    }
}

extension String {
    /// Decodes a NUL-terminated UTF-8 C array imported as a tuple (`char label[96]`).
    init<Tuple>(cTuple: Tuple) {
        self = withUnsafeBytes(of: cTuple) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
