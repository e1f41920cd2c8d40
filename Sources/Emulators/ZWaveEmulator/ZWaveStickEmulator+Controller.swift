import FoundationEssentials

extension ZWaveStickEmulator {
    static let controllerProtocolInfo: [UInt8] = [0xD3, 0x16, 0x01, 0x02, 0x02, 0x01]

    /// Answers one host REQUEST (already ACKed). Runs on the queue.
    func handleHostRequest(_ f: SerialFrame) {
        let p = f.payload
        switch f.function {
        case SerialFunction.getVersion:
            // The host purges its input when it opens the port: anything queued before is lost.
            pendingOut.removeAll()
            awaitingAck = nil
            respond(f, Array("Z-Wave 4.05".utf8) + [0x00, 0x01])
        case SerialFunction.memoryGetID:
            let h = network.homeID
            respond(f, [UInt8(h >> 24), UInt8((h >> 16) & 0xFF), UInt8((h >> 8) & 0xFF), UInt8(h & 0xFF), 0x01])
        case SerialFunction.getControllerCapabilities:
            respond(f, [0x1C])
        case SerialFunction.getSUCNodeID:
            respond(f, [0x01])
        case SerialFunction.getCapabilities:
            respond(f, [0x01, 0x02, 0x00, 0x86, 0x00, 0x01, 0x00, 0x5A] + SerialFunction.mask(without: unsupported))
        case SerialFunction.getRandom:
            let count = min(Int(p.first ?? 32), 32)
            respond(f, [0x01, UInt8(count)] + (0..<count).map { _ in UInt8.random(in: 0...255) })
        case SerialFunction.serialAPISetup:
            serialAPISetup(f)
        case SerialFunction.getInitData:
            respond(f, [0x05, 0x08, 29] + nodeBitmap { $0.included } + [0x05, 0x00])
        case SerialFunction.setTimeouts:
            respond(f, [0x0F, 0x0A])
        case SerialFunction.applicationNodeInformation, SerialFunction.softReset:
            break  // ACK only
        case SerialFunction.getNodeProtocolInfo:
            let id = p.first ?? 0
            if id == 1 {
                respond(f, Self.controllerProtocolInfo)
            } else if let node = nodes[id], node.included {
                respond(f, node.protocolInfo)
            } else {
                respond(f, [0, 0, 0, 0, 0, 0])
            }
        case SerialFunction.requestNodeInfo:
            requestNodeInfo(f)
        case SerialFunction.sendData:
            sendData(f)
        case SerialFunction.getRoutingInfo:
            respond(f, routingInfo(p.first ?? 0))
        case SerialFunction.isFailedNode:
            let id = p.first ?? 0
            respond(f, [nodes[id].map { $0.dead ? 1 : 0 } ?? 1])
        case SerialFunction.addNodeToNetwork:
            addNode(p)
        case SerialFunction.removeNodeFromNetwork:
            removeNode(p)
        case SerialFunction.requestNodeNeighborUpdate, SerialFunction.assignReturnRoute,
            SerialFunction.deleteReturnRoute, SerialFunction.removeFailedNodeID:
            maintain(f)
        default:
            note("unsupported function \(SerialFunction.name(f.function)); no answer")
        }
    }

    /// The 29-byte node bitmap (bit n-1 for node n), node 1 (the stick) always set.
    func nodeBitmap(_ include: (EmulatedNode) -> Bool) -> [UInt8] {
        var map = [UInt8](repeating: 0, count: 29)
        map[0] = 0x01
        for (id, node) in nodes where include(node) && id >= 1 && id <= 232 {
            let bit = Int(id) - 1
            map[bit / 8] |= UInt8(1) << UInt8(bit % 8)
        }
        return map
    }

    func respond(_ request: SerialFrame, _ payload: [UInt8]) {
        send(SerialFrame(.response, request.function, payload))
    }

    private func requestNodeInfo(_ f: SerialFrame) {
        let id = f.payload.first ?? 0
        respond(f, [0x01])
        let info = nodes[id].flatMap { $0.included && !$0.dead && $0.isAwake ? $0.nodeInformation : nil }
        let delay = info == nil ? latencySeconds + 0.15 : latencySeconds
        afterRadio(delay) { [weak self] in
            guard let self else { return }
            if let info {
                self.send(
                    SerialFrame(.request, SerialFunction.applicationUpdate, [0x84, id, UInt8(info.count)] + info))
            } else {
                self.send(SerialFrame(.request, SerialFunction.applicationUpdate, [0x81, 0x00, 0x00]))
            }
        }
    }

    /// SEND_DATA: `node len cmd… txOptions [callbackId]` → RES, callback (tx status), replies, lifeline reports.
    private func sendData(_ f: SerialFrame) {
        let p = f.payload
        guard p.count >= 2, p.count >= 2 + Int(p[1]) + 1 else {
            respond(f, [0x00])
            return
        }
        let id = p[0]
        let length = Int(p[1])
        let command = Array(p[2..<(2 + length)])
        let callback: UInt8 = p.count >= 2 + length + 2 ? p[2 + length + 1] : 0
        respond(f, [0x01])

        let reachable = nodes[id].map { $0.included && !$0.dead && $0.isAwake } ?? false
        let latency = latencySeconds
        guard (reachable && !dropsFrame(to: id)) || id == 0xFF else {
            // NO_ACK after the routing attempts.
            afterRadio(latency + 0.15) { [weak self] in
                guard let self, callback != 0 else { return }
                self.send(
                    SerialFrame(
                        .request, SerialFunction.sendData,
                        [callback, 0x01, 0x00, 0x10] + self.transmitReport(to: id, acknowledged: false)))
            }
            return
        }
        let ticks = UInt8(clamping: max(1, Int(latency * 100)))
        afterRadio(latency * 0.6) { [weak self] in
            guard let self, callback != 0 else { return }
            self.send(
                SerialFrame(
                    .request, SerialFunction.sendData,
                    [callback, 0x00, 0x00, ticks] + self.transmitReport(to: id, acknowledged: true)))
        }
        guard id != 0xFF, let node = nodes[id] else { return }
        let (replies, unsolicited) = dispatch(command, to: node)
        if !replies.isEmpty {
            afterRadio(latency * 0.4) { [weak self] in
                guard let self else { return }
                for r in replies { self.send(Self.applicationCommand(from: id, r)) }
            }
        }
        if !unsolicited.isEmpty {
            sendUnsolicited(unsolicited, from: id)
        }
    }

    /// Decapsulates Multi Channel / Multi Instance, lets the node react, and encapsulates the replies the
    /// way the node does. Returns (replies, unsolicited) as raw command bytes.
    func dispatch(_ command: [UInt8], to node: EmulatedNode) -> ([[UInt8]], [NodeReport]) {
        if command.count >= 5, command[0] == 0x60, command[1] == 0x0D {
            let source = command[2] & 0x7F
            let destination = command[3] & 0x7F
            let reaction = node.receive(Array(command[4...]), endpoint: destination)
            let replies = reaction.replies.map {
                node.encapsulate(NodeReport(destination, $0.command), destination: source)
            }
            return (replies, reaction.unsolicited)
        }
        if command.count >= 4, command[0] == 0x60, command[1] == 0x06 {
            let instance = command[2]
            let reaction = node.receive(Array(command[3...]), endpoint: instance)
            return (reaction.replies.map { [0x60, 0x06, instance] + $0.command }, reaction.unsolicited)
        }
        let reaction = node.receive(command, endpoint: 0)
        return (
            reaction.replies.map { $0.endpoint == 0 ? $0.command : node.encapsulate($0, destination: 0) },
            reaction.unsolicited
        )
    }

    static func applicationCommand(from node: UInt8, _ command: [UInt8]) -> SerialFrame {
        SerialFrame(.request, SerialFunction.applicationCommandHandler, [0x00, node, UInt8(command.count)] + command)
    }

    /// Sends reports a node originates (lifeline), one radio transaction later, if the node reports to the
    /// controller and is alive.
    func sendUnsolicited(_ reports: [NodeReport], from id: UInt8) {
        guard let node = nodes[id], node.included, !node.dead, node.reportsToController else { return }
        let frames = reports.map { r in
            Self.applicationCommand(from: id, r.endpoint == 0 ? r.command : node.encapsulate(r, destination: 0))
        }
        afterRadio(latencySeconds) { [weak self] in
            guard let self else { return }
            for f in frames { self.send(f) }
        }
    }
}
