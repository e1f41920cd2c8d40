extension ConfigurationLoader {
    static let logicalAddressRange = 0...14

    /// What `[cec]` yielded: the section when valid, and the device addresses for the check across Z-Wave and CEC.
    struct CECResult {
        let section: CECSection?
        /// The room/name of every device that has a valid one, even when something else in it is wrong.
        let addresses: [Located<DeviceAddress>]
    }

    /// `[cec]` and `[[cec.device]]`; `nil` when the file has no `[cec]`.
    static func readCEC(_ root: TableReader) -> CECResult? {
        guard root.contains("cec") else { return nil }
        let known = ["port", "osd_name", "device_type", "cec_rx_events", "device"]
        guard let table = root.table("cec", known: known) else {
            return CECResult(section: nil, addresses: [])
        }
        var valid = true
        func optional<T>(_ value: T?, _ key: String) -> T? {
            if value == nil && table.contains(key) { valid = false }
            return value
        }
        let port = optional(table.nonEmptyString("port"), "port") ?? CECSection.defaultPort
        var osdName = optional(table.string("osd_name"), "osd_name") ?? CECSection.defaultOSDName
        let printable = osdName.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) }
        if osdName.isEmpty || osdName.unicodeScalars.count > CECSection.maximumOSDNameLength || !printable {
            table.report(
                "osd_name",
                "must be 1 to \(CECSection.maximumOSDNameLength) printable ASCII characters "
                    + "(got \(TableReader.quoted(osdName)))")
            osdName = CECSection.defaultOSDName
            valid = false
        }
        let deviceType = optional(table.choice("device_type", CECDeviceType.self), "device_type") ?? .recording
        let rxEvents = optional(table.bool("cec_rx_events"), "cec_rx_events") ?? false

        let deviceTables = table.arrayOfTables("device", known: ["address", "room", "name", "inputs"])
        let read = deviceTables.map { readCECDevice($0.reader) }
        let devices = read.compactMap(\.device)
        let addresses = read.compactMap(\.address)
        checkDuplicateLogicalAddresses(devices, diagnostics: table.diagnostics)

        guard valid, devices.count == deviceTables.count else {
            return CECResult(section: nil, addresses: addresses)
        }
        let section = CECSection(
            port: port, osdName: osdName, deviceType: deviceType, rxEvents: rxEvents,
            devices: devices.map(\.value))
        return CECResult(section: section, addresses: addresses)
    }

    private static func readCECDevice(
        _ table: TableReader
    ) -> (device: Located<CECDeviceConfig>?, address: Located<DeviceAddress>?) {
        let logicalAddress = table.int("address", required: true, in: logicalAddressRange)
        let address = readDeviceAddress(table)
        var inputs: [String: PhysicalAddress]? = [:]
        if table.contains("inputs") {
            inputs = table.table("inputs", known: nil).flatMap(readInputs)
        }
        let located = address.map { Located(path: table.path, value: $0) }
        guard let logicalAddress, let address, let inputs else { return (nil, located) }
        let device = CECDeviceConfig(logicalAddress: logicalAddress, address: address, inputs: inputs)
        return (Located(path: table.path, value: device), located)
    }

    /// `[cec.device.inputs]`: `name = "a.b.c.d"`, names `[A-Za-z0-9_-]+`, each physical address once.
    private static func readInputs(_ table: TableReader) -> [String: PhysicalAddress]? {
        var inputs: [String: PhysicalAddress] = [:]
        var names: [PhysicalAddress: String] = [:]
        var valid = true
        for key in table.keys.sorted() {
            guard TopicScheme.isValidLevel(key) else {
                table.report(key, "input name must match [A-Za-z0-9_-]+ (got \(TableReader.quoted(key)))")
                valid = false
                continue
            }
            guard let text = table.string(key) else {
                valid = false
                continue
            }
            let address: PhysicalAddress
            do {
                address = try PhysicalAddress(parsing: text)
            } catch {
                table.report(key, "bad physical address: \(error.description)")
                valid = false
                continue
            }
            if let other = names[address] {
                table.report(key, "duplicate: physical address \(address) is already the input \"\(other)\"")
                valid = false
                continue
            }
            names[address] = key
            inputs[key] = address
        }
        return valid ? inputs : nil
    }

    private static func checkDuplicateLogicalAddresses(
        _ devices: [Located<CECDeviceConfig>],
        diagnostics: ConfigurationDiagnostics
    ) {
        var seen: [Int: String] = [:]
        for device in devices {
            let address = device.value.logicalAddress
            if let first = seen[address] {
                diagnostics.report(
                    ConfigurationKeyPath.appending("address", to: device.path),
                    "duplicate: logical address \(address) is already mapped by \(first)")
            } else {
                seen[address] = device.path
            }
        }
    }
}
