extension ConfigurationLoader {
    static let nodeRange = 1...232
    static let instanceRange = 1...127
    static let parameterRange = 1...255
    static let sceneRange = 1...255

    /// What `[zwave]` yielded: the section when valid, and the device addresses for the check across Z-Wave and
    /// CEC, which runs even when something else in the file is wrong.
    struct ZWaveResult {
        let section: ZWaveSection?
        /// The room/name of every device that has a valid one, even when something else in it is wrong.
        let addresses: [Located<DeviceAddress>]
    }

    /// `[zwave]`, `[[zwave.device]]` and `[[zwave.scene]]`; `nil` when the file has no `[zwave]`. `prefix` is the
    /// `[bridge] prefix` (nil when it is invalid): no scene may publish under `<prefix>/bridge/`.
    static func readZWave(_ root: TableReader, prefix: String?) -> ZWaveResult? {
        guard root.contains("zwave") else { return nil }
        let known = [
            "port", "config_path", "state_dir", "log_level", "refresh_after_set", "openzwave_patches",
            "network_key_file", "ping_silent_after", "low_battery",
            "device", "scene", "button",
        ]
        guard let table = root.table("zwave", known: known) else {
            return ZWaveResult(section: nil, addresses: [])
        }
        var valid = true
        func optional<T>(_ value: T?, _ key: String) -> T? {
            if value == nil && table.contains(key) { valid = false }
            return value
        }
        let port = table.nonEmptyString("port", required: true)
        let configPath = optional(table.nonEmptyString("config_path"), "config_path") ?? ZWaveSection.defaultConfigPath
        let stateDirectory =
            optional(table.nonEmptyString("state_dir"), "state_dir")
            ?? ZWaveSection.defaultStateDirectory
        let logLevel = optional(table.choice("log_level", OpenZWaveLogLevel.self), "log_level") ?? .warning
        let refreshAfterSet = optional(table.bool("refresh_after_set"), "refresh_after_set") ?? false
        let openZWavePatches = optional(table.bool("openzwave_patches"), "openzwave_patches") ?? true
        let networkKeyFile = optional(table.nonEmptyString("network_key_file"), "network_key_file")
        let pingSilentAfter =
            optional(table.int("ping_silent_after", in: ZWaveSection.pingSilentAfterRange), "ping_silent_after")
            ?? ZWaveSection.defaultPingSilentAfter
        let lowBattery =
            optional(table.int("low_battery", in: ZWaveSection.lowBatteryRange), "low_battery")
            ?? ZWaveSection.defaultLowBattery

        let deviceKeys = ["node", "instance", "room", "name", "config", "associations", "wake_up_interval"]
        let deviceTables = table.arrayOfTables("device", known: deviceKeys)
        let read = deviceTables.map { readZWaveDevice($0.reader) }
        let devices = read.compactMap(\.device)
        let addresses = read.compactMap(\.address)
        let sceneTables = table.arrayOfTables("scene", known: ["node", "instance", "scene", "topic", "payload"])
        let scenes = sceneTables.compactMap { readZWaveScene($0.reader, prefix: prefix) }
        let buttonKeys = ["node", "instance", "button", "action", "topic", "payload"]
        let buttonTables = table.arrayOfTables("button", known: buttonKeys)
        let buttons = buttonTables.compactMap { readZWaveButton($0.reader, prefix: prefix) }
        checkDuplicateNodes(devices, diagnostics: table.diagnostics)
        checkDuplicateMappings(scenes, of: "scene", diagnostics: table.diagnostics) { $0.payload = "" }
        checkDuplicateMappings(buttons, of: "button action", diagnostics: table.diagnostics) { $0.payload = "" }

        guard valid, let port, devices.count == deviceTables.count, scenes.count == sceneTables.count,
            buttons.count == buttonTables.count
        else {
            return ZWaveResult(section: nil, addresses: addresses)
        }
        var section = ZWaveSection(
            port: port, configPath: configPath, stateDirectory: stateDirectory,
            logLevel: logLevel, refreshAfterSet: refreshAfterSet, openZWavePatches: openZWavePatches,
            networkKeyFile: networkKeyFile,
            devices: devices.map(\.value),
            scenes: scenes.map(\.value))
        section.pingSilentAfter = pingSilentAfter
        section.lowBattery = lowBattery
        section.buttons = buttons.map(\.value)
        return ZWaveResult(section: section, addresses: addresses)
    }

    private static func readZWaveDevice(
        _ table: TableReader
    ) -> (device: Located<ZWaveDeviceConfig>?, address: Located<DeviceAddress>?) {
        let node = table.int("node", required: true, in: nodeRange)
        let instance = table.int("instance", in: instanceRange)
        let address = readDeviceAddress(table)
        var config: [ZWaveConfigParameter]? = []
        if table.contains("config") {
            config = table.table("config", known: nil).flatMap(readConfigParameters)
        }
        var associations: [Int: [AssociationTarget]]? = [:]
        if table.contains("associations") {
            associations = table.table("associations", known: nil).flatMap { readAssociations($0, node: node) }
        }
        let wakeUpInterval = table.int("wake_up_interval", in: ZWaveDeviceConfig.wakeUpIntervalRange)
        let located = address.map { Located(path: table.path, value: $0) }
        guard let node, instance != nil || !table.contains("instance"), let address, let config, let associations,
            wakeUpInterval != nil || !table.contains("wake_up_interval")
        else {
            return (nil, located)
        }
        var device = ZWaveDeviceConfig(
            node: node, instance: instance, address: address, config: config, associations: associations)
        device.wakeUpInterval = wakeUpInterval
        return (Located(path: table.path, value: device), located)
    }

    /// `[zwave.device.config]`: `parameter = value`, parameters 1-255, values that fit 4 bytes signed.
    private static func readConfigParameters(_ table: TableReader) -> [ZWaveConfigParameter]? {
        var parameters: [ZWaveConfigParameter] = []
        var valid = true
        for key in table.keys {
            guard let parameter = Int(key), String(parameter) == key, parameterRange.contains(parameter) else {
                table.report(key, "parameter must be a number between 1 and 255 (got \(TableReader.quoted(key)))")
                valid = false
                continue
            }
            let range = Int(Int32.min)...Int(Int32.max)
            guard let value = table.int(key, in: range) else {
                valid = false
                continue
            }
            parameters.append(ZWaveConfigParameter(parameter: parameter, value: Int32(truncatingIfNeeded: value)))
        }
        return valid ? parameters : nil
    }

    private static func readZWaveScene(_ table: TableReader, prefix: String?) -> Located<ZWaveSceneConfig>? {
        let node = table.int("node", required: true, in: nodeRange)
        let instance = table.int("instance", in: instanceRange)
        let scene = table.int("scene", required: true, in: sceneRange)
        let publish = readMappedPublish(table, prefix: prefix)
        guard let node, instance != nil || !table.contains("instance"), let scene, let publish else { return nil }
        let config = ZWaveSceneConfig(
            node: node, instance: instance, scene: scene, topic: publish.topic, payload: publish.payload)
        return Located(path: table.path, value: config)
    }

    /// `[[zwave.button]]`: `node`, `instance`, `button` 1-255, `action` one of ``ButtonAction``'s words, `topic`
    /// and `payload` as a scene's.
    private static func readZWaveButton(_ table: TableReader, prefix: String?) -> Located<ZWaveButtonConfig>? {
        let node = table.int("node", required: true, in: nodeRange)
        let instance = table.int("instance", in: instanceRange)
        let button = table.int("button", required: true, in: sceneRange)
        let action = table.string("action", required: true).flatMap { _ in table.choice("action", ButtonAction.self) }
        let publish = readMappedPublish(table, prefix: prefix)
        guard let node, instance != nil || !table.contains("instance"), let button, let action, let publish else {
            return nil
        }
        let config = ZWaveButtonConfig(
            node: node, instance: instance, button: button, action: action, topic: publish.topic,
            payload: publish.payload)
        return Located(path: table.path, value: config)
    }

    /// A mapping's `topic` (publishable, not a bridge's own) and `payload`, both required.
    private static func readMappedPublish(_ table: TableReader, prefix: String?) -> (topic: String, payload: String)? {
        var topic = table.nonEmptyString("topic", required: true)
        if let value = topic, let reason = publishTopicProblem(value) ?? bridgeTopicProblem(value, prefix: prefix) {
            table.report("topic", "\(reason) (got \(TableReader.quoted(value)))")
            topic = nil
        }
        let payload = table.string("payload", required: true)
        guard let topic, let payload else { return nil }
        return (topic, payload)
    }

    /// Why a scene may not publish to `topic`: it is one of the bridges' own topics, `<prefix>/bridge/<bridge>/...`
    /// (requests, responses, `state`, `info`, `devices`, events), of this bridge or any other. A scene is published by
    /// the device and by a control-role dashboard (the wall tablet), which must never be able to run a bridge
    /// request or fake a bridge's state through one.
    static func bridgeTopicProblem(_ topic: String, prefix: String?) -> String? {
        guard let prefix else { return nil }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        let prefixLevels = prefix.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count > prefixLevels.count + 1, levels.starts(with: prefixLevels),
            levels[prefixLevels.count] == "bridge"
        else { return nil }
        return "must not be under \(prefix)/bridge/: those are the bridges' own topics (requests, responses, state, "
            + "events), which a scene (and a control-role dashboard firing it) may not publish to"
    }

    /// Why `topic` cannot be published to, or `nil` when it can.
    static func publishTopicProblem(_ topic: String) -> String? {
        if topic.contains("+") || topic.contains("#") { return "must not contain the wildcards + or #" }
        if topic.utf8.count > TopicScheme.maximumTopicLength {
            return "must be at most \(TopicScheme.maximumTopicLength) bytes"
        }
        if topic.hasPrefix("$") { return "must not start with $ (reserved for the broker)" }
        if topic.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must not contain control characters"
        }
        return nil
    }

    /// `room` and `name`, both required and `[A-Za-z0-9_-]+`; the room `unassigned` is reserved.
    static func readDeviceAddress(_ table: TableReader) -> DeviceAddress? {
        var room = table.level("room", required: true)
        if room == TopicScheme.unassignedRoom {
            table.report("room", "\"\(TopicScheme.unassignedRoom)\" is reserved for nodes that are not in devices.toml")
            room = nil
        }
        let name = table.level("name", required: true)
        guard let room, let name else { return nil }
        return DeviceAddress(room: room, name: name)
    }

    private static func checkDuplicateNodes(
        _ devices: [Located<ZWaveDeviceConfig>],
        diagnostics: ConfigurationDiagnostics
    ) {
        var seen: [String: String] = [:]
        for device in devices {
            let source = device.value.source.description
            if let first = seen[source] {
                let key = device.value.instance == nil ? "node" : "instance"
                diagnostics.report(
                    ConfigurationKeyPath.appending(key, to: device.path),
                    "duplicate: \(source) is already mapped by \(first)")
            } else {
                seen[source] = device.path
            }
        }
    }

    /// Reports a mapping (`[[zwave.scene]]`, `[[zwave.button]]`) that repeats an earlier one's event and topic
    /// (`erasingPayload` makes two mappings that differ only in their payload equal).
    private static func checkDuplicateMappings<Mapping: Hashable>(
        _ mappings: [Located<Mapping>], of what: String, diagnostics: ConfigurationDiagnostics,
        erasingPayload: (inout Mapping) -> Void
    ) {
        var seen: [Mapping: String] = [:]
        for mapping in mappings {
            var key = mapping.value
            erasingPayload(&key)
            if let first = seen[key] {
                diagnostics.report(
                    ConfigurationKeyPath.appending("topic", to: mapping.path),
                    "duplicate: the same \(what) and topic as \(first)")
            } else {
                seen[key] = mapping.path
            }
        }
    }
}
