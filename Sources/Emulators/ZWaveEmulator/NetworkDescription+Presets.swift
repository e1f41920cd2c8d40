extension NetworkDescription {
    /// Node 2 FGD212, node 3 PowerNode 6 (real framing), node 10 joining (a binary switch that joins 2 s
    /// after inclusion starts).
    public static var defaultNetwork: NetworkDescription {
        NetworkDescription(nodes: [
            NodeDescription(id: 2, kind: .fgd212, name: "dimmer", level: 0, loads: [60], sceneActivation: true),
            NodeDescription(
                id: 3, kind: .powernode6, name: "powernode", switches: [true, true, true, true, false, false],
                loads: [10, 25.5, 0, 120, 5, 0]),
            NodeDescription(id: 10, kind: .joining, name: "new switch", joinsAs: .binarySwitch, joinAfter: 2),
        ])
    }

    /// The project's example house.
    public static var house: NetworkDescription {
        NetworkDescription(nodes: [
            NodeDescription(id: 2, kind: .fgd212, name: "bedroom light", loads: [40], sceneActivation: true),
            NodeDescription(
                id: 3, kind: .powernode6, name: "living room sockets",
                switches: [true, true, false, true, false, false], loads: [8, 35, 0, 120, 0, 0]),
            NodeDescription(id: 4, kind: .fgd212, name: "living room light", loads: [75], sceneActivation: true),
            NodeDescription(id: 5, kind: .fgd212, name: "kitchen light", loads: [50], sceneActivation: true),
            NodeDescription(id: 6, kind: .fgd212, name: "hall light", loads: [20], sceneActivation: true),
            NodeDescription(id: 7, kind: .fgd212, name: "study light", loads: [30], sceneActivation: true),
            NodeDescription(id: 8, kind: .binarySwitch, name: "garden pump", switches: [false], loads: [300]),
            NodeDescription(id: 9, kind: .fgd212, name: "dining light", loads: [60], sceneActivation: true),
            NodeDescription(id: 10, kind: .joining, name: "new switch", joinsAs: .binarySwitch, joinAfter: 2),
        ])
    }

    /// `default`, `house`, or nil.
    public static func preset(named name: String) -> NetworkDescription? {
        switch name {
        case "default": .defaultNetwork
        case "house": .house
        default: nil
        }
    }
}
