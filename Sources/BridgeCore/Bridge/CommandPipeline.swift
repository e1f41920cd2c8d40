/// The MQTT → hardware pipeline's state: the per-device command queue (coalescing, one command in flight per
/// device), the backend of each adapter, and the command counters. `Bridge` submits the commands it parsed and
/// runs each device's queue (`Bridge.drain`); state and adapter availability come from the state publisher, passed
/// in as arguments.
struct CommandPipeline: Sendable {
    private var queue = CoalescingQueue<DeviceAddress, CommandChannel, DeviceCommand>()
    private let backends: [Adapter: any DeviceBackend]
    private(set) var counts = Counts()

    struct Counts: Sendable {
        var received = 0
        var executed = 0
        var rejected = 0
    }

    init(backends: [any DeviceBackend]) {
        var byAdapter: [Adapter: any DeviceBackend] = [:]
        for backend in backends { byAdapter[backend.adapter] = backend }
        self.backends = byAdapter
    }

    /// The adapters a backend is configured for.
    var adapters: Set<Adapter> { Set(backends.keys) }

    /// The backend of `adapter`, if one is configured.
    func backend(for adapter: Adapter) -> (any DeviceBackend)? { backends[adapter] }

    /// Why a command for `device` cannot be accepted now (`adapterOnline`: whether its adapter is online), or nil.
    func refusal(for device: DeviceDescriptor, adapterOnline: Bool) -> String? {
        guard backends[device.source.adapter] != nil else {
            return "no \(device.source.adapter) adapter is configured on this bridge"
        }
        return adapterOnline ? nil : "the \(device.source.adapter) adapter is offline"
    }

    /// What became of a submitted command.
    enum Submission: Equatable {
        /// The device was idle: its queue is now busy with this command, which the caller runs (`Bridge.drain`).
        case start(DeviceCommand)
        /// The device is busy: the command waits behind the one in flight (replacing an older one of its channel).
        case queued
        /// Nothing to do: a dimmer's `on` right behind a level that switches it on already.
        case absorbed
    }

    /// Adds a parsed, accepted command for `device`.
    mutating func submit(_ command: DeviceCommand, for device: DeviceDescriptor) -> Submission {
        let address = device.address
        if command == .on, device.kind == .dimmer,
            case .level(let level)? = queue.waiting(for: address, channel: command.channel), level > 0
        {
            // A level makes the dimmer on already: an `on` right behind it (Home Assistant sends a brightness,
            // then `on`) must not replace it with the last level.
            return .absorbed
        }
        return queue.submit(command, for: address, channel: command.channel).map { .start($0) } ?? .queued
    }

    /// Marks the command in flight for `address` finished: the next waiting one, which runs now, or nil when the
    /// device's queue is empty (it is idle again).
    mutating func next(for address: DeviceAddress) -> DeviceCommand? {
        queue.complete(address)
    }

    mutating func noteReceived() { counts.received += 1 }
    mutating func noteExecuted() { counts.executed += 1 }
    mutating func noteRejected() { counts.rejected += 1 }

    /// Turns `toggle` and a dimmer's `on` into concrete commands from `state`, the device's state at the moment the
    /// command is sent (so a toggle acts on the latest state); nil when there is nothing to send (`on` for a dimmer
    /// that is on keeps its level).
    static func resolve(_ command: DeviceCommand, kind: DeviceKind, state: DeviceState) -> DeviceCommand? {
        switch (command, kind) {
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
}
