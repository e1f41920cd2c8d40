internal import Logging

/// The MQTT → hardware flow: message on a `/set` topic → topic parser → typed device command →
/// per-device command queue (coalescing, one in flight per device) → backend → library call.
extension Bridge {
    /// Handles one inbound MQTT message (its topic parsed here). Never throws: every refusal becomes a
    /// `command_rejected` event, or for a bridge request its error response.
    public func receive(_ message: InboundMessage) async {
        await receive(message, topic: identity.topics.route(message.topic))
    }

    /// Handles one inbound message whose topic `run(inbound:hardware:)` parsed already.
    func receive(_ message: InboundMessage, topic: Result<TopicScheme.Inbound, TopicScheme.ParseError>) async {
        let inbound: TopicScheme.Inbound
        switch topic {
        case .success(let parsed): inbound = parsed
        case .failure(let error):
            guard answers(for: error.device, topic: message.topic) else { return }
            return await reject(message, reason: error.description)
        }
        let address: DeviceAddress
        switch inbound {
        case .bridgeRequest(let verb):
            // A request always gets its one response: also when it is retained, too large or malformed.
            return await handleRequest(verb: verb, message: message)
        case .bridgeState, .deviceAvailability:
            _ = peers.note(topic, payload: message.payload)
            return
        case .deviceSet(let a), .deviceGet(let a), .volumeSet(let a), .muteSet(let a), .inputSet(let a),
            .setpointSet(let a), .modeSet(let a):
            address = a
        }
        guard answers(for: address, topic: message.topic) else { return }
        if message.retained {
            return await reject(message, reason: "retained command ignored: commands must not be retained")
        }
        if let size = message.oversize {
            return await reject(message, reason: "payload too large (\(size) bytes); it was not read")
        }
        guard let device = states.registry.device(at: address) else {
            return await reject(message, reason: "unknown device \(address): no bridge on this broker serves it")
        }
        let command: DeviceCommand
        do {
            command = try PayloadParser.command(for: inbound, payload: message.payload, device: device)
        } catch {
            return await reject(message, reason: error.reason)
        }
        if let refusal = admit(command, to: device) { await reject(message, reason: refusal.reason) }
    }

    /// The typed entry of device commands, for the front ends that build commands themselves (a dashboard's `set`,
    /// a HomeKit write); an MQTT message takes the same path once ``receive(_:)`` parsed it. One check (the device
    /// is this bridge's, the command fits it, its adapter is online), one queue, one coalescing for every origin.
    /// - Returns: nil when the command was queued; else why not, which is also published as `command_rejected`
    ///   (with the topic and payload that carry the command over MQTT) and logged with `origin`.
    @discardableResult
    public func submit(_ command: DeviceCommand, to address: DeviceAddress, from origin: CommandOrigin) async
        -> CommandRefusal?
    {
        let refusal: CommandRefusal?
        if let device = states.registry.device(at: address) {
            refusal = command.refusal(for: device) ?? admit(command, to: device)
        } else {
            refusal = CommandRefusal("unknown device \(address): this bridge (\(identity.name)) does not serve it")
        }
        if let refusal {
            let wire = command.wire(identity.topics.device(address))
            let message = InboundMessage(topic: wire.topic, payload: Array(wire.payload.utf8), retained: false)
            await reject(message, reason: refusal.reason, origin: origin)
        }
        return refusal
    }

    /// Refuses a device command a front end received but could not make a command of (a dashboard's `set` whose
    /// payload does not parse): published as `command_rejected`, like the same message over MQTT.
    public func refuse(_ message: InboundMessage, reason: String, from origin: CommandOrigin) async {
        await reject(message, reason: reason, origin: origin)
    }

    /// Counts `command` received for `device` and queues it; nil when queued, else why not (no or an offline
    /// adapter). The device was idle: the command is handed to `drain` at once.
    func admit(_ command: DeviceCommand, to device: DeviceDescriptor) -> CommandRefusal? {
        pipeline.noteReceived()
        if let refusal = pipeline.refusal(for: device, adapterOnline: states.isOnline(device.source.adapter)) {
            return CommandRefusal(refusal)
        }
        if case .start(let first) = pipeline.submit(command, for: device) {
            readyContinuation.yield(ReadyCommand(address: device.address, command: first))
        }
        return nil
    }

    /// Whether this bridge answers for a message on `topic` that is not a request, about `device` (the device its
    /// topic is under, as the topic's one parse found it; nil for another topic): always for its own devices; never
    /// for another bridge's; for anything else only if it reports what no bridge serves (``PeerTracker``).
    func answers(for device: DeviceAddress?, topic: String) -> Bool {
        let verdict = peers.verdict(for: device, isOwn: device.flatMap { states.registry.device(at: $0) } != nil)
        switch verdict {
        case .peer: logger.debug("another bridge's device", metadata: ["topic": "\(topic.prefix(200))"])
        case .unservedReportedElsewhere:
            logger.debug("served by no bridge; reported by another", metadata: ["topic": "\(topic.prefix(200))"])
        case .own, .unservedReportedHere: break
        }
        return verdict.answers
    }

    /// Executes the first command of a device that was idle, then the commands that queued behind it, one at a time,
    /// until its queue is empty.
    func drain(_ first: ReadyCommand) async {
        var command: DeviceCommand? = first.command
        while let next = command {
            await execute(next, at: first.address)
            command = pipeline.next(for: first.address)
        }
    }

    func execute(_ command: DeviceCommand, at address: DeviceAddress) async {
        guard let device = states.registry.device(at: address),
            let backend = pipeline.backend(for: device.source.adapter)
        else { return }
        let state = states.registry.state(of: address)
        guard let resolved = CommandPipeline.resolve(command, kind: device.kind, state: state) else {
            return executed(command, at: address)
        }
        // The bridge stops (`run` was cancelled): a command still in the device's queue is not sent blind, with
        // nobody left to publish its result; it fails, and the failure is published before the bridge goes offline.
        if Task.isCancelled { return await failed(resolved, at: address, .bridgeStopping) }
        let since = ContinuousClock.now
        do {
            try await backend.execute(resolved, on: device)
            executed(resolved, at: address, since: since)
        } catch {
            await failed(resolved, at: address, error, since: since)
        }
    }

    /// `since`: when the command was handed to the backend (nil: nothing was sent).
    func executed(_ resolved: DeviceCommand, at address: DeviceAddress, since: ContinuousClock.Instant? = nil) {
        pipeline.noteExecuted()
        logger.debug("executed", metadata: ["device": "\(address)", "command": "\(resolved)"])
        if let since { report(resolved, at: address, since: since, failure: nil) }
    }

    func failed(
        _ resolved: DeviceCommand, at address: DeviceAddress, _ error: CommandFailure,
        since: ContinuousClock.Instant? = nil
    ) async {
        pipeline.noteRejected()
        if let since { report(resolved, at: address, since: since, failure: error.reason) }
        await publish(event: .commandFailed(device: address, command: resolved.description, reason: error.reason))
    }

    /// Tells the front ends how a command that was sent went.
    func report(_ command: DeviceCommand, at address: DeviceAddress, since: ContinuousClock.Instant, failure: String?) {
        guard !frontEnds.isEmpty, let device = states.registry.device(at: address) else { return }
        let report = CommandReport(
            device: address, adapter: device.source.adapter, command: command, duration: ContinuousClock.now - since,
            failure: failure)
        for frontEnd in frontEnds { frontEnd.commandFinished(report) }
    }

    func reject(_ message: InboundMessage, reason: String, origin: CommandOrigin = .mqtt) async {
        pipeline.noteRejected()
        logger.warning(
            "command rejected", metadata: ["topic": "\(message.topic)", "reason": "\(reason)", "origin": "\(origin)"])
        await publish(event: .commandRejected(topic: message.topic, payload: message.payload, reason: reason))
    }
}
