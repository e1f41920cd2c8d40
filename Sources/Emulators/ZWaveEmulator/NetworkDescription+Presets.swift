extension NetworkDescription {
    /// Node 2 FGD212, node 3 PowerNode 6 (real framing), node 10 joining (a binary switch that joins 2 s
    /// after inclusion starts).
    public static var defaultNetwork: NetworkDescription {
        NetworkDescription(nodes: [
            NodeDescription(
                id: 2, kind: .fgd212, name: "dimmer", level: 0, loads: [60], sceneActivation: true, neighbors: [1, 3]),
            NodeDescription(
                id: 3, kind: .powernode6, name: "powernode", switches: [true, true, true, true, false, false],
                loads: [10, 25.5, 0, 120, 5, 0], neighbors: [1, 2]),
            NodeDescription(id: 10, kind: .joining, name: "new switch", joinsAs: .binarySwitch, joinAfter: 2),
        ])
    }

    /// The project's example house. The garden pump (8) is out of the stick's range: it is reached through the
    /// dining light (9), two hops away.
    public static var house: NetworkDescription {
        NetworkDescription(nodes: [
            NodeDescription(
                id: 2, kind: .fgd212, name: "bedroom light", loads: [40], sceneActivation: true, neighbors: [1, 6, 7]),
            NodeDescription(
                id: 3, kind: .powernode6, name: "living room sockets",
                switches: [true, true, false, true, false, false], loads: [8, 35, 0, 120, 0, 0], neighbors: [1, 4]),
            NodeDescription(
                id: 4, kind: .fgd212, name: "living room light", loads: [75], sceneActivation: true,
                neighbors: [1, 3, 9]),
            NodeDescription(
                id: 5, kind: .fgd212, name: "kitchen light", loads: [50], sceneActivation: true, neighbors: [1, 9]),
            NodeDescription(
                id: 6, kind: .fgd212, name: "hall light", loads: [20], sceneActivation: true, neighbors: [1, 2, 7]),
            NodeDescription(
                id: 7, kind: .fgd212, name: "study light", loads: [30], sceneActivation: true, neighbors: [1, 2, 6]),
            NodeDescription(
                id: 8, kind: .binarySwitch, name: "garden pump", switches: [false], loads: [300], neighbors: [9]),
            NodeDescription(
                id: 9, kind: .fgd212, name: "dining light", loads: [60], sceneActivation: true, neighbors: [1, 4, 5, 8]),
            NodeDescription(id: 10, kind: .joining, name: "new switch", joinsAs: .binarySwitch, joinAfter: 2),
        ])
    }

    /// One node of each battery and sensor kind: 2 MultiSensor 6, 3 door/window sensor, 4 roller shutter,
    /// 5 radiator thermostat, 6 WallMote Quad, 7 door lock. The sleeping ones (2, 3, 6) answer only once woken.
    public static var sensors: NetworkDescription {
        NetworkDescription(nodes: [
            NodeDescription(id: 2, kind: .multisensor6, name: "hall sensor", temperature: 21.5, battery: 90),
            NodeDescription(id: 3, kind: .fgdw002, name: "front door", temperature: 19, battery: 80),
            NodeDescription(id: 4, kind: .fgr223, name: "living room shutter", level: 99, loads: [120]),
            NodeDescription(
                id: 5, kind: .spirit, name: "bedroom radiator", temperature: 19.5, setpoint: 20, battery: 70),
            NodeDescription(id: 6, kind: .wallmoteQuad, name: "wallmote", battery: 60),
            NodeDescription(id: 7, kind: .danalock, name: "front door lock", battery: 50),
        ])
    }

    /// `default`, `house`, `large`, `sensors`, or nil.
    public static func preset(named name: String) -> NetworkDescription? {
        switch name {
        case "default": .defaultNetwork
        case "house": .house
        case "large": .large
        case "sensors": .sensors
        default: nil
        }
    }
}
