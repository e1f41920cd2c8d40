import BridgeCore
import CECEmulator
import SystemSupport
import ZWaveEmulator

/// What the emulated house does by itself now and then: wall switches on the dimmers, the S2 scene
/// button, load changes and local buttons on the PowerNode, the entrance switch, the TV's own remote.
/// Devices are named as in devices.toml, so each action reads like the topic it will change.
struct DemoHouse: Sendable {
    let emulators: DemoEmulators
    private let dimmers: [(node: UInt8, label: String)]
    private let sockets: [(node: UInt8, endpoint: UInt8, label: String)]
    private let switches: [(node: UInt8, label: String)]
    private let scene: (node: UInt8, label: String, topic: String)?
    private let tvLabel: String
    private let inputs: [(name: String, address: PhysicalAddress)]

    init(emulators: DemoEmulators, configuration: BridgeConfiguration) {
        self.emulators = emulators
        let devices = configuration.zwave?.devices ?? []
        func label(_ node: UInt8, _ instance: Int? = nil) -> String {
            devices.first { $0.node == Int(node) && $0.instance == instance }?.address.description ?? "node \(node)"
        }
        let nodes = emulators.network.nodes
        let dimmers = nodes.filter { $0.kind == .fgd212 }.map { (node: $0.id, label: label($0.id)) }
        self.dimmers = dimmers
        sockets = nodes.filter { $0.kind == .powernode6 }.flatMap { node in
            (1...6).map { (node.id, UInt8($0), label(node.id, $0)) }
        }
        switches = nodes.filter { $0.kind == .binarySwitch }.map { ($0.id, label($0.id)) }
        // FGD212 scene 26 is an S2 single click.
        scene = (configuration.zwave?.scenes ?? []).first { $0.scene == 26 && $0.instance == nil }
            .flatMap { mapping in
                dimmers.first { Int($0.node) == mapping.node }.map { ($0.node, $0.label, mapping.topic) }
            }
        let tv = configuration.cec?.devices.first { $0.logicalAddress == 0 }
        tvLabel = tv?.address.description ?? "the TV"
        inputs = (tv?.inputs ?? [:]).map { ($0.key, $0.value) }.sorted { $0.address < $1.address }
    }

    /// Does one random thing and describes it; nil when the house has nothing of the chosen kind.
    func act(using random: inout SeededRandom) -> String? {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...2: pressS1(using: &random)
        case 3: pressS2()
        case 4...5: changeLoad(using: &random)
        case 6: toggleSocketOrSwitch(using: &random)
        default: useTVRemote(using: &random)
        }
    }

    private func pressS1(using random: inout SeededRandom) -> String? {
        guard let dimmer = dimmers.randomElement(using: &random) else { return nil }
        guard emulators.zwave.pressButton(node: dimmer.node, button: .s1, .single) else { return nil }
        return "wall switch S1 clicked on the \(dimmer.label) dimmer (toggles the light)"
    }

    private func pressS2() -> String? {
        guard let scene, emulators.zwave.pressButton(node: scene.node, button: .s2, .single) else { return nil }
        return "S2 clicked on the \(scene.label) dimmer: scene 26, mapped to \(scene.topic)"
    }

    private func changeLoad(using random: inout SeededRandom) -> String? {
        guard let socket = sockets.randomElement(using: &random) else { return nil }
        let watts = Double(Int.random(in: 5...250, using: &random))
        guard emulators.zwave.setLoad(node: socket.node, endpoint: socket.endpoint, watts: watts) else { return nil }
        let on = emulators.zwave.switchState(node: socket.node, endpoint: socket.endpoint) ?? false
        return "the load on the \(socket.label) socket changes to \(Int(watts)) W" + (on ? "" : " (the socket is off)")
    }

    private func toggleSocketOrSwitch(using random: inout SeededRandom) -> String? {
        if Bool.random(using: &random), let light = switches.randomElement(using: &random) {
            guard emulators.zwave.toggleSwitch(node: light.node) else { return nil }
            return "the \(light.label) switch is flipped by hand"
        }
        guard let socket = sockets.randomElement(using: &random),
            emulators.zwave.toggleSwitch(node: socket.node, endpoint: socket.endpoint)
        else { return nil }
        return "the button on the \(socket.label) socket is pressed (toggles it)"
    }

    private func useTVRemote(using random: inout SeededRandom) -> String? {
        let state = emulators.cec.state
        if !state.tvPoweredOn {
            emulators.cec.tvRemotePower(on: true)
            return "the TV's own remote switches \(tvLabel) on"
        }
        let others = inputs.filter { $0.address.rawValue != state.tvInput }
        if Bool.random(using: &random), let input = others.randomElement(using: &random) {
            emulators.cec.tvRemoteSelectInput(input.address.rawValue)
            return "the TV's own remote selects input \(input.name) (\(input.address))"
        }
        emulators.cec.tvRemotePower(on: false)
        return "the TV's own remote puts \(tvLabel) in standby"
    }
}
