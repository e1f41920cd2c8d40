import FoundationEssentials

/// A data frame the host (OpenZWave) sent to the emulated stick, with its arrival time.
public struct HostFrameEvent: Sendable, CustomStringConvertible {
    /// Sequence number since the emulator was created (0-based).
    public var index: Int
    /// Monotonic arrival time: when the read that completed the frame returned from the pty.
    public var time: ContinuousClock.Instant
    public var frame: SerialFrame

    /// For SEND_DATA: the destination node.
    public var destinationNode: UInt8? {
        frame.function == SerialFunction.sendData ? frame.payload.first : nil
    }

    /// For SEND_DATA: the command bytes (CC first), Multi Channel encapsulation included.
    public var command: [UInt8]? {
        guard frame.function == SerialFunction.sendData, frame.payload.count >= 2 else { return nil }
        let length = Int(frame.payload[1])
        guard frame.payload.count >= 2 + length else { return nil }
        return Array(frame.payload[2..<(2 + length)])
    }

    public var description: String { "#\(index) \(frame)" }
}
