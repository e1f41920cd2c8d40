/// What a scene button (Z-Wave Central Scene) did, published on `<device>/button/<n>` as its raw value, never
/// retained: pressed 1-5 times, held down, or released after being held.
public enum ButtonAction: String, Sendable, Hashable, CaseIterable, Comparable {
    case pressed
    case pressed2x = "pressed_2x"
    case pressed3x = "pressed_3x"
    case pressed4x = "pressed_4x"
    case pressed5x = "pressed_5x"
    case held
    case released

    /// The actions by Central Scene key attribute: 0 pressed 1x, 1 released, 2 held down, 3-6 pressed 2x-5x.
    private static let byKeyAttribute: [ButtonAction] = [
        .pressed, .released, .held, .pressed2x, .pressed3x, .pressed4x, .pressed5x,
    ]

    /// A Central Scene key attribute's action; nil for another (7 is reserved).
    public init?(keyAttribute: Int) {
        guard Self.byKeyAttribute.indices.contains(keyAttribute) else { return nil }
        self = Self.byKeyAttribute[keyAttribute]
    }

    /// The Central Scene key attribute of the action (the inverse of ``init(keyAttribute:)``).
    public var keyAttribute: Int { Self.byKeyAttribute.firstIndex(of: self) ?? 0 }

    /// The actions a Central Scene v1 button supports (it reports none): all of them.
    public static let assumed: [ButtonAction] = allCases

    /// The actions, in the order of `allCases` (pressed, pressed 2x-5x, held, released).
    public static func < (lhs: ButtonAction, rhs: ButtonAction) -> Bool {
        order(lhs) < order(rhs)
    }

    private static func order(_ action: ButtonAction) -> Int { allCases.firstIndex(of: action) ?? 0 }

    /// The words `[[zwave.button]] action` takes, for an error message.
    public static var words: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Turns a button's reports into the actions published: a held button repeats its `held` report (Central Scene
/// sends one every 200 ms, or every 55 s with v3's slow refresh) until it is released; only the first is published
/// (as zigbee2mqtt publishes `hold` once), the next after a `released`, another action, or `clear()` (OpenZWave's
/// scene reset, 1 s after the last report, so a `released` that got lost never silences the button for good).
public struct ButtonHoldFilter: Sendable {
    private var holding: Set<ButtonKey> = []

    public init() {}

    /// The button `button` of `owner` (a node, an endpoint) reported `action`: the action to publish, or nil for a
    /// repeated `held`.
    public mutating func report(_ action: ButtonAction, owner: Int, button: Int) -> ButtonAction? {
        let key = ButtonKey(owner: owner, button: button)
        guard action == .held else {
            holding.remove(key)
            return action
        }
        return holding.insert(key).inserted ? action : nil
    }

    /// The button is idle again (its scene was reset): a later `held` is a new hold.
    public mutating func clear(owner: Int, button: Int) {
        holding.remove(ButtonKey(owner: owner, button: button))
    }

    private struct ButtonKey: Hashable, Sendable {
        let owner: Int
        let button: Int
    }
}
