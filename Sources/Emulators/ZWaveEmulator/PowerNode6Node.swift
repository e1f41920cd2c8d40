/// Greenwave PowerNode 6 (manufacturer 0x0099, type 0x0003, id 0x0004): six sockets, each an endpoint with
/// Switch Binary and Meter (W, kWh). The real firmware puts the socket number in the *destination* endpoint
/// byte of its Multi Channel encapsulation (`60 0D 01 <socket>`); `realFraming = false` uses the spec form
/// (`60 0D <socket> <destination>`).
final class PowerNode6Node: EmulatedNode {
    var sockets: [Bool]
    var loads: [Double]
    var energy: [Double]
    var reportedPower: [Double]
    var realFraming: Bool

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        sockets = (0..<6).map { $0 < d.switches.count ? d.switches[$0] : false }
        loads = (0..<6).map { $0 < d.loads.count ? MeterReading.sanitizedWatts(d.loads[$0]) : 0 }
        energy = Array(repeating: 0, count: 6)
        reportedPower = Array(repeating: 0, count: 6)
        realFraming = d.realFraming
        super.init(id: id, kind: .powernode6, included: included)
        manufacturer = (0x0099, 0x0003, 0x0004)
        protocolInfo = [0xD3, 0x9C, 0x01, 0x04, 0x10, 0x01]
        generic = 0x10
        specific = 0x01
        commandClasses = [0x25, 0x27, 0x32, 0x60, 0x70, 0x72, 0x85, 0x86, 0x20, 0x71, 0x87]
        versions = [0x32: 2, 0x60: 2]
        endpoints = Array(repeating: Endpoint(generic: 0x10, specific: 0x01, commandClasses: [0x25, 0x32]), count: 6)
        identicalEndpoints = true
        groups = [
            1: AssociationGroup(max: 1), 2: AssociationGroup(max: 1), 3: AssociationGroup(max: 1),
            4: AssociationGroup(max: 1),
        ]
        // The groups, labels and maximums of OpenZWave's config/greenwave/powernode6.xml.
        groupNames = [1: "Wheel", 2: "Relay health", 3: "Power level", 4: "Overcurrent protection"]
        defaultConfig = [
            0: ConfigValue(size: 1, value: 10), 1: ConfigValue(size: 1, value: 2),
            3: ConfigValue(size: 1, value: 2), 4: ConfigValue(size: 1, value: 1),
        ]
        config = defaultConfig
        reportedPower = (0..<6).map { power($0) }
    }

    /// Reports go to the controller regardless of the "Wheel" group (the real device reports to its
    /// including controller).
    override var reportsToController: Bool { true }

    override func encapsulate(_ report: NodeReport, destination: UInt8) -> [UInt8] {
        if realFraming {
            return [0x60, 0x0D, 0x01, report.endpoint] + report.command
        }
        return [0x60, 0x0D, report.endpoint, destination] + report.command
    }

    func power(_ i: Int) -> Double { sockets[i] ? loads[i] : 0 }

    private func socketIndex(_ endpoint: UInt8) -> Int { endpoint == 0 ? 0 : Int(endpoint) - 1 }

    override func level(endpoint: UInt8) -> UInt8? {
        let i = socketIndex(endpoint)
        guard i < 6 else { return nil }
        return sockets[i] ? 0xFF : 0x00
    }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        let i = socketIndex(endpoint)
        guard i < 6 else { return nil }
        let ep = UInt8(i + 1)
        switch (c[0], c[1]) {
        case (0x25, 0x01) where c.count >= 3, (0x20, 0x01) where c.count >= 3:
            sockets[i] = c[2] != 0
            return NodeReaction(unsolicited: [NodeReport(ep, [0x25, 0x03, sockets[i] ? 0xFF : 0x00])] + powerReport(i))
        case (0x25, 0x02), (0x20, 0x02):
            return NodeReaction(replies: [NodeReport(endpoint, [c[0], 0x03, sockets[i] ? 0xFF : 0x00])])
        case (0x32, _):
            let (reply, reset) = MeterReading.answer(c, watts: power(i), kilowattHours: energy[i])
            if reset { energy[i] = 0 }
            return NodeReaction(replies: reply.map { [NodeReport(endpoint, $0)] } ?? [])
        default:
            return nil
        }
    }

    /// Switches a socket locally (its button); returns the reports.
    func toggle(socket: Int) -> [NodeReport] {
        guard socket >= 0, socket < 6 else { return [] }
        sockets[socket].toggle()
        return [NodeReport(UInt8(socket + 1), [0x25, 0x03, sockets[socket] ? 0xFF : 0x00])] + powerReport(socket)
    }

    override func setLoad(_ watts: Double, endpoint: UInt8) -> [NodeReport] {
        let i = socketIndex(endpoint)
        guard i < 6 else { return [] }
        loads[i] = MeterReading.sanitizedWatts(watts)
        return powerReport(i)
    }

    override func tick(seconds: Double) -> [NodeReport] {
        for i in 0..<6 { energy[i] += power(i) * seconds / 3_600_000 }
        return []
    }

    /// A W report when the change passes parameter 0 ("power delta", %).
    private func powerReport(_ i: Int) -> [NodeReport] {
        let now = power(i)
        let delta = abs(now - reportedPower[i])
        let percent = Double(configValue(0))
        guard delta > 0, reportedPower[i] == 0 || delta >= reportedPower[i] * percent / 100 else { return [] }
        reportedPower[i] = now
        return [NodeReport(UInt8(i + 1), MeterReading.report(now, scale: .watts))]
    }
}
