import FoundationEssentials
internal import SystemSupport
import TOMLKit

/// Why a network description could not be loaded.
public enum NetworkDescriptionError: Error, CustomStringConvertible, Sendable {
    case unreadable(path: String, reason: String)
    case invalid(reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read network description \(path): \(reason)"
        case .invalid(let reason): "invalid network description: \(reason)"
        }
    }
}

extension NetworkDescription {
    /// Parses a network description:
    /// ```toml
    /// home_id = 0xC0FFEE01      # optional
    /// time_scale = 1.0          # optional: emulated seconds per real second
    /// tx_status_report = true   # optional: the stick reports each frame's route (500/700 series); default false
    /// [[node]]
    /// id = 2
    /// kind = "fgd212"           # fgd212 | powernode6 | binary_switch | multisensor6 | fgdw002 | fgr223 | spirit
    ///                           # | wallmote_quad | danalock | joining
    /// name = "bedroom light"
    /// level = 0                 # fgd212
    /// loads = [60.0]            # W per endpoint
    /// switches = [true]         # powernode6 (6) / binary_switch (1)
    /// framing = "real"          # powernode6: "real" (socket in destination byte) or "spec"
    /// scene_activation = true   # fgd212 parameter 28
    /// joins_as = "binary_switch" # joining
    /// join_after = 2.0          # joining: seconds; omit to join only on request
    /// neighbors = [1, 3]        # the nodes it hears directly (1 = the stick); omit: the stick only
    /// temperature = 21.5        # multisensor6, fgdw002, spirit: °C
    /// setpoint = 20.0           # spirit: heating setpoint, °C
    /// battery = 80              # battery nodes: %
    /// ```
    public init(toml text: String) throws(NetworkDescriptionError) {
        let file: File
        do {
            file = try TOMLDecoder().decode(File.self, from: text)
        } catch {
            throw .invalid(reason: "\(error)")
        }
        var nodes: [NodeDescription] = []
        for n in file.node ?? [] {
            guard (2...232).contains(n.id) else { throw .invalid(reason: "node id \(n.id) is outside 2…232") }
            guard !nodes.contains(where: { $0.id == UInt8(n.id) }) else {
                throw .invalid(reason: "node id \(n.id) twice")
            }
            guard let kind = NodeKind(rawValue: n.kind) else {
                throw .invalid(reason: "node \(n.id): unknown kind \(n.kind)")
            }
            var joinsAs = NodeKind.binarySwitch
            if let j = n.joins_as {
                guard let k = NodeKind(rawValue: j), k != .joining else {
                    throw .invalid(reason: "node \(n.id): bad joins_as \(j)")
                }
                joinsAs = k
            }
            let framing = n.framing ?? "real"
            guard framing == "real" || framing == "spec" else {
                throw .invalid(reason: "node \(n.id): framing must be real or spec")
            }
            guard (0...99).contains(n.level ?? 0) else { throw .invalid(reason: "node \(n.id): level must be 0…99") }
            if let j = n.join_after, !(j.isFinite && j >= 0) {
                throw .invalid(reason: "node \(n.id): join_after must be >= 0")
            }
            if let loads = n.loads, loads.contains(where: { !$0.isFinite || $0 < 0 }) {
                throw .invalid(reason: "node \(n.id): loads must be finite and >= 0")
            }
            if let heard = n.neighbors, let bad = heard.first(where: { !(1...232).contains($0) || $0 == n.id }) {
                throw .invalid(reason: "node \(n.id): neighbour \(bad) is not another node id 1…232")
            }
            if let t = n.temperature, !(t.isFinite && (-40...100).contains(t)) {
                throw .invalid(reason: "node \(n.id): temperature must be -40…100")
            }
            if let t = n.setpoint, !(t.isFinite && (8...28).contains(t)) {
                throw .invalid(reason: "node \(n.id): setpoint must be 8…28")
            }
            if let b = n.battery, !(0...100).contains(b) {
                throw .invalid(reason: "node \(n.id): battery must be 0…100")
            }
            nodes.append(
                NodeDescription(
                    id: UInt8(n.id), kind: kind, name: n.name, level: UInt8(n.level ?? 0), switches: n.switches ?? [],
                    loads: n.loads ?? [], realFraming: framing == "real", sceneActivation: n.scene_activation ?? false,
                    joinsAs: joinsAs, joinAfter: n.join_after, neighbors: n.neighbors.map { $0.map(UInt8.init) },
                    temperature: n.temperature, setpoint: n.setpoint, battery: n.battery.map(UInt8.init)))
        }
        if let scale = file.time_scale, !(scale.isFinite && scale > 0) {
            throw .invalid(reason: "time_scale must be > 0")
        }
        let home = file.home_id ?? 0xC0FF_EE01
        guard home > 0, home <= Int(UInt32.max) else { throw .invalid(reason: "home_id out of range") }
        self.init(
            homeID: UInt32(home), nodes: nodes, timeScale: file.time_scale ?? 1,
            txStatusReport: file.tx_status_report ?? false)
    }

    /// Loads `source`: a preset name (`default`, `house`, `large`) or a TOML file path.
    public static func load(_ source: String) throws(NetworkDescriptionError) -> NetworkDescription {
        if let preset = preset(named: source) { return preset }
        let text: String
        do {
            text = try readTextFile(source)
        } catch {
            throw .unreadable(path: source, reason: error.description)
        }
        return try NetworkDescription(toml: text)
    }

    // swiftlint:disable identifier_name
    private struct File: Decodable {
        var home_id: Int?
        var time_scale: Double?
        var tx_status_report: Bool?
        var node: [Node]?
    }

    private struct Node: Decodable {
        var id: Int
        var kind: String
        var name: String?
        var level: Int?
        var loads: [Double]?
        var switches: [Bool]?
        var framing: String?
        var scene_activation: Bool?
        var joins_as: String?
        var join_after: Double?
        var neighbors: [Int]?
        var temperature: Double?
        var setpoint: Double?
        var battery: Int?
    }
}
