/// A snapshot of the emulated bus and adapter.
public struct CECEmulatorState: Sendable, Equatable {
    /// Whether the TV is on.
    public var tvPoweredOn: Bool
    /// The physical address the TV shows (`0x1000` is 1.0.0.0).
    public var tvInput: UInt16
    /// The audio system's volume 0-100 and mute.
    public var volume: Int
    public var muted: Bool
    /// Whether the audio system is in system audio mode.
    public var systemAudioMode: Bool
    /// Whether the audio system and the playback device are switched on.
    public var audioSystemPoweredOn: Bool
    public var playbackPoweredOn: Bool
    /// The adapter's ACK mask as the host set it (bit n = LA n).
    public var ackMask: UInt16
    /// Whether the host put the adapter in controlled mode.
    public var controlled: Bool
    /// Whether the adapter is plugged in (the pty exists).
    public var pluggedIn: Bool
}
