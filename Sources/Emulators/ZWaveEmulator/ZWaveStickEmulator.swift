import Dispatch
import FoundationEssentials
internal import Glibc
public import SerialPTY
internal import SystemSupport

/// An emulated Z-Wave Serial API stick (a Gen5-like static controller, node 1) on a pseudo-terminal, with
/// emulated slave nodes behind it. Speaks the Serial API as libopenzwave 1.6 expects it: ACKs every good
/// frame at once, answers the init chain, and runs one transaction at a time in the real order (RES, then
/// the callback REQ, then the node's report). Its own unsolicited frames wait 1.6 s for the host's ACK and
/// are retransmitted up to 3 times.
///
/// All state lives on one private serial queue; the public methods are thread-safe and may be called from
/// any thread or task (never from inside the `trace` closure, which runs on that queue).
public final class ZWaveStickEmulator: @unchecked Sendable {
    // @unchecked Sendable: every mutable property below is only read or written on `queue`.

    /// How long the emulated radio takes per transaction (callback after 60 %, report after 100 %).
    public static let defaultRadioLatency: Duration = .milliseconds(5)
    /// A realistic profile: about 30 ms per direct transaction.
    public static let realisticRadioLatency: Duration = .milliseconds(30)

    let queue = DispatchQueue(label: "zwave-stick-emulator")
    let network: NetworkDescription
    let trace: (@Sendable (EmulatorTrace) -> Void)?

    // Link.
    var link: String?
    var pty: PseudoTerminal?
    var parser = SerialFrameParser()
    var lastByteTime = DispatchTime.now()
    var answering = true
    var nakNext = false
    var canNext = false

    // Output: one data frame waits for the host's ACK at a time.
    struct Outgoing {
        var frame: SerialFrame
        var attempts: Int
        /// Unique per transmission (and per scheduled resend): a timer checks it, not the frame's bytes, so
        /// an earlier frame's ACK timeout never resends a later frame with the same bytes (two identical scene
        /// clicks in a row are two transmissions).
        var transmission = 0
    }
    var pendingOut: [SerialFrame] = []
    var awaitingAck: Outgoing?
    var transmissions = 0
    /// For each ACK timeout that expired, in order: how many transmissions there had been once it was dealt with
    /// (a timeout that resends counts one more).
    var expiredAckTimeoutsLog: [Int] = []
    /// Bumped on every plug/unplug; scheduled transaction steps of an older link are dropped.
    var linkEpoch = 0
    static let ackTimeout = 1.6
    static let maxAttempts = 4

    // Transactions: outputs are scheduled no earlier than the end of the previous transaction.
    var cursor = DispatchTime.now()
    var radioLatency: Duration
    /// `holdRadio`: the frame that starts the hold, whether it has, and the steps it keeps until `releaseRadio`.
    var holdPredicate: (@Sendable (HostFrameEvent) -> Bool)?
    var holding = false
    var heldSteps: [(delay: Double, action: @Sendable () -> Void)] = []

    // Network.
    var nodes: [UInt8: EmulatedNode] = [:]
    var joinDelays: [UInt8: Double] = [:]
    var controllerCommand: ControllerCommand = .idle
    var lastCommandCallback: UInt8 = 0
    var commandGeneration = 0
    /// Who hears whom on the radio (changed by `move`), and the stick's routing table: what it last learnt
    /// (from the description, then from each node's neighbour update). GET_ROUTING_INFO answers the latter.
    var radioNeighbors: [UInt8: Set<UInt8>] = [:]
    var routingTable: [UInt8: Set<UInt8>] = [:]
    /// Lossy links (`setLoss`): per node, the percentage of frames to it that get no ACK, drawn from `lossDraws`.
    var loss: [UInt8: Int] = [:]
    var lossDraws = SeededRandom(seed: 1)
    /// Whether the host enabled the extended transmit status report (SERIAL_API_SETUP, TX_STATUS_REPORT): then
    /// every SEND_DATA callback carries the route the frame took.
    var extendedTxStatus = false

    // Observation.
    var hostFrames: [HostFrameEvent] = []
    var hostFrameTotal = 0
    var waiters:
        [UUID: (
            predicate: @Sendable (HostFrameEvent) -> Bool, continuation: CheckedContinuation<HostFrameEvent?, Never>
        )] = [:]
    var streams: [UUID: AsyncStream<HostFrameEvent>.Continuation] = [:]
    var garbageBytes = 0

    var ticker: (any DispatchSourceTimer)?
    var lastTick = DispatchTime.now()

    enum ControllerCommand: Equatable {
        case idle
        case adding(callback: UInt8, node: UInt8?, protocolDone: Bool)
        case removing(callback: UInt8, node: UInt8?)
    }

    /// Creates the stick with `network`'s nodes. Nothing is opened until `start(link:)`.
    /// - Parameters:
    ///   - radioLatency: time per radio transaction (default 5 ms; `realisticRadioLatency` is 30 ms).
    ///   - trace: optional decoded trace of every frame, called on the emulator's queue.
    public init(
        network: NetworkDescription = .defaultNetwork, radioLatency: Duration = defaultRadioLatency,
        trace: (@Sendable (EmulatorTrace) -> Void)? = nil
    ) {
        self.network = network
        self.radioLatency = radioLatency
        self.trace = trace
        radioNeighbors = network.neighborTable
        routingTable = radioNeighbors
        for d in network.nodes {
            nodes[d.id] = Self.makeNode(d, included: d.kind != .joining)
            if d.kind == .joining, let delay = d.joinAfter, delay.isFinite {
                joinDelays[d.id] = min(max(delay, 0), 86_400)
            }
        }
    }

    /// A fresh node in its factory state.
    static func makeNode(_ d: NodeDescription, included: Bool) -> EmulatedNode {
        switch d.kind == .joining ? d.joinsAs : d.kind {
        case .fgd212: FibaroDimmer2Node(description: d, id: d.id, included: included)
        case .powernode6: PowerNode6Node(description: d, id: d.id, included: included)
        case .binarySwitch, .joining: BinarySwitchNode(description: d, id: d.id, included: included)
        case .multisensor6: MultiSensor6Node(description: d, id: d.id, included: included)
        case .fgdw002: DoorWindowSensorNode(description: d, id: d.id, included: included)
        case .fgr223: RollerShutterNode(description: d, id: d.id, included: included)
        case .spirit: RadiatorThermostatNode(description: d, id: d.id, included: included)
        case .wallmoteQuad: WallMoteQuadNode(description: d, id: d.id, included: included)
        case .danalock: DoorLockNode(description: d, id: d.id, included: included)
        }
    }

    deinit {
        ticker?.cancel()
        pty?.close()
    }

    /// Opens the pty, symlinks it at `link` and starts serving.
    /// - Throws: `PseudoTerminalError` if the pty or the link cannot be created.
    public func start(link: String) throws(PseudoTerminalError) {
        let terminal = try PseudoTerminal(link: link)
        queue.sync {
            self.link = link
            self.attach(terminal)
            if ticker == nil {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + 1, repeating: 1)
                timer.setEventHandler { [weak self] in self?.tick() }
                lastTick = .now()
                timer.resume()
                ticker = timer
            }
        }
    }

    /// Stops serving: closes the pty, removes the link, fails pending waits. Idempotent.
    public func stop() {
        queue.sync {
            ticker?.cancel()
            ticker = nil
            detach()
            for (_, w) in waiters { w.continuation.resume(returning: nil) }
            waiters.removeAll()
            for (_, s) in streams { s.finish() }
            streams.removeAll()
        }
    }

    // MARK: - Link (on queue)

    func attach(_ terminal: PseudoTerminal) {
        pty = terminal
        parser.reset()
        pendingOut.removeAll()
        awaitingAck = nil
        linkEpoch += 1
        cursor = .now()
        terminal.startReading { [weak self] bytes in
            guard let self else { return }
            // A frame reaches the stick when its bytes are read off the pty, not when the queue gets to them.
            let readAt = ContinuousClock.now
            self.queue.async { self.received(bytes, readAt: readAt) }
        }
        note("serving on \(terminal.slavePath)\(link.map { " (link \($0))" } ?? "")")
    }

    func detach() {
        pty?.close()
        pty = nil
        pendingOut.removeAll()
        awaitingAck = nil
        linkEpoch += 1
        controllerCommand = .idle
    }

    func note(_ text: String) {
        trace?(EmulatorTrace(direction: .note, frame: nil, text: text))
    }

    func writeRaw(_ bytes: [UInt8]) {
        guard let pty else { return }
        do {
            try pty.write(bytes)
        } catch {
            note("write failed: \(error)")
        }
    }

    private func received(_ bytes: [UInt8], readAt: ContinuousClock.Instant) {
        let now = DispatchTime.now()
        if parser.isInsideFrame, now.uptimeNanoseconds - lastByteTime.uptimeNanoseconds > 500_000_000 {
            parser.reset()  // the receiver's frame timeout
        }
        lastByteTime = now
        for token in parser.feed(bytes) {
            switch token {
            case .ack:
                if awaitingAck != nil {
                    awaitingAck = nil
                    pump()
                }
            case .nak, .can:
                if let out = awaitingAck {
                    retransmit(out, after: 0.1, reason: token == .nak ? "NAK" : "CAN")
                }
            case .badChecksum(let raw):
                note("bad checksum [\(hex(raw))], NAK")
                if answering { writeRaw([SerialFrame.nak]) }
            case .garbage:
                garbageBytes += 1
            case .frame(let frame):
                receivedFrame(frame, readAt: readAt)
            }
        }
    }

    private func receivedFrame(_ frame: SerialFrame, readAt: ContinuousClock.Instant) {
        let event = HostFrameEvent(index: hostFrameTotal, time: readAt, frame: frame)
        hostFrameTotal += 1
        hostFrames.append(event)
        if hostFrames.count > 20_000 { hostFrames.removeFirst(10_000) }
        trace?(EmulatorTrace(direction: .fromHost, frame: frame, text: answering ? "" : "(silent)"))
        for (id, w) in waiters where w.predicate(event) {
            waiters[id] = nil
            w.continuation.resume(returning: event)
        }
        for (_, s) in streams { s.yield(event) }
        if let hold = holdPredicate, hold(event) {
            holdPredicate = nil
            holding = true
        }
        guard answering else { return }
        if nakNext {
            nakNext = false
            note("NAK injected")
            writeRaw([SerialFrame.nak])
            return
        }
        if canNext {
            canNext = false
            note("CAN injected")
            writeRaw([SerialFrame.can])
            return
        }
        writeRaw([SerialFrame.ack])
        guard frame.kind == .request else { return }
        handleHostRequest(frame)
    }

    // MARK: - Output queue (on queue)

    /// Queues a data frame to the host; frames go out one at a time, each waiting for the host's ACK.
    func send(_ frame: SerialFrame) {
        pendingOut.append(frame)
        pump()
    }

    private func pump() {
        guard awaitingAck == nil, pty != nil, !pendingOut.isEmpty else { return }
        let frame = pendingOut.removeFirst()
        transmit(Outgoing(frame: frame, attempts: 1))
    }

    /// Makes `out` the frame awaiting the host's ACK, under a new transmission number; returns the number.
    private func awaitAck(_ out: Outgoing) -> Int {
        transmissions += 1
        var current = out
        current.transmission = transmissions
        awaitingAck = current
        return transmissions
    }

    private func transmit(_ out: Outgoing) {
        let transmission = awaitAck(out)
        trace?(
            EmulatorTrace(
                direction: .toHost, frame: out.frame, text: out.attempts > 1 ? "(attempt \(out.attempts))" : ""))
        writeRaw(out.frame.encoded)
        queue.asyncAfter(deadline: .now() + Self.ackTimeout) { [weak self] in
            guard let self else { return }
            defer { self.expiredAckTimeoutsLog.append(self.transmissions) }
            guard let current = self.awaitingAck, current.transmission == transmission else { return }
            self.retransmit(current, after: 0, reason: "no ACK")
        }
    }

    private func retransmit(_ out: Outgoing, after delay: Double, reason: String) {
        guard out.attempts < Self.maxAttempts else {
            note("dropping \(out.frame) after \(out.attempts) attempts (\(reason))")
            awaitingAck = nil
            pump()
            return
        }
        var next = out
        next.attempts += 1
        let pending = awaitAck(next)  // blocks the queue until the resend
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, let current = self.awaitingAck, current.transmission == pending else { return }
            self.transmit(current)
        }
    }

    // MARK: - Transaction timing (on queue)

    var latencySeconds: Double {
        let c = radioLatency.components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }

    /// Schedules `action` `delay` seconds after the later of now and the end of the previous transaction,
    /// and moves the end of the transaction there, so outputs keep their order across transactions.
    func afterRadio(_ delay: Double, _ action: @escaping @Sendable () -> Void) {
        if holding {
            heldSteps.append((delay, action))
            return
        }
        let now = DispatchTime.now()
        let base = cursor > now ? cursor : now
        let at = base + delay
        cursor = at
        let epoch = linkEpoch
        queue.asyncAfter(deadline: at) { [weak self] in
            guard let self, self.linkEpoch == epoch, self.pty != nil else { return }
            action()
        }
    }

    private func tick() {
        let now = DispatchTime.now()
        let scale = network.timeScale.isFinite && network.timeScale > 0 ? network.timeScale : 1
        let real = Double(now.uptimeNanoseconds &- lastTick.uptimeNanoseconds) / 1e9
        lastTick = now
        for id in nodes.keys.sorted() {
            guard let node = nodes[id], node.included else { continue }
            let reports = node.advance(emulated: real * scale, real: real)
            if !reports.isEmpty { sendUnsolicited(reports, from: id) }
        }
    }
}
