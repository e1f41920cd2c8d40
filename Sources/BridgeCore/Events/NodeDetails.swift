/// What the library knows about a Z-Wave node for the inventory (`<prefix>/bridge/<bridge>/devices`): its identity,
/// interview stage and when it was last heard.
public struct NodeDetails: Sendable, Hashable {
    public let manufacturer: String
    public let product: String
    public let manufacturerID: String
    public let productType: String
    public let productID: String
    public let interviewStage: String
    /// When the node was last heard, in seconds since 1970 (nil: not published for this node).
    public let lastSeen: Double?

    public init(
        manufacturer: String, product: String, manufacturerID: String, productType: String, productID: String,
        interviewStage: String, lastSeen: Double?
    ) {
        self.manufacturer = manufacturer
        self.product = product
        self.manufacturerID = manufacturerID
        self.productType = productType
        self.productID = productID
        self.interviewStage = interviewStage
        self.lastSeen = lastSeen
    }
}

extension HardwareEvent {
    /// The inventory facts of a Z-Wave node (``HardwareEvent/details(_:_:)`` with the fields of `details`).
    public static func details(_ source: DeviceSource, _ details: NodeDetails) -> HardwareEvent {
        .details(source, details.fields)
    }
}
