/// What the bridge knows about one Z-Wave product beyond the standard: its quirks and its button scheme, in one
/// table (``DeviceProfile/all``) keyed by the manufacturer and product ids the node reports. The Z-Wave driver
/// (device-database patches, framing quirks), Home Assistant discovery, HomeKit and the dashboard read it. Adding a
/// device is one entry here plus its test (`DeviceProfileTests`).
public struct DeviceProfile: Sendable, Equatable, CustomStringConvertible {
    /// A product as its Manufacturer Specific report names it (OpenZWave's `manufacturer_specific.xml`).
    public struct Product: Sendable, Hashable {
        public let manufacturer: UInt16
        public let type: UInt16
        /// nil: every product id of the type.
        public let id: UInt16?

        public init(manufacturer: UInt16, type: UInt16, id: UInt16? = nil) {
            self.manufacturer = manufacturer
            self.type = type
            self.id = id
        }
    }

    /// A short identifier (`fibaro-fgd212`), for logs and documentation.
    public let id: String
    /// The product's name, as people know it.
    public let name: String
    public let products: [Product]
    /// The kind the generic mapping makes of the product's main device; the profile is the default for a node of that
    /// kind whose product is not known yet (``profile(facts:kind:)``).
    public let kind: DeviceKind?
    /// Its file in OpenZWave's device database, relative to the database's root.
    public let databaseFile: String?
    /// Its Switch Multilevel reports its own level after a Set: OpenZWave's verifying Get is not needed
    /// (`DeviceDatabaseOverlay` turns it off).
    public let reportsOwnLevel: Bool
    /// It puts the socket number in the destination endpoint byte of its unsolicited multi-channel reports, which
    /// OpenZWave attributes to endpoint 1 (the Z-Wave driver's `PowerNodeFraming` re-reads each socket).
    public let endpointInDestinationByte: Bool
    /// Its buttons' scene activations, nil when it sends none.
    public let buttons: ButtonScheme?

    public var description: String { id }

    /// The profile of the product `manufacturer`/`type`/`id` (hex strings as OpenZWave gives them: `0x010f`), nil for
    /// a product the table does not know.
    public static func profile(manufacturer: String, type: String, id: String) -> DeviceProfile? {
        guard let manufacturer = hex(manufacturer), let type = hex(type), let id = hex(id) else { return nil }
        return all.first { profile in
            profile.products.contains { $0.manufacturer == manufacturer && $0.type == type && ($0.id ?? id) == id }
        }
    }

    /// The profile of a node from its inventory facts (`manufacturer_id`, `product_type`, `product_id`); while they
    /// are not known (before the node's identity was read), the profile that is the default for its `kind`.
    public static func profile(facts: [String: String], kind: DeviceKind?) -> DeviceProfile? {
        if let manufacturer = facts["manufacturer_id"], let type = facts["product_type"], let id = facts["product_id"],
            hex(manufacturer) != nil
        {
            return profile(manufacturer: manufacturer, type: type, id: id)
        }
        return kind.flatMap { kind in all.first { $0.kind == kind } }
    }

    static func hex(_ text: String) -> UInt16? {
        let digits = text.lowercased().hasPrefix("0x") ? text.dropFirst(2) : Substring(text)
        return digits.isEmpty ? nil : UInt16(digits, radix: 16)
    }
}

/// A product's buttons and the scene ids their presses send.
public struct ButtonScheme: Sendable, Equatable {
    /// The configuration parameter (and value) that turns the scene activations on, when the product needs one.
    public let activation: (parameter: Int, value: Int)?
    /// The buttons, numbered as the product's manual does.
    public let buttons: [Int]
    /// Each press the product sends as a scene id.
    public let scenes: [SceneButton]

    /// The button and press of `scene`, nil for a scene id the product does not send.
    public func press(of scene: Int) -> SceneButton? { scenes.first { $0.scene == scene } }

    public static func == (lhs: ButtonScheme, rhs: ButtonScheme) -> Bool {
        lhs.activation?.parameter == rhs.activation?.parameter && lhs.activation?.value == rhs.activation?.value
            && lhs.buttons == rhs.buttons && lhs.scenes == rhs.scenes
    }
}

/// One press of one button, as the scene id it sends.
public struct SceneButton: Sendable, Equatable {
    public let scene: Int
    public let button: Int
    public let press: ButtonPress

    public init(scene: Int, button: Int, press: ButtonPress) {
        self.scene = scene
        self.button = button
        self.press = press
    }
}

/// The presses a button scheme knows.
public enum ButtonPress: String, Sendable, CaseIterable {
    case single, double, triple, hold, release
}
