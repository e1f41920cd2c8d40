internal import CZWaveShim

extension OpenZWave {
    /// Sets a dimmer's level (Switch Multilevel 0x26, index 0): 0...99, or 255 for "last level".
    /// Wraps `zw_value_set_byte` (Manager::SetValue); OpenZWave sends Set then Get on its driver thread.
    public func setLevel(node: NodeID, instance: UInt8 = 1, level: UInt8) throws(ZWaveError) {
        guard level <= 99 || level == 255 else {
            throw ZWaveError(
                .invalidArgument, call: "OpenZWave.setLevel", node: node,
                message: "level \(level) is not 0...99 or 255")
        }
        let key = ZWaveValueKey(node: node, commandClass: CommandClass.switchMultilevel, instance: instance, index: 0)
        let id = try knownValue(key, call: "OpenZWave.setLevel")
        let manager = try requireManager("OpenZWave.setLevel", node: node)
        var c = id.cValue
        try ZWaveError.check(zw_value_set_byte(manager, &c, level), call: "zw_value_set_byte", node: node)
    }

    /// Whether OpenZWave has reported the value at `key` (a Set to it can be made).
    func knowsValue(_ key: ZWaveValueKey) -> Bool { network.valueID(for: key) != nil }

    /// Switches a binary switch or socket (Switch Binary 0x25, index 0). Wraps `zw_value_set_bool`.
    public func setSwitch(node: NodeID, instance: UInt8 = 1, on: Bool) throws(ZWaveError) {
        try setBool(
            ZWaveValueKey(node: node, commandClass: CommandClass.switchBinary, instance: instance, index: 0), on,
            call: "OpenZWave.setSwitch")
    }

    /// Locks or unlocks a door lock (Door Lock 0x62, index 0 "Locked"): OpenZWave sends Door Lock Operation Set,
    /// secured (0xFF) or unsecured (0x00), beaming a FLiRS lock awake. Wraps `zw_value_set_bool`.
    public func setLocked(node: NodeID, instance: UInt8 = 1, locked: Bool) throws(ZWaveError) {
        try setBool(
            ZWaveValueKey(node: node, commandClass: CommandClass.doorLock, instance: instance, index: 0), locked,
            call: "OpenZWave.setLocked")
    }

    /// Sets the known bool value at `key` (`zw_value_set_bool`); `call` names the caller in errors.
    private func setBool(_ key: ZWaveValueKey, _ value: Bool, call: String) throws(ZWaveError) {
        let id = try knownValue(key, call: call)
        let manager = try requireManager(call, node: key.node)
        var c = id.cValue
        try ZWaveError.check(zw_value_set_bool(manager, &c, value), call: "zw_value_set_bool", node: key.node)
    }

    /// Writes any value (`zw_value_set_*`, Manager::SetValue / SetValueListSelection).
    public func setValue(_ id: ZWaveValueID, to input: ZWaveValueInput) throws(ZWaveError) {
        let manager = try requireManager("zw_value_set", node: id.node)
        var c = id.cValue
        switch input {
        case .bool(let v):
            try ZWaveError.check(zw_value_set_bool(manager, &c, v), call: "zw_value_set_bool", node: id.node)
        case .byte(let v):
            try ZWaveError.check(zw_value_set_byte(manager, &c, v), call: "zw_value_set_byte", node: id.node)
        case .short(let v):
            try ZWaveError.check(zw_value_set_short(manager, &c, v), call: "zw_value_set_short", node: id.node)
        case .int(let v):
            try ZWaveError.check(zw_value_set_int(manager, &c, v), call: "zw_value_set_int", node: id.node)
        case .decimal(let v):
            try ZWaveError.check(zw_value_set_decimal(manager, &c, v), call: "zw_value_set_decimal", node: id.node)
        case .string(let v):
            try ZWaveError.check(zw_value_set_string(manager, &c, v), call: "zw_value_set_string", node: id.node)
        case .listValue(let v):
            try ZWaveError.check(
                zw_value_set_list_value(manager, &c, v), call: "zw_value_set_list_value", node: id.node)
        case .listLabel(let v):
            try ZWaveError.check(
                zw_value_set_list_label(manager, &c, v), call: "zw_value_set_list_label", node: id.node)
        }
    }

    /// Asks the node for the value again (`zw_value_refresh`, Manager::RefreshValue); the answer arrives
    /// as `valueChanged`/`valueRefreshed`.
    public func refresh(_ id: ZWaveValueID) throws(ZWaveError) {
        let manager = try requireManager("zw_value_refresh", node: id.node)
        var c = id.cValue
        try ZWaveError.check(zw_value_refresh(manager, &c), call: "zw_value_refresh", node: id.node)
    }

    /// Reads a value's current state from OpenZWave's cache (`zw_value_read`); no radio traffic.
    public func read(_ id: ZWaveValueID) throws(ZWaveError) -> ZWaveValue {
        let manager = try requireManager("zw_value_read", node: id.node)
        var c = id.cValue
        var snapshot = zw_value_snapshot()
        try ZWaveError.check(zw_value_read(manager, &c, &snapshot), call: "zw_value_read", node: id.node)
        return ZWaveValue(id: id, snapshot: snapshot)
    }

    /// The item values a list value offers (`zw_value_list_values`, Manager::GetValueListValues), e.g. the events a
    /// Notification type of the node supports; at most 256.
    public func listValues(_ id: ZWaveValueID) throws(ZWaveError) -> [Int32] {
        let manager = try requireManager("zw_value_list_values", node: id.node)
        var c = id.cValue
        var values = [Int32](repeating: 0, count: 256)
        var count = 0
        let status = values.withUnsafeMutableBufferPointer { buffer in
            zw_value_list_values(manager, &c, buffer.baseAddress, buffer.count, &count)
        }
        try ZWaveError.check(status, call: "zw_value_list_values", node: id.node)
        return Array(values.prefix(count))
    }

    /// The range the device database declares for a value (`zw_value_range`, Manager::GetValueMin/Max): a
    /// thermostat setpoint's 8-28 °C from its product's configuration file; both 0 when none is declared.
    public func valueRange(_ id: ZWaveValueID) throws(ZWaveError) -> (minimum: Int32, maximum: Int32) {
        let manager = try requireManager("zw_value_range", node: id.node)
        var c = id.cValue
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        try ZWaveError.check(zw_value_range(manager, &c, &minimum, &maximum), call: "zw_value_range", node: id.node)
        return (minimum, maximum)
    }

    /// The value id OpenZWave reported for this place, if any.
    public func valueID(for key: ZWaveValueKey) -> ZWaveValueID? { network.valueID(for: key) }

    /// All values OpenZWave reported for a node (or all nodes), sorted by place.
    public func valueIDs(node: NodeID? = nil) -> [ZWaveValueID] {
        network.valueIDs(node: node)
    }

    /// Sets configuration parameter `param` (`zw_set_config_param`, Manager::SetConfigParam); size 1, 2 or 4.
    public func setConfigParameter(node: NodeID, parameter: UInt8, value: Int32, size: UInt8) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_set_config_param", node: node)
        try ZWaveError.check(
            zw_set_config_param(manager, home.rawValue, node.rawValue, parameter, value, size),
            call: "zw_set_config_param", node: node)
    }

    /// Asks the node for parameter `param` (`zw_request_config_param`); the answer arrives as a value
    /// event (genre config, command class 0x70, index = parameter).
    public func requestConfigParameter(node: NodeID, parameter: UInt8) throws(ZWaveError) {
        let (manager, home) = try requireReady("zw_request_config_param", node: node)
        try ZWaveError.check(
            zw_request_config_param(manager, home.rawValue, node.rawValue, parameter),
            call: "zw_request_config_param", node: node)
    }

    func knownValue(_ key: ZWaveValueKey, call: String) throws(ZWaveError) -> ZWaveValueID {
        _ = try requireReady(call, node: key.node)
        guard let id = network.valueID(for: key) else {
            throw ZWaveError(.valueNotFound, call: call, node: key.node, message: "no value at \(key)")
        }
        return id
    }

    func requireManager(_ call: String, node: NodeID?) throws(ZWaveError) -> OpaquePointer {
        guard let manager else { throw ZWaveError(.notRunning, call: call, node: node) }
        return manager
    }

    func requireReady(_ call: String, node: NodeID?) throws(ZWaveError) -> (OpaquePointer, HomeID) {
        let manager = try requireManager(call, node: node)
        guard case .ready = supervision.phase, let home else { throw ZWaveError(.notReady, call: call, node: node) }
        return (manager, home)
    }
}
