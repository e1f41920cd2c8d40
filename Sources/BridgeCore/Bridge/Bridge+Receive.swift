internal import Logging

/// The MQTT → hardware flow: message on a `/set` topic → topic parser → typed device command →
/// per-device command queue (coalescing, one in flight per device) → backend → library call.
extension Bridge {
    /// Handles one inbound MQTT message (its topic parsed here). Never throws: every refusal becomes a
    /// `command_rejected` event, or for a bridge request its error response.
    public func receive(_ message: InboundMessage) async {
        await receive(message, topic: identity.topics.route(message.topic))
    }

    /// Handles one inbound message whose topic `run(inbound:hardware:inboundExecutor:)` parsed already.
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
        case .bridgeState(let bridge):
            return noteBridgeState(bridge, payload: message.payload)
        case .deviceAvailability(let device):
            return noteAvailability(of: device, payload: message.payload)
        case .deviceSet(let a), .deviceGet(let a), .volumeSet(let a), .muteSet(let a), .inputSet(let a):
            address = a
        }
        guard answers(for: address, topic: message.topic) else { return }
        if message.retained {
            return await reject(message, reason: "retained command ignored: commands must not be retained")
        }
        if let size = message.oversize {
            return await reject(message, reason: "payload too large (\(size) bytes); it was not read")
        }
        guard let device = registry.device(at: address) else {
            return await reject(message, reason: "unknown device \(address): no bridge on this broker serves it")
        }
        let command: DeviceCommand
        do {
            command = try parseCommand(inbound, payload: message.payload, device: device)
        } catch {
            return await reject(message, reason: error.reason)
        }
        stats.commandsReceived += 1
        if let refusal = refusal(for: device) {
            return await reject(message, reason: refusal)
        }
        if command == .on, device.kind == .dimmer,
            case .level(let level)? = queue.waiting(for: address, channel: command.channel), level > 0
        {
            // A level makes the dimmer on already: an `on` right behind it (Home Assistant sends a brightness,
            // then `on`) must not replace it with the last level.
            return
        }
        if let first = queue.submit(command, for: address, channel: command.channel) {
            // The device was idle: its queue now holds it busy, so this await cannot reorder its commands.
            pendingFirst[address] = await start(first, at: address)
            readyContinuation.yield(address)
        }
    }

    func parseCommand(_ inbound: TopicScheme.Inbound, payload: [UInt8], device: DeviceDescriptor) throws(PayloadError)
        -> DeviceCommand
    {
        switch inbound {
        case .deviceSet: return try PayloadParser.deviceCommand(payload, kind: device.kind)
        case .deviceGet, .bridgeRequest, .bridgeState, .deviceAvailability: return .refresh
        case .volumeSet, .muteSet, .inputSet:
            guard device.kind == .tv else {
                throw PayloadError("a \(device.kind.rawValue) has no volume, mute or input")
            }
            switch inbound {
            case .volumeSet: return .volume(try PayloadParser.volumeCommand(payload))
            case .muteSet: return .mute(try PayloadParser.muteCommand(payload))
            default:
                let input = try PayloadParser.inputCommand(payload, inputs: device.inputs)
                return .input(name: input.name, address: input.address)
            }
        }
    }

    /// Why a command for `device` cannot be accepted now, or `nil`.
    func refusal(for device: DeviceDescriptor) -> String? {
        guard backends[device.source.adapter] != nil else {
            return "no \(device.source.adapter) adapter is configured on this bridge"
        }
        if adapterOnline[device.source.adapter] != true {
            return "the \(device.source.adapter) adapter is offline"
        }
        return nil
    }

    /// Executes the commands of one device, one at a time, until its queue is empty.
    func drain(_ address: DeviceAddress) async {
        guard let first = pendingFirst.removeValue(forKey: address) else { return }
        switch first {
        case .execute(let command):
            await execute(command, at: address)
        case .confirm(let resolved, let confirmation, let since):
            await confirmation.wait()
            executed(resolved, at: address, since: since)
        case .finished:
            break
        }
        while let command = queue.complete(address) {
            await execute(command, at: address)
        }
    }

    /// Sends the first command of an idle device at once if its backend can (`DeviceBackend.send`);
    /// otherwise leaves it to `drain`.
    func start(_ command: DeviceCommand, at address: DeviceAddress) async -> DrainStart {
        guard let device = registry.device(at: address), let backend = backends[device.source.adapter] else {
            return .finished
        }
        guard let resolved = resolve(command, for: device) else {
            executed(command, at: address)
            return .finished
        }
        let since = ContinuousClock.now
        do {
            guard let confirmation = try await backend.send(resolved, on: device) else { return .execute(command) }
            return .confirm(resolved, confirmation, since: since)
        } catch {
            await failed(resolved, at: address, error, since: since)
            return .finished
        }
    }

    func execute(_ command: DeviceCommand, at address: DeviceAddress) async {
        guard let device = registry.device(at: address), let backend = backends[device.source.adapter] else { return }
        guard let resolved = resolve(command, for: device) else { return executed(command, at: address) }
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
        stats.commandsExecuted += 1
        logger.debug("executed", metadata: ["device": "\(address)", "command": "\(resolved)"])
        if let since { report(resolved, at: address, since: since, failure: nil) }
    }

    func failed(
        _ resolved: DeviceCommand, at address: DeviceAddress, _ error: CommandFailure,
        since: ContinuousClock.Instant? = nil
    ) async {
        stats.commandsRejected += 1
        if let since { report(resolved, at: address, since: since, failure: error.reason) }
        await publish(event: .commandFailed(device: address, command: resolved.description, reason: error.reason))
    }

    /// Tells the front ends how a command that was sent went.
    func report(_ command: DeviceCommand, at address: DeviceAddress, since: ContinuousClock.Instant, failure: String?) {
        guard !frontEnds.isEmpty, let device = registry.device(at: address) else { return }
        let report = CommandReport(
            device: address, adapter: device.source.adapter, command: command, duration: ContinuousClock.now - since,
            failure: failure)
        for frontEnd in frontEnds { frontEnd.commandFinished(report) }
    }

    /// Turns `toggle` and a dimmer's `on` into concrete commands from the current state, at the moment
    /// the command is sent (so a toggle acts on the latest state); nil when there is nothing to send (`on`
    /// for a dimmer that is on keeps its level).
    func resolve(_ command: DeviceCommand, for device: DeviceDescriptor) -> DeviceCommand? {
        let state = registry.state(of: device.address)
        switch (command, device.kind) {
        case (.toggle, .dimmer):
            return (state.level ?? 0) > 0 ? .level(0) : .level(state.lastOnLevel ?? 99)
        case (.toggle, _):
            return state.isOn == true ? .off : .on
        case (.on, .dimmer):
            return (state.level ?? 0) > 0 ? nil : .level(state.lastOnLevel ?? 99)
        case (.off, .dimmer):
            return .level(0)
        case (.mute(.toggle), _):
            return .mute(state.muted == true ? .off : .on)
        default:
            return command
        }
    }

    func reject(_ message: InboundMessage, reason: String) async {
        stats.commandsRejected += 1
        logger.warning("command rejected", metadata: ["topic": "\(message.topic)", "reason": "\(reason)"])
        await publish(event: .commandRejected(topic: message.topic, payload: message.payload, reason: reason))
    }
}
