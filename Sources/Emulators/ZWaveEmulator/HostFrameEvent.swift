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

    /// For SEND_DATA: the command bytes without Multi Channel encapsulation (Command Encapsulation, 0x60 0x0D).
    public var innerCommand: [UInt8]? {
        guard let command else { return nil }
        if command.count >= 4, command[0] == 0x60, command[1] == 0x0D { return Array(command[4...]) }
        return command
    }

    /// The level of a Switch Multilevel Set in this SEND_DATA frame to `node` (plain or Multi Channel
    /// encapsulated), else nil.
    public func multilevelSetLevel(node: UInt8) -> UInt8? {
        guard destinationNode == node, let inner = innerCommand, inner.count >= 3, inner[0] == 0x26, inner[1] == 0x01
        else { return nil }
        return inner[2]
    }

    /// Whether this is a SEND_DATA frame (to `node`, or to any node) carrying `commandClass`'s command `command`
    /// (plain or Multi Channel encapsulated), e.g. Meter Get: 0x32, 0x01.
    public func carries(_ commandClass: UInt8, _ command: UInt8, to node: UInt8? = nil) -> Bool {
        guard let destination = destinationNode, node == nil || destination == node, let inner = innerCommand,
            inner.count >= 2
        else { return false }
        return inner[0] == commandClass && inner[1] == command
    }

    /// Whether this is a SEND_DATA frame to `node`.
    public func isSendData(to node: UInt8) -> Bool { destinationNode == node }

    public var description: String { "#\(index) \(frame)" }
}
