/// Splits the host's byte stream into adapter messages, tolerantly.
///
/// Besides the documented framing (start 0xFF, end 0xFE, escape 0xFD) it copes with libcec's quirk of
/// writing the CEC header and opcode bytes of a TRANSMIT / TRANSMIT_EOM packet unescaped: in such a
/// packet the first byte after the code is taken literally, even if it is 0xFD-0xFF (an escape followed by
/// 0xFA-0xFC is still read as an escape). Garbage outside a message is dropped; a message that is never
/// ended is dropped when the next 0xFF starts one (except as described above); oversized messages are dropped.
public struct AdapterFrameDecoder: Sendable {
    private enum State: Sendable {
        case idle
        case code
        case body
    }

    private var state: State = .idle
    private var codeByte: UInt8 = 0
    private var payload: [UInt8] = []
    private var escaped = false
    /// Bytes dropped because they did not belong to a well-formed message.
    public private(set) var droppedBytes = 0
    /// No message of this protocol is longer than this; longer ones are garbage.
    public static let maximumPayload = 64

    public init() {}

    /// Feeds bytes; returns every message completed by them.
    public mutating func feed(_ bytes: [UInt8]) -> [AdapterMessage] {
        var out: [AdapterMessage] = []
        for byte in bytes {
            if let message = consume(byte) { out.append(message) }
        }
        return out
    }

    private var isTransmitPacket: Bool {
        let code = codeByte & 0x3F
        return code == AdapterCode.transmit.rawValue || code == AdapterCode.transmitEOM.rawValue
    }

    private mutating func consume(_ byte: UInt8) -> AdapterMessage? {
        switch state {
        case .idle:
            if byte == AdapterMessage.start { state = .code } else { droppedBytes += 1 }
            return nil
        case .code:
            switch byte {
            case AdapterMessage.start:
                droppedBytes += 1
            case AdapterMessage.end:
                droppedBytes += 2
                state = .idle
            case AdapterMessage.escape:
                // Codes are never escaped in practice; treat as garbage.
                droppedBytes += 2
                state = .idle
            default:
                codeByte = byte
                payload = []
                escaped = false
                state = .body
            }
            return nil
        case .body:
            return consumeBody(byte)
        }
    }

    private mutating func consumeBody(_ byte: UInt8) -> AdapterMessage? {
        let literalSlot = isTransmitPacket && payload.isEmpty
        if escaped {
            escaped = false
            if byte >= 0xFA && byte <= 0xFC {
                payload.append(byte &+ AdapterMessage.escapeOffset)
                return nil
            }
            if literalSlot && byte == AdapterMessage.end {
                // An unescaped 0xFD header/opcode followed by the end of the packet.
                payload.append(AdapterMessage.escape)
                return finish()
            }
            // A broken escape: drop the message.
            droppedBytes += payload.count + 3
            state = byte == AdapterMessage.start ? .code : .idle
            return nil
        }
        switch byte {
        case AdapterMessage.escape:
            escaped = true
            return nil
        case AdapterMessage.start, AdapterMessage.end:
            if literalSlot {
                payload.append(byte)
                return nil
            }
            if byte == AdapterMessage.end { return finish() }
            droppedBytes += payload.count + 2
            state = .code
            return nil
        default:
            payload.append(byte)
            if payload.count > AdapterFrameDecoder.maximumPayload {
                droppedBytes += payload.count + 2
                state = .idle
            }
            return nil
        }
    }

    private mutating func finish() -> AdapterMessage? {
        state = .idle
        let message = AdapterMessage(codeByte: codeByte, payload: payload)
        payload = []
        return message
    }
}
