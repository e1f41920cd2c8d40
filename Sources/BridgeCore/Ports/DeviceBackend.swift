/// The hardware side of one adapter (Z-Wave or CEC) as the bridge sees it. The drivers' adapters
/// implement it; tests use fakes.
public protocol DeviceBackend: Sendable {
    /// Which adapter this is.
    var adapter: Adapter { get }
    /// Executes one resolved command (`on`/`off`/`level`/`volume`/`mute`/`input`/`refresh`; never
    /// `toggle`, which the bridge resolves from the current state). Returns when the hardware library
    /// accepted the command; state changes come back as `HardwareEvent`s.
    func execute(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
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
