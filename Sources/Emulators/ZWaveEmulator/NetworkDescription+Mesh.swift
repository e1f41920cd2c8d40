/// The radio mesh of an emulated network: who hears whom.
extension NetworkDescription {
    /// Each node's neighbours (node 1 is the stick), links counted both ways: a node that names another is
    /// heard by it too. A node that names none hears the stick only.
    public var neighborTable: [UInt8: Set<UInt8>] {
        var table: [UInt8: Set<UInt8>] = [1: []]
        for node in nodes { table[node.id, default: []].formUnion(node.neighbors ?? [1]) }
        for (node, heard) in table {
            for other in heard where other != node { table[other, default: []].insert(node) }
        }
        for node in table.keys { table[node]?.remove(node) }
        return table
    }

    /// Z-Wave's limit, the stick and 231 nodes (ids 2…232): dimmers (FGD212), PowerNode 6 strips and binary
    /// switches by turns, in rings of 40, 60, 70 and 61 nodes around the stick. A node of the first ring hears the
    /// stick, one of a later ring one or two nodes of the ring inside it; each hears its ring neighbours. So a node of
    /// ring k is k hops from the stick (at most 4).
    public static var large: NetworkDescription {
        let rings = largeRings
        var nodes: [NodeDescription] = []
        for (depth, ring) in rings.enumerated() {
            for (index, id) in ring.enumerated() {
                var heard: [UInt8] = []
                if depth == 0 {
                    heard.append(1)
                } else {
                    let inner = rings[depth - 1]
                    let parent = index * inner.count / ring.count
                    heard.append(inner[parent])
                    if index % 2 == 1 { heard.append(inner[(parent + 1) % inner.count]) }
                }
                heard.append(ring[(index + 1) % ring.count])
                nodes.append(largeNode(id, neighbors: heard))
            }
        }
        return NetworkDescription(nodes: nodes)
    }

    /// The node ids of the `large` network's rings, innermost first.
    static var largeRings: [[UInt8]] {
        var rings: [[UInt8]] = []
        var next = 2
        for size in [40, 60, 70, 61] {
            rings.append((next..<next + size).map { UInt8($0) })
            next += size
        }
        return rings
    }

    static func largeNode(_ id: UInt8, neighbors: [UInt8]) -> NodeDescription {
        switch id % 3 {
        case 0:
            NodeDescription(
                id: id, kind: .powernode6, name: "powernode \(id)", switches: [true, false, true, false, false, false],
                loads: [10, 0, 20, 0, 0, 0], neighbors: neighbors)
        case 1:
            NodeDescription(
                id: id, kind: .binarySwitch, name: "switch \(id)", switches: [false], loads: [100],
                neighbors: neighbors)
        default:
            NodeDescription(id: id, kind: .fgd212, name: "dimmer \(id)", loads: [40], neighbors: neighbors)
        }
    }
}
