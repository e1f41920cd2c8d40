/// A plain plug-in binary switch (Everspring AN157: manufacturer 0x0060, type 0x0004, id 0x0001).
final class BinarySwitchNode: EmulatedNode {
    var on: Bool

    init(description d: NodeDescription, id: UInt8, included: Bool) {
        on = d.switches.first ?? false
        super.init(id: id, kind: .binarySwitch, included: included)
        manufacturer = (0x0060, 0x0004, 0x0001)
        protocolInfo = [0xD3, 0x9C, 0x01, 0x04, 0x10, 0x01]
        generic = 0x10
        specific = 0x01
        commandClasses = [0x25, 0x27, 0x70, 0x72, 0x86, 0x85, 0x20]
        groups = [1: AssociationGroup(max: 1)]
    }

    override func level(endpoint: UInt8) -> UInt8? { on ? 0xFF : 0x00 }

    override func handleDevice(_ c: [UInt8], endpoint: UInt8) -> NodeReaction? {
        switch (c[0], c[1]) {
        case (0x25, 0x01) where c.count >= 3, (0x20, 0x01) where c.count >= 3:
            on = c[2] != 0
            return NodeReaction(unsolicited: [NodeReport(0, [0x25, 0x03, on ? 0xFF : 0x00])])
        case (0x25, 0x02), (0x20, 0x02):
            return NodeReaction(replies: [NodeReport(0, [c[0], 0x03, on ? 0xFF : 0x00])])
        default:
            return nil
        }
    }

    /// The local button.
    func toggle() -> [NodeReport] {
        on.toggle()
        return [NodeReport(0, [0x25, 0x03, on ? 0xFF : 0x00])]
    }
}
