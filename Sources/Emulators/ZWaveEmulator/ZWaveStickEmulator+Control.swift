internal import Dispatch
import FoundationEssentials
public import SerialPTY

/// Control API for tests, the demo and benchmarks. Every method is thread-safe.
extension ZWaveStickEmulator {
    // MARK: Devices

    /// Presses a wall switch input of an FGD212. Returns false if `node` is not an included FGD212.
    @discardableResult
    public func pressButton(node: UInt8, button: DimmerButton, _ kind: PressKind) -> Bool {
        queue.sync {
            guard let dimmer = nodes[node] as? FibaroDimmer2Node, dimmer.included else { return false }
            let reports = dimmer.press(button, kind)
            sendUnsolicited(reports, from: node)
            return true
        }
    }

    /// Presses the local button of a switch (PowerNode socket `endpoint` 1-6, or the binary switch), which
    /// toggles it and reports the new state. Returns false if there is no such switch.
    @discardableResult
    public func toggleSwitch(node: UInt8, endpoint: UInt8 = 1) -> Bool {
        queue.sync {
            guard let n = nodes[node], n.included else { return false }
            let reports: [NodeReport]
            if let p = n as? PowerNode6Node {
                reports = p.toggle(socket: Int(endpoint) - 1)
            } else if let s = n as? BinarySwitchNode {
                reports = s.toggle()
            } else {
                return false
            }
            sendUnsolicited(reports, from: node)
            return !reports.isEmpty
        }
    }

    /// Changes the load (W) on an endpoint (FGD212: the load at full brightness; PowerNode: socket 1-6).
    /// The node reports the new power when the change passes its threshold parameter.
    @discardableResult
    public func setLoad(node: UInt8, endpoint: UInt8, watts: Double) -> Bool {
        queue.sync {
            guard let n = nodes[node] else { return false }
            sendUnsolicited(n.setLoad(watts, endpoint: endpoint), from: node)
            return true
        }
    }

    /// Makes a node stop answering (dead) or come back. A node that comes back announces itself with an
    /// unsolicited node information frame, as mains-powered devices do after power returns.
    public func setDead(node: UInt8, _ dead: Bool) {
        queue.sync {
            guard let n = nodes[node], n.dead != dead else { return }
            n.dead = dead
            note("node \(node) \(dead ? "stops answering" : "is back")")
            guard !dead, n.included else { return }
            let info = n.nodeInformation
            afterRadio(latencySeconds) { [weak self] in
                self?.send(
                    SerialFrame(.request, SerialFunction.applicationUpdate, [0x84, node, UInt8(info.count)] + info))
            }
        }
    }

    /// The network (inclusion) button of a node: joins while the controller is in inclusion mode, leaves
    /// while it is in exclusion mode. Returns whether anything happened.
    @discardableResult
    public func pressNetworkButton(node: UInt8) -> Bool {
        queue.sync { networkButton(node) }
    }

    // MARK: Link faults

    /// Sends a data frame to the host as the stick would (waits for the ACK, retransmits).
    public func inject(_ frame: SerialFrame) {
        queue.async { self.send(frame) }
    }

    /// Writes raw bytes to the host as they are (garbage, bare ACK/NAK/CAN, broken frames…).
    public func injectRawBytes(_ bytes: [UInt8]) {
        queue.async { self.writeRaw(bytes) }
    }

    /// Sends an APPLICATION_COMMAND_HANDLER frame from `node` carrying `command` (CC first) right away.
    public func injectReport(from node: UInt8, _ command: [UInt8]) {
        queue.async { self.send(Self.applicationCommand(from: node, command)) }
    }

    /// Answers the next host data frame with NAK instead of ACK (and ignores it).
    public func nakNextFrame() { queue.sync { nakNext = true } }

    /// Answers the next host data frame with CAN instead of ACK (and ignores it).
    public func canNextFrame() { queue.sync { canNext = true } }

    /// While silent, host frames are recorded but neither ACKed nor answered (a stick that hangs at init).
    public func silentDuringInit(_ silent: Bool) { queue.sync { answering = !silent } }

    /// Ends `silentDuringInit(true)`.
    public func startAnswering() { queue.sync { answering = true } }

    /// Closes the pty and removes the link, like pulling the stick out.
    public func unplug() {
        queue.sync {
            note("unplugged")
            detach()
        }
    }

    /// Opens a new pty at the same link, like plugging the stick back in.
    public func replug() throws(PseudoTerminalError) {
        guard let link = queue.sync(execute: { self.link }) else { throw .closed }
        let terminal = try PseudoTerminal(link: link)
        queue.sync {
            detach()
            attach(terminal)
        }
    }

    /// Changes the emulated radio latency per transaction.
    public func setRadioLatency(_ latency: Duration) { queue.sync { radioLatency = latency } }

    /// Holds the radio from the first host frame matching `predicate` on (a frame that arrives after this call):
    /// that frame is ACKed and answered at once as always, but its transaction's callback and the node's report,
    /// and every later step, wait until `releaseRadio()`. The host meanwhile has that one transaction in flight,
    /// with whatever it queued behind it. Returns when the frame has arrived (nil after `timeout`).
    public func holdRadio(
        startingWith predicate: @escaping @Sendable (HostFrameEvent) -> Bool, timeout: Duration
    ) async -> HostFrameEvent? {
        queue.sync { holdPredicate = predicate }
        let frame = await waitForHostFrame(timeout: timeout, where: predicate)
        if frame == nil { queue.sync { holdPredicate = nil } }
        return frame
    }

    /// Ends `holdRadio`: the held steps run in their order, each after its usual delay.
    public func releaseRadio() {
        queue.sync {
            holdPredicate = nil
            holding = false
            let steps = heldSteps
            heldSteps = []
            for step in steps { afterRadio(step.delay, step.action) }
        }
    }

    // MARK: State

    /// The dimmer level (0-99) of an FGD212, or the switch state (0x00/0xFF) of an endpoint of a switch.
    public func level(node: UInt8, endpoint: UInt8 = 0) -> UInt8? {
        queue.sync { nodes[node]?.level(endpoint: endpoint) }
    }

    /// Whether a switch endpoint is on (PowerNode socket 1-6, binary switch endpoint 0/1).
    public func switchState(node: UInt8, endpoint: UInt8 = 1) -> Bool? {
        level(node: node, endpoint: endpoint).map { $0 != 0 }
    }

    /// A configuration parameter's value.
    public func configParameter(node: UInt8, _ parameter: UInt8) -> Int32? {
        queue.sync { nodes[node]?.configValue(parameter) }
    }

    /// Accumulated energy (kWh) of a node's endpoint (FGD212: the dimmer; PowerNode: socket 1-6).
    public func energy(node: UInt8, endpoint: UInt8 = 1) -> Double? {
        queue.sync {
            if let d = nodes[node] as? FibaroDimmer2Node { return d.energy }
            if let p = nodes[node] as? PowerNode6Node, (1...6).contains(endpoint) { return p.energy[Int(endpoint) - 1] }
            return nil
        }
    }

    /// Whether the controller is in inclusion mode.
    public var isInclusionActive: Bool {
        queue.sync { if case .adding = controllerCommand { true } else { false } }
    }

    /// Whether the controller is in exclusion mode.
    public var isExclusionActive: Bool {
        queue.sync { if case .removing = controllerCommand { true } else { false } }
    }

    /// Ids of the included nodes (without the stick itself).
    public var includedNodeIDs: [UInt8] {
        queue.sync { nodes.values.filter(\.included).map(\.id).sorted() }
    }

    /// Association targets of a group (plain node ids, then `node:endpoint` as two bytes each).
    public func associations(node: UInt8, group: UInt8) -> (nodes: [UInt8], endpoints: [[UInt8]])? {
        queue.sync { nodes[node]?.groups[group].map { ($0.nodes, $0.endpointTargets) } }
    }

    /// The slave device path while plugged in.
    public var devicePath: String? { queue.sync { pty?.slavePath } }

    // MARK: Observation

    /// How many data frames the host has sent since creation.
    public var hostFrameCount: Int { queue.sync { hostFrameTotal } }

    /// For each of the stick's ACK timeouts that expired so far, in order: how many data frames it had transmitted
    /// to the host (first transmissions and resends) once the timeout was dealt with. A timeout whose frame was
    /// ACKed resends nothing, so the count stays what it was.
    public var expiredAckTimeouts: [Int] { queue.sync { expiredAckTimeoutsLog } }

    /// The host frames received so far (the most recent 10 000 or more).
    public var receivedHostFrames: [HostFrameEvent] { queue.sync { hostFrames } }

    /// Waits for a host data frame that matches `predicate`: the next one arriving after this call, or with
    /// `since` (a `hostFrameCount` read earlier) the first at that index or later, also one already received. nil
    /// on timeout or `stop()`.
    public func waitForHostFrame(
        since: Int? = nil, timeout: Duration,
        where predicate: @escaping @Sendable (HostFrameEvent) -> Bool
    ) async -> HostFrameEvent? {
        let id = UUID()
        let c = timeout.components
        let seconds = Double(c.seconds) + Double(c.attoseconds) / 1e18
        return await withCheckedContinuation { (continuation: CheckedContinuation<HostFrameEvent?, Never>) in
            queue.async {
                if let since, let received = self.hostFrames.first(where: { $0.index >= since && predicate($0) }) {
                    continuation.resume(returning: received)
                    return
                }
                self.waiters[id] = (predicate, continuation)
                self.queue.asyncAfter(deadline: .now() + seconds) {
                    if let w = self.waiters.removeValue(forKey: id) { w.continuation.resume(returning: nil) }
                }
            }
        }
    }

    /// A stream of every host data frame from now on, with arrival times. Ends at `stop()`.
    public func hostFrameStream() -> AsyncStream<HostFrameEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: HostFrameEvent.self, bufferingPolicy: .bufferingNewest(4096))
        let id = UUID()
        queue.sync { streams[id] = continuation }
        let q = queue
        continuation.onTermination = { [weak self] _ in
            q.async { [weak self] in self?.streams[id] = nil }
        }
        return stream
    }
}
