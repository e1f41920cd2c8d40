import FoundationEssentials

/// Fibaro Dimmer 2 (FGD212, manufacturer 0x010F, type 0x0102, id 0x1000): Switch Multilevel v3 (0-99) on the
/// root and endpoint 1, a second endpoint for the S2 channel, Meter (W, kWh) and Sensor Multilevel (power),
/// Scene Activation (0x2B, controlled) for S1/S2 when parameter 28 is 1, and lifeline reports of every level
/// change, as the real device sends them.
final class FibaroDimmer2Node: EmulatedNode {
    /// Scene ids the FGD212 sends (manual; OpenZWave issue #1667).
    static func sceneID(_ button: DimmerButton, _ press: PressKind) -> UInt8 {
        switch (button, press) {
        case (.s1, .single): 16
        case (.s1, .double): 14
        case (.s1, .triple): 15
        case (.s1, .hold): 12
        case (.s1, .release): 13
        case (.s2, .single): 26
        case (.s2, .double): 24
        case (.s2, .triple): 25
        case (.s2, .hold): 22
        case (.s2, .release): 23
        }
    }

    var dimmerLevel: UInt8
    var lastOnLevel: UInt8 = 99
    var s2Level: UInt8 = 0
    var fullLoad: Double
    var energy: Double = 0  // kWh
    var reportedPower: Double = 0
    var reportedEnergy: Double = 0
    var sincePeriodic: Double = 0
    private var holdStart: Date?
    private var holdUp = true

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        dimmerLevel = min(d.level, 99)
        fullLoad = MeterReading.sanitizedWatts(d.loads.first ?? 60)
        super.init(id: id, kind: .fgd212, included: included)
        manufacturer = (0x010F, 0x0102, 0x1000)
        protocolInfo = [0xD3, 0x9C, 0x01, 0x04, 0x11, 0x01]
        generic = 0x11
        specific = 0x01
        commandClasses = [
            0x5E, 0x86, 0x72, 0x59, 0x73, 0x22, 0x31, 0x32, 0x71, 0x56, 0x98, 0x7A,
            0x20, 0x5A, 0x85, 0x26, 0x8E, 0x60, 0x70, 0x75, 0x27, 0xEF, 0x2B,
        ]
        versions = [
            0x5E: 2, 0x86: 2, 0x72: 2, 0x59: 1, 0x73: 1, 0x22: 1, 0x31: 5, 0x32: 3, 0x71: 5, 0x56: 1,
            0x98: 1, 0x7A: 3, 0x20: 1, 0x5A: 1, 0x85: 2, 0x26: 3, 0x8E: 2, 0x60: 4, 0x70: 1, 0x75: 2,
            0x27: 1, 0x2B: 1,
        ]
        zwavePlusInfo = [0x02, 0x05, 0x00, 0x06, 0x00, 0x06, 0x00]
        endpoints = [
            Endpoint(
                generic: 0x11, specific: 0x01,
                commandClasses: [0x5E, 0x20, 0x86, 0x26, 0x85, 0x59, 0x8E, 0x32, 0x31, 0x71]),
            Endpoint(generic: 0x11, specific: 0x01, commandClasses: [0x5E, 0x20, 0x86, 0x26, 0x85, 0x59, 0x8E]),
        ]
        groups = [
            1: AssociationGroup(max: 1), 2: AssociationGroup(max: 8), 3: AssociationGroup(max: 8),
            4: AssociationGroup(max: 8), 5: AssociationGroup(max: 8),
        ]
        // The groups, labels and maximums of OpenZWave's config/fibaro/fgd212.xml.
        groupNames = [1: "Lifeline", 2: "On/Off(S1)", 3: "Dimmer(S1)", 4: "On/Off(S2)", 5: "Dimmer(S2)"]
        defaultConfig = [
            1: ConfigValue(size: 1, value: 1), 2: ConfigValue(size: 1, value: 99),
            20: ConfigValue(size: 1, value: 0), 28: ConfigValue(size: 1, value: 0),
            50: ConfigValue(size: 1, value: 10), 52: ConfigValue(size: 2, value: 3600),
            53: ConfigValue(size: 2, value: 10),
        ]
        config = defaultConfig
        config[28] = ConfigValue(size: 1, value: d.sceneActivation ? 1 : 0)
        if dimmerLevel > 0 { lastOnLevel = dimmerLevel }
        reportedPower = power
    }

    /// Active power now (W).
    var power: Double { dimmerLevel == 0 ? 0 : fullLoad * Double(dimmerLevel) / 99 }

    override func level(endpoint: UInt8) -> UInt8? { endpoint == 2 ? s2Level : dimmerLevel }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x26, 0x01) where c.count >= 3, (0x20, 0x01) where c.count >= 3:
            return NodeReaction(unsolicited: setLevel(c[2], endpoint: endpoint))
        case (0x26, 0x02), (0x20, 0x02):
            let value = level(endpoint: endpoint) ?? 0
            return NodeReaction(replies: [NodeReport(endpoint, [c[0], c[0] == 0x26 ? 0x03 : 0x03, value])])
        case (0x26, 0x04):  // Start Level Change: bit 6 = down
            let down = c.count >= 3 && c[2] & 0x40 != 0
            return NodeReaction(unsolicited: setLevel(down ? 0 : 99, endpoint: endpoint))
        case (0x26, 0x05):  // Stop Level Change
            return NodeReaction()
        case (0x26, 0x06):  // Supported Get: up/down
            return NodeReaction(replies: [NodeReport(endpoint, [0x26, 0x07, 0x02, 0x00])])
        case (0x32, 0x01):
            return NodeReaction(replies: [NodeReport(endpoint, meter(MeterReading.requestedScale(c)))])
        case (0x32, 0x03):
            return NodeReaction(replies: [NodeReport(endpoint, MeterReading.supportedReport)])
        case (0x32, 0x05):  // Meter Reset
            energy = 0
            reportedEnergy = 0
            return NodeReaction()
        case (0x31, 0x01):  // Sensor ML Supported Sensor Get: power (type 4)
            return NodeReaction(replies: [NodeReport(endpoint, [0x31, 0x02, 0x08])])
        case (0x31, 0x03):  // Supported Scale Get: W
            return NodeReaction(replies: [NodeReport(endpoint, [0x31, 0x06, 0x04, 0x01])])
        case (0x31, 0x04):
            let tenths = UInt16(min(power * 10, 65_535).rounded())
            return NodeReaction(replies: [NodeReport(endpoint, [0x31, 0x05, 0x04, 0x22] + be16(tenths))])
        case (0x71, 0x07):  // Notification Supported Get: heat (4), power management (8)
            return NodeReaction(replies: [NodeReport(endpoint, [0x71, 0x08, 0x02, 0x10, 0x01])])
        case (0x71, 0x01) where c.count >= 3:  // Event Supported Get
            let mask: [UInt8] = c[2] == 0x04 ? [0x04] : c[2] == 0x08 ? [0xC0] : []
            return NodeReaction(replies: [NodeReport(endpoint, [0x71, 0x02, c[2], UInt8(mask.count)] + mask)])
        case (0x71, 0x04):
            var type: UInt8 = c.count >= 4 ? c[3] : 0x04
            if type == 0xFF || type == 0 { type = 0x04 }
            return NodeReaction(replies: [NodeReport(endpoint, [0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, type, 0x00, 0x00])])
        default:
            return nil
        }
    }

    /// Sets the level of the dimmer (root / endpoint 1) or the S2 channel (endpoint 2); returns the lifeline
    /// reports the real device sends: the new level and, past the parameter-50 threshold, the new power.
    func setLevel(_ requested: UInt8, endpoint: UInt8) -> [NodeReport] {
        var target = requested
        if requested == 0xFF { target = endpoint == 2 ? 99 : lastOnLevel }
        target = min(target, 99)
        if endpoint == 2 {
            s2Level = target
            return [NodeReport(2, [0x26, 0x03, target])]
        }
        dimmerLevel = target
        if target > 0 { lastOnLevel = target }
        return [NodeReport(0, [0x26, 0x03, target])] + powerReportIfNeeded()
    }

    /// A local press of S1/S2; returns scene activation (if parameter 28 allows) and level reports.
    func press(_ button: DimmerButton, _ kind: PressKind) -> [NodeReport] {
        var reports: [NodeReport] = []
        if configValue(28) != 0 {
            reports.append(NodeReport(0, [0x2B, 0x01, Self.sceneID(button, kind), 0x00]))
        }
        guard button == .s1 else { return reports }
        switch kind {
        case .single:
            reports += setLevel(dimmerLevel == 0 ? lastOnLevel : 0, endpoint: 0)
        case .double, .triple:
            reports += setLevel(99, endpoint: 0)
        case .hold:
            holdStart = Date()
            holdUp = dimmerLevel < 50
        case .release:
            guard let start = holdStart else { break }
            holdStart = nil
            let steps = max(1, Int(Date().timeIntervalSince(start) * 20))
            let next = holdUp ? min(99, Int(dimmerLevel) + steps) : max(1, Int(dimmerLevel) - steps)
            reports += setLevel(UInt8(next), endpoint: 0)
        }
        return reports
    }

    override func setLoad(_ watts: Double, endpoint: UInt8) -> [NodeReport] {
        fullLoad = MeterReading.sanitizedWatts(watts)
        return powerReportIfNeeded()
    }

    override func tick(seconds: Double) -> [NodeReport] {
        energy += power * seconds / 3_600_000
        var reports: [NodeReport] = []
        let threshold = Double(configValue(53)) / 100
        if threshold > 0, energy - reportedEnergy >= threshold {
            reportedEnergy = energy
            reports.append(NodeReport(0, meter(.kilowattHours)))
        }
        let period = Double(configValue(52))
        sincePeriodic += seconds
        if period > 0, sincePeriodic >= period {
            sincePeriodic = 0
            reportedEnergy = energy
            reportedPower = power
            reports += [NodeReport(0, meter(.watts)), NodeReport(0, meter(.kilowattHours))]
        }
        return reports
    }

    private func powerReportIfNeeded() -> [NodeReport] {
        let percent = Double(configValue(50))
        guard percent > 0 else { return [] }
        let now = power
        let delta = abs(now - reportedPower)
        guard delta > 0, reportedPower == 0 || delta >= reportedPower * percent / 100 else { return [] }
        reportedPower = now
        return [NodeReport(0, meter(.watts))]
    }

    private func meter(_ scale: MeterScale) -> [UInt8] {
        MeterReading.report(scale == .watts ? power : energy, scale: scale)
    }
}

/// A wall-switch input of an emulated FGD212.
public enum DimmerButton: String, Sendable, CaseIterable {
    case s1
    case s2
}

/// How a switch input was operated.
public enum PressKind: String, Sendable, CaseIterable {
    case single
    case double
    case triple
    case hold
    case release
}
