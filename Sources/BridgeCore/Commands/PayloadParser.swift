internal import SystemSupport

/// Parses MQTT command payloads into `DeviceCommand`s: one function per kind of topic, each throwing a
/// `PayloadError` whose text is the reason published in the `command_rejected` event.
///
/// Payloads are plain text, case-insensitive, surrounding white space ignored. They are checked for size
/// before anything else, so an oversized payload is never decoded.
public enum PayloadParser {
    /// The longest command payload accepted (`toggle`, `standby`, an input name or `a.b.c.d` are short).
    public static let maximumLength = 64

    /// `<device>/set` for a device of `kind`.
    public static func deviceCommand(_ payload: [UInt8], kind: DeviceKind) throws(PayloadError) -> DeviceCommand {
        let word = try text(payload)
        switch (kind, word) {
        case (.sensor, _):
            throw PayloadError("a sensor takes no commands; its readings are on <device>/<sensor>")
        case (.buttons, _):
            throw PayloadError("buttons take no commands; their actions are on <device>/button/<n>")
        case (.cover, _):
            return try coverCommand(word)
        case (.lock, "lock"): return .setLocked(true)
        case (.lock, "unlock"): return .setLocked(false)
        case (.lock, _):
            throw PayloadError("unknown command \"\(printable(word))\"; \(lockCommands)")
        case (.thermostat, _):
            return try thermostatMode(word, traits: nil)
        case (_, "on"): return .on
        case (_, "off"): return .off
        case (_, "toggle"): return .toggle
        case (.tv, "standby"): return .off
        case (.dimmer, _):
            guard let level = Int(word) else {
                throw PayloadError(
                    "unknown command \"\(printable(word))\"; a dimmer takes on, off, toggle or a level 0..99")
            }
            guard (0...100).contains(level) else {
                throw PayloadError("level \(level) is out of range; a dimmer takes 0..99 (100 means 99)")
            }
            return .level(min(level, 99))
        case (.tv, _):
            throw PayloadError("unknown command \"\(printable(word))\"; a TV takes on, off, standby or toggle")
        case (.binarySwitch, _), (.socket, _):
            throw PayloadError("unknown command \"\(printable(word))\"; a \(kind.rawValue) takes on, off or toggle")
        }
    }

    /// What a lock's `/set` takes, as the reason for a payload it does not.
    static let lockCommands = "a lock takes lock or unlock"

    /// What a cover's `/set` takes, as the reason for a payload it does not.
    static let coverCommands = "a cover takes open, close, stop or a position 0..100 (% open)"

    /// A cover's `/set` (`word` decoded already): `open` (level 99), `close` (0), `stop`, or a position `0`..`100`
    /// in % open (``ZWaveCoverMapping/level(position:)``).
    static func coverCommand(_ word: String) throws(PayloadError) -> DeviceCommand {
        switch word {
        case "open": return .level(99)
        case "close": return .level(0)
        case "stop": return .stop
        default:
            guard let position = Int(word) else {
                throw PayloadError("unknown command \"\(printable(word))\"; \(coverCommands)")
            }
            guard (0...100).contains(position) else {
                throw PayloadError("position \(position) is out of range; \(coverCommands)")
            }
            return .level(ZWaveCoverMapping.level(position: position))
        }
    }

    /// `<device>/volume/set`: `up`, `down` or `0`..`100`.
    public static func volumeCommand(_ payload: [UInt8]) throws(PayloadError) -> VolumeCommand {
        let word = try text(payload)
        switch word {
        case "up": return .up
        case "down": return .down
        default:
            guard let level = Int(word) else {
                throw PayloadError("unknown volume command \"\(printable(word))\"; expected up, down or 0..100")
            }
            guard (0...100).contains(level) else {
                throw PayloadError("volume \(level) is out of range 0..100")
            }
            return .level(level)
        }
    }

    /// `<device>/mute/set`: `on`, `off` or `toggle`.
    public static func muteCommand(_ payload: [UInt8]) throws(PayloadError) -> SwitchCommand {
        let word = try text(payload)
        guard let command = SwitchCommand(rawValue: word) else {
            throw PayloadError("unknown mute command \"\(printable(word))\"; expected on, off or toggle")
        }
        return command
    }

    /// `<device>/input/set`: an input name from `inputs` (case-insensitive) or a physical address `a.b.c.d`.
    /// Returns the name (if one matched or the address is named) and the address.
    public static func inputCommand(
        _ payload: [UInt8], inputs: [String: String]
    ) throws(PayloadError) -> (name: String?, address: String) {
        let word = try text(payload)
        if let match = inputs.first(where: { $0.key.lowercased() == word }) {
            return (match.key, match.value)
        }
        if isPhysicalAddress(word) {
            return (inputs.first(where: { $0.value == word })?.key, word)
        }
        let known = inputs.keys.sorted().joined(separator: ", ")
        throw PayloadError(
            "unknown input \"\(printable(word))\"; known inputs: \(known.isEmpty ? "none configured" : known), "
                + "or a physical address a.b.c.d")
    }

    /// Whether `text` is a physical address `a.b.c.d` with each part a hex digit 0..f.
    public static func isPhysicalAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { $0.count == 1 && $0.first?.isHexDigit == true }
    }

    /// Decodes, size-checks, trims and lower-cases a payload.
    static func text(_ payload: [UInt8]) throws(PayloadError) -> String {
        guard payload.count <= maximumLength else {
            throw PayloadError("payload too long (\(payload.count) bytes; at most \(maximumLength))")
        }
        guard let decoded = String(validating: payload, as: UTF8.self) else {
            throw PayloadError("payload is not valid UTF-8")
        }
        let trimmed = decoded.trimmingWhitespace().lowercased()
        guard !trimmed.isEmpty else { throw PayloadError("empty payload") }
        return trimmed
    }

    /// A payload shown in a reason: control characters escaped.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : Character($0) })
    }
}

/// Why a command payload was refused; `reason` is published in the `command_rejected` event.
public struct PayloadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
