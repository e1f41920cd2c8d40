/// A configuration parameter set while its node sleeps (`set_config` to a battery node between wake-ups): held for
/// the node's next wake-up, when OpenZWave sends it, and kept by the bridge (in its state directory) until the node
/// reports the value, so a restart in between loses nothing.
public struct PendingParameter: Sendable, Hashable {
    public let node: Int
    public let parameter: Int
    public let value: Int
    /// Its size in bytes (1, 2 or 4).
    public let size: Int
    /// When it was asked for, in seconds since 1970.
    public let since: Int

    public init(node: Int, parameter: Int, value: Int, size: Int, since: Int) {
        self.node = node
        self.parameter = parameter
        self.value = value
        self.size = size
        self.since = since
    }

    /// Its fields in an event and in the bridge's file of held commands.
    public var fields: [(String, JSONValue)] {
        [
            ("node", .int(node)), ("command", .string("set_config")), ("parameter", .int(parameter)),
            ("value", .int(value)), ("size", .int(size)), ("since", .int(since)),
        ]
    }

    /// One entry of the file of held commands, checked as any input from outside is: nil and the reason when it is
    /// not a `set_config` the bridge could have held (a node outside 1...232, a parameter outside 1...255, a size
    /// other than 1, 2 or 4, a value that does not fit in it).
    public static func parse(_ entry: JSONValue) -> Result<PendingParameter, PendingParameterError> {
        guard case .object(let fields) = entry else { return .failure(.init("not an object: \(entry.serialized)")) }
        func int(_ key: String) -> Int? {
            guard case .int(let number)? = fields.first(where: { $0.0 == key })?.1 else { return nil }
            return number
        }
        guard case .string("set_config")? = fields.first(where: { $0.0 == "command" })?.1 else {
            return .failure(.init("not a set_config: \(entry.serialized)"))
        }
        guard let node = int("node"), (1...232).contains(node) else {
            return .failure(.init("no node 1...232: \(entry.serialized)"))
        }
        guard let parameter = int("parameter"), (1...255).contains(parameter) else {
            return .failure(.init("no parameter 1...255: \(entry.serialized)"))
        }
        guard let size = int("size"), [1, 2, 4].contains(size) else {
            return .failure(.init("no size 1, 2 or 4: \(entry.serialized)"))
        }
        guard let value = int("value"), fits(value, size: size) else {
            return .failure(.init("no value that fits in \(size) byte(s): \(entry.serialized)"))
        }
        return .success(
            PendingParameter(node: node, parameter: parameter, value: value, size: size, since: int("since") ?? 0))
    }

    /// Whether `value` fits a parameter of `size` bytes (signed, or unsigned as devices also use them).
    public static func fits(_ value: Int, size: Int) -> Bool {
        guard (1...4).contains(size) else { return false }
        let limit = 1 << (size * 8 - 1)
        return value >= -limit && value < limit * 2
    }
}

extension PendingParameter {
    /// The bridge's file of held commands (`{"pending": [...]}`, one entry per command), as written.
    public static func fileText(_ commands: [PendingParameter]) -> String {
        JSONValue.object([("pending", .array(commands.map { .object($0.fields) }))]).serialized + "\n"
    }

    /// The file of held commands read back: its commands, and why each entry that was not one was dropped; a
    /// failure (with the reason) when the file is not the bridge's list at all (cut short, garbage, another shape).
    public static func parseFile(_ bytes: [UInt8]) -> Result<
        (commands: [PendingParameter], dropped: [PendingParameterError]), PendingParameterError
    > {
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            return .failure(PendingParameterError("it is not JSON (\(error))"))
        }
        guard case .object(let fields) = root, case .array(let entries)? = fields.first(where: { $0.0 == "pending" })?.1
        else { return .failure(PendingParameterError("it is not the bridge's list of held commands")) }
        var commands: [PendingParameter] = []
        var dropped: [PendingParameterError] = []
        for entry in entries {
            switch parse(entry) {
            case .success(let command):
                commands.removeAll { $0.node == command.node && $0.parameter == command.parameter }
                commands.append(command)
            case .failure(let problem):
                dropped.append(problem)
            }
        }
        return .success((commands, dropped))
    }
}

/// Why an entry of the file of held commands was not taken.
public struct PendingParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// What became of a held command.
public enum PendingOutcome: Sendable, Hashable {
    /// `command_pending`: the node sleeps; the command waits for its wake-up.
    case held
    /// `pending_applied`: the node woke up and reported the value.
    case applied
    /// `pending_failed`: the node woke up and reported another value (`reported`), or the command could not be
    /// kept (`reported` nil).
    case failed(reported: Int?, reason: String)
}
