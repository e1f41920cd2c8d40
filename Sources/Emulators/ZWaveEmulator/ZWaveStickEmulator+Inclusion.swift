import Dispatch

extension ZWaveStickEmulator {
    private static let learnReady: UInt8 = 0x01
    private static let nodeFound: UInt8 = 0x02
    private static let addingOrRemovingSlave: UInt8 = 0x03
    private static let protocolDone: UInt8 = 0x05
    private static let done: UInt8 = 0x06
    private static let stop: UInt8 = 0x05

    /// ADD_NODE_TO_NETWORK `mode callbackId`: LEARN_READY, then (when a node joins) NODE_FOUND,
    /// ADDING_SLAVE with its NIF, PROTOCOL_DONE; the host's Add Node Stop is answered with DONE.
    func addNode(_ p: [UInt8]) {
        let mode = (p.first ?? 0) & 0x0F
        let given: UInt8 = p.count >= 2 ? p[1] : 0
        if mode == Self.stop || mode == 0x06 {
            var joined: UInt8 = 0
            var cb = given != 0 ? given : lastCommandCallback
            if case .adding(let callback, let node, let protocolDone) = controllerCommand {
                cb = given != 0 ? given : callback
                if let node, protocolDone {
                    nodes[node]?.included = true
                    joined = node
                }
            }
            controllerCommand = .idle
            note(joined == 0 ? "inclusion stopped, nothing joined" : "node \(joined) included")
            controllerCallback(SerialFunction.addNodeToNetwork, [cb, Self.done, joined, 0x00])
            return
        }
        lastCommandCallback = given
        controllerCommand = .adding(callback: given, node: nil, protocolDone: false)
        commandGeneration += 1
        note("inclusion mode on")
        controllerCallback(SerialFunction.addNodeToNetwork, [given, Self.learnReady, 0x00, 0x00])
        scheduleAutomaticJoins(adding: true)
    }

    /// REMOVE_NODE_FROM_NETWORK `mode callbackId`: LEARN_READY, then (when a node leaves) NODE_FOUND,
    /// REMOVING_SLAVE, DONE. A stop is answered with DONE (node 0).
    func removeNode(_ p: [UInt8]) {
        let mode = (p.first ?? 0) & 0x0F
        let given: UInt8 = p.count >= 2 ? p[1] : 0
        if mode == Self.stop || mode == 0x06 {
            var cb = given != 0 ? given : lastCommandCallback
            if case .removing(let callback, _) = controllerCommand { cb = given != 0 ? given : callback }
            controllerCommand = .idle
            controllerCallback(SerialFunction.removeNodeFromNetwork, [cb, Self.done, 0x00, 0x00])
            return
        }
        lastCommandCallback = given
        controllerCommand = .removing(callback: given, node: nil)
        commandGeneration += 1
        note("exclusion mode on")
        controllerCallback(SerialFunction.removeNodeFromNetwork, [given, Self.learnReady, 0x00, 0x00])
        scheduleAutomaticJoins(adding: false)
    }

    func controllerCallback(_ function: UInt8, _ payload: [UInt8], delay: Double = 0.005) {
        afterRadio(delay) { [weak self] in
            self?.send(SerialFrame(.request, function, payload))
        }
    }

    private func scheduleAutomaticJoins(adding: Bool) {
        let generation = commandGeneration
        for (id, delay) in joinDelays.sorted(by: { $0.key < $1.key }) {
            guard let node = nodes[id], node.included != adding else { continue }
            queue.asyncAfter(deadline: .now() + delay) { [weak self] in
                guard let self, self.commandGeneration == generation else { return }
                _ = self.networkButton(id)
            }
        }
    }

    /// The node's inclusion button: joins while adding, leaves while removing. Returns whether it acted.
    @discardableResult
    func networkButton(_ id: UInt8) -> Bool {
        guard let node = nodes[id], !node.dead else { return false }
        let latency = max(latencySeconds, 0.01)
        switch controllerCommand {
        case .adding(let cb, nil, _) where !node.included:
            controllerCommand = .adding(callback: cb, node: id, protocolDone: false)
            note("node \(id) joins")
            let nif = node.nodeInformation
            controllerCallback(SerialFunction.addNodeToNetwork, [cb, Self.nodeFound, 0x00, 0x00], delay: latency)
            controllerCallback(
                SerialFunction.addNodeToNetwork, [cb, Self.addingOrRemovingSlave, id, UInt8(nif.count)] + nif,
                delay: latency * 3)
            afterRadio(latency * 3) { [weak self] in
                guard let self else { return }
                if case .adding(cb, id, false) = self.controllerCommand {
                    self.controllerCommand = .adding(callback: cb, node: id, protocolDone: true)
                }
                self.send(SerialFrame(.request, SerialFunction.addNodeToNetwork, [cb, Self.protocolDone, id, 0x00]))
            }
            return true
        case .removing(let cb, nil) where node.included:
            controllerCommand = .removing(callback: cb, node: id)
            note("node \(id) leaves")
            let nif = node.nodeInformation
            controllerCallback(SerialFunction.removeNodeFromNetwork, [cb, Self.nodeFound, 0x00, 0x00], delay: latency)
            controllerCallback(
                SerialFunction.removeNodeFromNetwork,
                [cb, Self.addingOrRemovingSlave, id, UInt8(nif.count)] + nif, delay: latency * 3)
            afterRadio(latency * 3) { [weak self] in
                guard let self else { return }
                // An excluded device returns to its factory state (associations, parameters).
                if let d = self.network.nodes.first(where: { $0.id == id }) {
                    self.nodes[id] = Self.makeNode(d, included: false)
                } else {
                    self.nodes[id]?.included = false
                }
                self.controllerCommand = .idle
                self.send(SerialFrame(.request, SerialFunction.removeNodeFromNetwork, [cb, Self.done, id, 0x00]))
            }
            return true
        default:
            return false
        }
    }
}
