import Foundation
import ZWaveEmulator

/// The emulated stick on a pty in the bench process, a recorder of the host's frames, and the devices.toml
/// text mapping its nodes.
final class ZWaveFixture: Sendable {
    let stick: ZWaveStickEmulator
    let link: String
    let frames = Inbox<HostFrameEvent>()
    let network: NetworkDescription
    private let recordTask: Task<Void, Never>

    init(network: NetworkDescription, radioLatency: Duration, link: String) throws {
        self.network = network
        self.link = link
        stick = ZWaveStickEmulator(network: network, radioLatency: radioLatency)
        try stick.start(link: link)
        let stream = stick.hostFrameStream()
        let frames = frames
        // Benchmark-only task; it ends when the stick stops (the stream finishes).
        recordTask = Task {
            for await event in stream { frames.put(event, at: event.time) }
        }
    }

    func stop() async {
        stick.stop()
        _ = await recordTask.value
    }

    /// Waits until the host has sent no frame for `quiet` (the interview is over), at most `timeout`.
    func waitForQuiet(_ quiet: Duration = .seconds(1), timeout: Duration = .seconds(120)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var last = frames.mark
        var since = ContinuousClock.now
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            let now = frames.mark
            if now != last {
                last = now
                since = .now
            } else if ContinuousClock.now - since >= quiet {
                return true
            }
        }
        return false
    }

    /// `[zwave]` with `port`, `state_dir`, `refresh_after_set`, `openzwave_patches` (false: OpenZWave as shipped)
    /// and one device per FGD212 node (`room/d<node>`) and per PowerNode socket (`room/p<node>_<socket>`).
    func zwaveSection(
        stateDirectory: String, refreshAfterSet: Bool, openZWavePatches: Bool = true, room: String = "bench"
    ) -> String {
        var text = """
            [zwave]
            port = "\(link)"
            state_dir = "\(stateDirectory)"
            refresh_after_set = \(refreshAfterSet)
            openzwave_patches = \(openZWavePatches)

            """
        for node in network.nodes {
            switch node.kind {
            case .fgd212:
                text += "[[zwave.device]]\nnode = \(node.id)\nroom = \"\(room)\"\nname = \"d\(node.id)\"\n"
            case .powernode6:
                for socket in 1...6 {
                    text +=
                        "[[zwave.device]]\nnode = \(node.id)\ninstance = \(socket)\nroom = \"\(room)\"\nname = \"p\(node.id)_\(socket)\"\n"
                }
            case .binarySwitch:
                text += "[[zwave.device]]\nnode = \(node.id)\nroom = \"\(room)\"\nname = \"s\(node.id)\"\n"
            case .joining, .multisensor6, .fgdw002, .fgr223, .spirit, .wallmoteQuad, .danalock:
                continue  // the bridge does not map these kinds yet
            }
        }
        return text
    }

    /// The state topics of every mapped device.
    func stateTopics(room: String = "bench") -> [String] {
        network.nodes.flatMap { topics(of: $0, room: room) }
    }

    /// The power and energy topics (`…/power`, `…/energy`) of every metered device (the dimmers and sockets).
    func meterTopics(room: String = "bench") -> [String] {
        network.nodes.filter { $0.kind == .fgd212 || $0.kind == .powernode6 }.flatMap { topics(of: $0, room: room) }
            .flatMap { ["\($0)/power", "\($0)/energy"] }
    }

    private func topics(of node: NodeDescription, room: String) -> [String] {
        switch node.kind {
        case .fgd212: ["Thuis/device/\(room)/d\(node.id)"]
        case .powernode6: (1...6).map { "Thuis/device/\(room)/p\(node.id)_\($0)" }
        case .binarySwitch: ["Thuis/device/\(room)/s\(node.id)"]
        case .joining, .multisensor6, .fgdw002, .fgr223, .spirit, .wallmoteQuad, .danalock: []
        }
    }

    /// A network of `count` nodes (ids 2…), alternating FGD212 and PowerNode 6, every one in range of the stick; at
    /// Z-Wave's limit (231 nodes, 232 node ids) the emulator's `large` mesh instead: dimmers, PowerNodes and binary
    /// switches by turns, up to 4 hops from the stick.
    static func scaleNetwork(count: Int) -> NetworkDescription {
        if count == NetworkDescription.large.nodes.count { return .large }
        return NetworkDescription(
            nodes: (0..<count).map { index in
                let id = UInt8(2 + index)
                return index % 2 == 0
                    ? NodeDescription(id: id, kind: .fgd212, name: "dimmer \(id)", level: 0, loads: [40])
                    : NodeDescription(
                        id: id, kind: .powernode6, name: "powernode \(id)",
                        switches: [true, false, true, false, true, false], loads: [10, 0, 20, 0, 5, 0])
            })
    }
}
