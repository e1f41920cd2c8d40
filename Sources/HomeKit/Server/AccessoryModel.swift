public import BridgeCore

/// One characteristic of the attribute database: its accessory's instance id (`aid`) and its own (`iid`).
public struct CharacteristicID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let aid: Int
    public let iid: Int

    public init(aid: Int, iid: Int) {
        self.aid = aid
        self.iid = iid
    }

    public static func < (lhs: CharacteristicID, rhs: CharacteristicID) -> Bool {
        (lhs.aid, lhs.iid) < (rhs.aid, rhs.iid)
    }

    /// `aid.iid`, as in a `/characteristics?id=` query.
    public var description: String { "\(aid).\(iid)" }
}

/// The status codes of a characteristic read or write, as the HAP specification numbers them.
public enum HAPStatus: Int, Sendable, Hashable, Error {
    case success = 0
    case insufficientPrivileges = -70401
    /// The device does not answer (offline): the controller shows "No Response".
    case serviceCommunicationFailure = -70402
    case resourceBusy = -70403
    case readOnly = -70404
    case writeOnly = -70405
    case notificationNotSupported = -70406
    case outOfResources = -70407
    case timedOut = -70408
    case resourceDoesNotExist = -70409
    case invalidValue = -70410
    case insufficientAuthorization = -70411
}

/// What changed in the model, for the server: values (sent as `EVENT/1.0` to the controllers subscribed to them),
/// or the accessories themselves (a device appeared, left or changed kind: the configuration number `c#` goes up).
public enum AccessoryModelChange: Sendable {
    case values([(CharacteristicID, JSONValue)])
    case structure
}

/// The accessories the HAP server serves: the attribute database, reads, writes and changes. The server speaks
/// the protocol (sessions, JSON bodies, status codes, event subscriptions); the model knows the devices.
public protocol AccessoryModel: Sendable {
    /// `{"accessories": [...]}`: every accessory, service and characteristic with `iid`, `type`, `perms`,
    /// `format`, metadata and the current `value` of each readable characteristic.
    func database() async -> JSONValue
    /// The current values; `.failure` for an unknown id (`resourceDoesNotExist`), a write-only characteristic
    /// (`writeOnly`), or a device that is offline (`serviceCommunicationFailure`).
    func read(_ ids: [CharacteristicID]) async -> [CharacteristicID: Result<JSONValue, HAPStatus>]
    /// Applies the writes through the bridge's command path; each id's status. A write that is refused
    /// (unknown id, read-only, invalid value, offline device) is not applied.
    func write(_ values: [(CharacteristicID, JSONValue)]) async -> [CharacteristicID: HAPStatus]
    /// Whether a controller may subscribe to `id`: `success`, `resourceDoesNotExist` or
    /// `notificationNotSupported`.
    func eventStatus(_ id: CharacteristicID) async -> HAPStatus
    /// Every change, in order; the server is its only consumer.
    var changes: AsyncStream<AccessoryModelChange> { get }
}
