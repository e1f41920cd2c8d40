/// A frame the host transmitted through the emulated adapter, with when it completed and what the
/// adapter answered.
public struct TransmittedFrame: Sendable, CustomStringConvertible {
    /// The frame as sent.
    public let frame: BusFrame
    /// When the last packet (TRANSMIT_EOM) arrived.
    public let time: ContinuousClock.Instant
    /// Whether the adapter answered TRANSMIT_SUCCEEDED (else TRANSMIT_FAILED_ACK).
    public let acknowledged: Bool
    /// Its position in the emulator's record (0-based).
    public let index: Int

    public var description: String { "\(frame) \(acknowledged ? "ack" : "nack")" }
}
