import FoundationEssentials

/// The behaviour shared by every emulated slave: identity (NIF, protocol info, manufacturer), the
/// management command classes (Version, Manufacturer Specific, Z-Wave Plus Info, Multi Channel discovery,
/// Association / Multi Channel Association, Configuration, Powerlevel, Switch All, Protection) and the
/// lifeline. Subclasses add the device's functional command classes.
///
/// Not thread-safe: every instance is owned by a `ZWaveStickEmulator` and only touched on its queue.
class EmulatedNode {
    struct Endpoint {
        var generic: UInt8
        var specific: UInt8
        var commandClasses: [UInt8]
    }

    struct ConfigValue {
        var size: UInt8
        var value: Int32
    }

    struct AssociationGroup {
        var max: UInt8
        var nodes: [UInt8] = []
        var endpointTargets: [[UInt8]] = []  // [node, endpoint]
    }

    let id: UInt8
    let kind: NodeKind
    var included: Bool
    var dead = false

    // Identity.
    var manufacturer: (id: UInt16, type: UInt16, product: UInt16) = (0, 0, 0)
    var protocolInfo: [UInt8] = [0xD3, 0x9C, 0x01, 0x04, 0x10, 0x01]
    var basic: UInt8 = 0x04
    var generic: UInt8 = 0x10
    var specific: UInt8 = 0x01
    /// NIF command classes, including the 0xEF mark and the controlled CCs after it.
    var commandClasses: [UInt8] = []
    var versions: [UInt8: UInt8] = [:]
    /// `5E 02` payload after the command byte, nil if not Z-Wave Plus.
    var zwavePlusInfo: [UInt8]?
    var endpoints: [Endpoint] = []
    var identicalEndpoints = false
    var groups: [UInt8: AssociationGroup] = [:]
    var config: [UInt8: ConfigValue] = [:]
    var switchAll: UInt8 = 0xFF
    /// The battery (Battery CC) and, of a sleeping node, the sleep cycle (Wake Up CC); nil for a mains-powered node.
    var battery: BatteryState?
    /// Battery level (%) of a battery node; nil for a mains-powered one.
    var batteryLevel: UInt8? { battery?.level }
    /// The sleep cycle of a sleeping battery node; nil for one that always hears (mains, FLiRS).
    var wakeUp: WakeUpState? {
        get { battery?.wakeUp }
        set { battery?.wakeUp = newValue }
    }

    /// Whether the node hears the radio now: always, unless it is a sleeping node that is asleep.
    var isAwake: Bool { wakeUp?.awake ?? true }

    init(id: UInt8, kind: NodeKind, included: Bool) {
        self.id = id
        self.kind = kind
        self.included = included
    }

    /// The NIF as carried by APPLICATION_UPDATE / ADD_NODE callbacks: basic, generic, specific, CCs.
    var nodeInformation: [UInt8] { [basic, generic, specific] + commandClasses }

    /// Supported (not controlled) command classes.
    var supportedClasses: [UInt8] {
        Array(commandClasses.prefix { $0 != 0xEF })
    }

    /// Whether the lifeline (group 1) points at the controller, so the node reports to it.
    var reportsToController: Bool {
        guard let lifeline = groups[1] else { return true }
        return lifeline.nodes.contains(1) || lifeline.endpointTargets.contains { $0.first == 1 }
    }

    /// Multi Channel encapsulation of a reply or report from `endpoint` to the controller's endpoint
    /// `destination`. The spec puts the source endpoint first.
    func encapsulate(_ report: NodeReport, destination: UInt8) -> [UInt8] {
        [0x60, 0x0D, report.endpoint, destination] + report.command
    }

    // MARK: - Dispatch

    /// Handles one command addressed to `endpoint` (0 = root).
    final func receive(_ command: [UInt8], endpoint: UInt8) -> NodeReaction {
        guard command.count >= 2 else { return NodeReaction() }
        wakeUp?.idle = 0
        if let battery = handleBattery(command) { return NodeReaction(replies: [NodeReport(endpoint, battery)]) }
        if let device = handleDevice(command, endpoint: endpoint) { return device }
        if let reply = handleManagement(command, endpoint: endpoint) {
            return NodeReaction(replies: [NodeReport(endpoint, reply)])
        }
        return NodeReaction()
    }

    /// Device-specific command classes. Returns nil when the command is not one of them.
    func handleDevice(_ command: [UInt8], endpoint: UInt8) -> NodeReaction? { nil }

    /// Periodic work over `seconds` of emulated time; returns reports to send.
    func tick(seconds: Double) -> [NodeReport] { [] }

    /// Time passes: `emulated` seconds of emulated time, `real` seconds of real time. The device's periodic work,
    /// then the sleep cycle (a timed wake-up sends a Wake Up Notification); returns the reports to send.
    final func advance(emulated: Double, real: Double) -> [NodeReport] {
        var reports = tick(seconds: emulated)
        if wakeUp?.advance(emulated: emulated, real: real) == true {
            reports.append(NodeReport(0, WakeUpState.notification))
        }
        return reports
    }

    /// A new load (W) on an endpoint; returns reports to send.
    func setLoad(_ watts: Double, endpoint: UInt8) -> [NodeReport] { [] }

    /// The switch/level state of an endpoint (0-99 for dimmers, 0/0xFF for switches), if it has one.
    func level(endpoint: UInt8) -> UInt8? { nil }

    private func version(of cc: UInt8) -> UInt8 {
        if let v = versions[cc] { return v }
        // Basic is supported by every node, listed in its NIF or not.
        return cc == 0x20 || commandClasses.contains(cc) || endpoints.contains { $0.commandClasses.contains(cc) }
            ? 1 : 0
    }

    private func handleManagement(_ c: [UInt8], endpoint: UInt8) -> [UInt8]? {
        switch (c[0], c[1]) {
        case (0x20, 0x02):  // Basic Get, for a node whose device class does not map Basic itself: its state, or 0
            return [0x20, 0x03, level(endpoint: endpoint) ?? 0x00]
        case (0x5E, 0x01):  // Z-Wave Plus Info Get
            return zwavePlusInfo.map { [0x5E, 0x02] + $0 }
        case (0x86, 0x11):  // Version Get
            var report: [UInt8] = [0x86, 0x12, 0x03, 0x04, 0x05, 0x03, 0x05]
            if version(of: 0x86) >= 2 { report += [0x01, 0x00] }
            return report
        case (0x86, 0x13) where c.count >= 3:  // Version Command Class Get
            return [0x86, 0x14, c[2], version(of: c[2])]
        case (0x72, 0x04):  // Manufacturer Specific Get
            let m = manufacturer
            return [0x72, 0x05] + be16(m.id) + be16(m.type) + be16(m.product)
        case (0x72, 0x06):  // Device Specific Get: type 0 (factory default), binary, 8 bytes
            return [0x72, 0x07, 0x00, 0x28, 0xF2, 0x1D, 0x00, 0x00, 0x00, 0x00, id, 0x01]
        case (0x60, 0x07):  // Multi Channel End Point Get
            let flags: UInt8 = identicalEndpoints ? 0x40 : 0x00
            var report: [UInt8] = [0x60, 0x08, flags, UInt8(endpoints.count)]
            if version(of: 0x60) >= 4 { report.append(0x00) }
            return report
        case (0x60, 0x09) where c.count >= 3:  // Capability Get
            let ep = Int(c[2] & 0x7F)
            guard ep >= 1, ep <= endpoints.count else { return nil }
            let e = endpoints[ep - 1]
            return [0x60, 0x0A, c[2] & 0x7F, e.generic, e.specific] + e.commandClasses
        case (0x60, 0x04) where c.count >= 3:  // Multi Instance Get (v1)
            return [0x60, 0x05, c[2], UInt8(endpoints.count)]
        case (0x85, _), (0x8E, _):
            return handleAssociation(c, endpoint: endpoint)
        case (0x70, 0x05) where c.count >= 3:  // Configuration Get
            let p = config[c[2]] ?? ConfigValue(size: 1, value: 0)
            return [0x70, 0x06, c[2], p.size] + encode(p.value, size: p.size)
        case (0x70, 0x04) where c.count >= 4:  // Configuration Set
            let size = c[3] & 0x07
            if c[3] & 0x80 != 0 {
                config[c[2]] = defaultConfig[c[2]]
            } else if [1, 2, 4].contains(size), c.count >= 4 + Int(size) {
                config[c[2]] = ConfigValue(size: size, value: decode(Array(c[4..<(4 + Int(size))])))
            }
            return nil
        case (0x73, 0x02):  // Powerlevel Get
            return [0x73, 0x03, 0x00, 0x00]
        case (0x27, 0x02):  // Switch All Get
            return [0x27, 0x03, switchAll]
        case (0x27, 0x01) where c.count >= 3:
            switchAll = c[2]
            return nil
        case (0x75, 0x02):  // Protection Get
            return version(of: 0x75) >= 2 ? [0x75, 0x03, 0x00, 0x00] : [0x75, 0x03, 0x00]
        case (0x75, 0x04):  // Protection Supported Get
            return [0x75, 0x05, 0x00, 0x07, 0x00, 0x01, 0x00]
        case (0x98, 0x04) where commandClasses.contains(0x98):
            // Security (S0) Scheme Get, the first step of the key exchange with a node included securely: scheme 0.
            // The rest of S0 (nonces, encrypted frames) is not emulated: the exchange stops at the Nonce Get.
            return [0x98, 0x05, 0x00]
        case (0x7A, 0x01):  // Firmware Meta Data Get (v3)
            let m = manufacturer
            return [0x7A, 0x02] + be16(m.id) + be16(m.product) + [0x00, 0x00, 0xFF, 0x00, 0x00, 0x28]
        case (0x59, 0x01) where c.count >= 3:  // AGI Name Get
            let name = Array((groupNames[c[2]] ?? "Group \(c[2])").utf8)
            return [0x59, 0x02, c[2], UInt8(name.count)] + name
        case (0x59, 0x03) where c.count >= 4:  // AGI Info Get: one group, profile general / lifeline
            let g = c[3]
            return [0x59, 0x04, 0x01, g, 0x00, 0x00, g == 1 ? 0x01 : 0x20, 0x00, 0x00, 0x00, 0x00]
        case (0x59, 0x05) where c.count >= 4:  // AGI Command List Get
            return [0x59, 0x06, c[3], 0x02, 0x20, 0x01]
        default:
            return nil
        }
    }

    /// Defaults used by Configuration Set with the "default" flag.
    var defaultConfig: [UInt8: ConfigValue] = [:]
    var groupNames: [UInt8: String] = [1: "Lifeline"]

    private func handleAssociation(_ c: [UInt8], endpoint: UInt8) -> [UInt8]? {
        let cc = c[0]
        switch c[1] {
        case 0x05:  // Groupings Get
            return [cc, 0x06, UInt8(groups.count)]
        case 0x02 where c.count >= 3:  // Get
            let g = c[2]
            guard let group = groups[g] else { return [cc, 0x03, g, 0x00, 0x00] }
            var report: [UInt8] = [cc, 0x03, g, group.max, 0x00] + group.nodes
            if cc == 0x8E, !group.endpointTargets.isEmpty {
                report.append(0x00)
                for t in group.endpointTargets { report += t }
            }
            return report
        case 0x01 where c.count >= 3:  // Set: members past the group's maximum are ignored, as a real node does
            guard var group = groups[c[2]] else { return nil }
            let (nodes, targets) = splitTargets(Array(c.dropFirst(3)), multiChannel: cc == 0x8E)
            func full() -> Bool { group.nodes.count + group.endpointTargets.count >= Int(group.max) }
            for n in nodes where !group.nodes.contains(n) && !full() { group.nodes.append(n) }
            for t in targets where !group.endpointTargets.contains(t) && !full() { group.endpointTargets.append(t) }
            groups[c[2]] = group
            return nil
        case 0x04 where c.count >= 2:  // Remove
            let (nodes, targets) = splitTargets(Array(c.dropFirst(3)), multiChannel: cc == 0x8E)
            let affected = c.count >= 3 && c[2] != 0 ? [c[2]] : Array(groups.keys)
            for g in affected {
                guard var group = groups[g] else { continue }
                if nodes.isEmpty && targets.isEmpty {
                    group.nodes.removeAll()
                    group.endpointTargets.removeAll()
                } else {
                    group.nodes.removeAll { nodes.contains($0) }
                    group.endpointTargets.removeAll { targets.contains($0) }
                }
                groups[g] = group
            }
            return nil
        case 0x0B:  // Specific Group Get
            return [cc, 0x0C, 0x00]
        default:
            return nil
        }
    }

    private func splitTargets(_ bytes: [UInt8], multiChannel: Bool) -> ([UInt8], [[UInt8]]) {
        guard multiChannel, let mark = bytes.firstIndex(of: 0x00) else { return (bytes.filter { $0 != 0 }, []) }
        let nodes = Array(bytes[..<mark])
        var targets: [[UInt8]] = []
        var i = mark + 1
        while i + 1 < bytes.count {
            targets.append([bytes[i], bytes[i + 1]])
            i += 2
        }
        return (nodes, targets)
    }

    // MARK: - Helpers

    func configValue(_ p: UInt8) -> Int32 { config[p]?.value ?? defaultConfig[p]?.value ?? 0 }

    func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    func encode(_ value: Int32, size: UInt8) -> [UInt8] {
        let word = UInt32(bitPattern: value)
        switch size {
        case 1: return [UInt8(truncatingIfNeeded: word)]
        case 2: return [UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        default:
            return [
                UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ]
        }
    }

    func decode(_ bytes: [UInt8]) -> Int32 {
        guard let first = bytes.first else { return 0 }
        var value: Int64 = first & 0x80 != 0 ? -1 : 0
        for b in bytes { value = (value << 8) | Int64(b) }
        return Int32(truncatingIfNeeded: value)
    }
}

/// What a node does with one received command: direct replies (sent back in the same transaction, after
/// the SEND_DATA callback) and unsolicited reports (sent on the lifeline afterwards).
struct NodeReaction {
    var replies: [NodeReport] = []
    var unsolicited: [NodeReport] = []
}

/// A command a node sends: from which of its endpoints (0 = root) and the command bytes (CC first).
struct NodeReport: Equatable {
    var endpoint: UInt8
    var command: [UInt8]

    init(_ endpoint: UInt8, _ command: [UInt8]) {
        self.endpoint = endpoint
        self.command = command
    }
}
