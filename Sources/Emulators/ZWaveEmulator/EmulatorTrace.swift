/// One decoded line of the emulator's optional trace.
public struct EmulatorTrace: Sendable, CustomStringConvertible {
    /// Which way the frame went, or a note from the emulator.
    public enum Direction: String, Sendable {
        case fromHost = "host->stick"
        case toHost = "stick->host"
        case note = "note"
    }

    public var direction: Direction
    /// The frame, nil for notes.
    public var frame: SerialFrame?
    /// A note, or a remark on the frame (retransmission attempt, silent mode).
    public var text: String

    /// Node and command class a SEND_DATA / APPLICATION_COMMAND_HANDLER frame concerns.
    public var node: UInt8? {
        guard let f = frame else { return nil }
        switch f.function {
        case SerialFunction.sendData, SerialFunction.getNodeProtocolInfo, SerialFunction.requestNodeInfo:
            return f.kind == .request ? f.payload.first : nil
        case SerialFunction.applicationCommandHandler:
            return f.payload.count > 1 ? f.payload[1] : nil
        default:
            return nil
        }
    }

    /// The command class a SEND_DATA / APPLICATION_COMMAND_HANDLER frame carries.
    public var commandClass: UInt8? {
        guard let f = frame, f.kind == .request else { return nil }
        switch f.function {
        case SerialFunction.sendData where f.payload.count > 2 && f.payload[1] > 0: return f.payload[2]
        case SerialFunction.applicationCommandHandler where f.payload.count > 3: return f.payload[3]
        default: return nil
        }
    }

    public var description: String {
        guard let f = frame else { return "\(direction.rawValue) \(text)" }
        var s = "\(direction.rawValue) \(f.kind == .request ? "REQ" : "RES") \(SerialFunction.name(f.function))"
        if let node { s += " node \(node)" }
        if let commandClass { s += " cc \(hex([commandClass]))" }
        s += " [\(hex(f.payload))]"
        if !text.isEmpty { s += " \(text)" }
        return s
    }
}
