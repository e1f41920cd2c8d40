extension ConfigurationLoader {
    /// Every room/name pair is one device, across Z-Wave and CEC together.
    static func checkDuplicateAddresses(
        _ all: [Located<DeviceAddress>], diagnostics: ConfigurationDiagnostics
    ) {
        var seen: [DeviceAddress: String] = [:]
        for device in all {
            if let first = seen[device.value] {
                diagnostics.report(
                    ConfigurationKeyPath.appending("name", to: device.path),
                    "duplicate: \(device.value) is already used by \(first)")
            } else {
                seen[device.value] = device.path
            }
        }
    }
}
