/// The `include` and `refresh` answer: the node, its identity as the library knows it, how its interview ended, and
/// the switch endpoints the ready-to-paste devices.toml stanza (``stanza``) names.
public struct InclusionOutcome: Sendable, Hashable {
    public let node: Int
    public let manufacturer: String
    public let product: String
    public let manufacturerID: String
    public let productType: String
    public let productID: String
    /// Whether the interview completed (else it did not finish in time and the node works for basic control).
    public let interviewCompleted: Bool
    /// The interview stage reached.
    public let stage: String
    /// The instances of the node's switch values (Switch Binary or Multilevel, index 0), sorted, each once.
    public let switchInstances: [Int]

    public init(
        node: Int, manufacturer: String, product: String, manufacturerID: String, productType: String,
        productID: String, interviewCompleted: Bool, stage: String, switchInstances: [Int]
    ) {
        self.node = node
        self.manufacturer = manufacturer
        self.product = product
        self.manufacturerID = manufacturerID
        self.productType = productType
        self.productID = productID
        self.interviewCompleted = interviewCompleted
        self.stage = stage
        self.switchInstances = switchInstances
    }

    /// One `[[zwave.device]]` per switch endpoint (a multi-channel device gets one per endpoint).
    public var stanza: String {
        let base = Self.slug(product.isEmpty ? "node\(node)" : product)
        let title = [manufacturer, product].filter { !$0.isEmpty }.joined(separator: " ")
        var out = "# node \(node)\(title.isEmpty ? "" : ": " + title); choose the room and name\n"
        let endpoints: [Int?] = switchInstances.count > 1 ? switchInstances.map { $0 } : [nil]
        for (index, instance) in endpoints.enumerated() {
            if index > 0 { out += "\n" }
            out += "[[zwave.device]]\nnode = \(node)\n"
            if let instance { out += "instance = \(instance)\n" }
            out += "room = \"room\"\nname = \"\(base)\(instance.map { "_\($0)" } ?? "")\"\n"
        }
        return out
    }

    /// `FGD212 Dimmer 2` → `fgd212_dimmer_2`.
    static func slug(_ text: String) -> String {
        var out = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, !out.hasSuffix("_") {
                out += "_"
            }
        }
        while out.hasSuffix("_") { out.removeLast() }
        return out.isEmpty ? "device" : String(out.prefix(40))
    }
}
