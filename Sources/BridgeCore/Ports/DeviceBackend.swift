/// The hardware side of one adapter (Z-Wave or CEC) as the bridge sees it. The drivers' adapters
/// implement it; tests use fakes.
public protocol DeviceBackend: Sendable {
    /// Which adapter this is.
    var adapter: Adapter { get }
    /// Executes one resolved command (`on`/`off`/`level`/`volume`/`mute`/`input`/`refresh`; never
    /// `toggle`, which the bridge resolves from the current state). Returns when the hardware library
    /// accepted the command; state changes come back as `HardwareEvent`s.
    func execute(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
    /// The fast path for the first command of an idle device, taken on the task that read it from MQTT
    /// (one thread hand-off fewer than `execute` on the device's queue): hands a command the library takes
    /// at once (a Z-Wave Set, queued by OpenZWave) to the library and returns what is left of it, the
    /// wait for the device's report, which the device's queue then awaits. Returns `nil`, having done
    /// nothing, for a command that takes the normal path. Must not wait for the device: the next MQTT
    /// command waits for this call.
    func send(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
        -> CommandConfirmation?
}

extension DeviceBackend {
    /// By default every command takes the normal path (`execute`).
    public func send(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
        -> CommandConfirmation?
    {
        nil
    }
}

/// The rest of a command sent by `DeviceBackend.send`: waits for the device's confirmation (or its timeout).
public struct CommandConfirmation: Sendable {
    public let wait: @Sendable () async -> Void
    public init(_ wait: @escaping @Sendable () async -> Void) { self.wait = wait }
}

/// Why the hardware did not take a command.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }

    /// The bridge stops before the command reached the hardware library: it is not sent (a backend that holds
    /// commands, e.g. Z-Wave during inclusion, fails them with this when its task is cancelled).
    public static let bridgeStopping = CommandFailure("bridge stopping")
}
