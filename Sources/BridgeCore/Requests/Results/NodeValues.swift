/// The `values` answer: every value the library has for a node, whether the bridge maps it to a topic or not, so
/// nothing a device reports is hidden (a value no kind claims is read here and on the dashboard's node page).
public struct NodeValues: Sendable, Hashable {
    public let node: Int
    public let values: [NodeValue]
    /// The `set_config`s held for the node's next wake-up (``PendingParameter``).
    public let pending: [PendingParameter]

    public init(node: Int, values: [NodeValue], pending: [PendingParameter] = []) {
        self.node = node
        self.values = values
        self.pending = pending
    }

    var json: JSONValue {
        .object([
            ("node", .int(node)), ("values", .array(values.map(\.json))),
            ("pending", .array(pending.map { .object($0.fields) })),
        ])
    }
}

/// One value of a node as the library last knew it (asks the device nothing).
public struct NodeValue: Sendable, Hashable {
    /// The value itself, by the kind of JSON it is published as.
    public enum Reading: Sendable, Hashable {
        case bool(Bool)
        case integer(Int)
        case decimal(Double)
        case text(String)
        /// Not readable now.
        case none
    }

    public let commandClass: Int
    public let instance: Int
    public let index: Int
    /// OpenZWave's genre: `basic`, `user`, `config`, `system`.
    public let genre: String
    public let label: String
    public let reading: Reading
    /// The units (empty: none).
    public let units: String
    public let readOnly: Bool

    public init(
        commandClass: Int, instance: Int, index: Int, genre: String, label: String, reading: Reading, units: String,
        readOnly: Bool
    ) {
        self.commandClass = commandClass
        self.instance = instance
        self.index = index
        self.genre = genre
        self.label = label
        self.reading = reading
        self.units = units
        self.readOnly = readOnly
    }

    var json: JSONValue {
        let value: JSONValue =
            switch reading {
            case .bool(let flag): .bool(flag)
            case .integer(let number): .int(number)
            case .decimal(let number): .double(number)
            case .text(let text): .string(text)
            case .none: .null
            }
        var fields: [(String, JSONValue)] = [
            ("command_class", .int(commandClass)), ("instance", .int(instance)), ("index", .int(index)),
            ("genre", .string(genre)), ("label", .string(label)), ("value", value),
        ]
        if !units.isEmpty { fields.append(("units", .string(units))) }
        fields.append(("read_only", .bool(readOnly)))
        return .object(fields)
    }
}
