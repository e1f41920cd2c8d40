internal import Crypto
internal import Glibc
internal import Synchronization

/// Why the pairing state file cannot be used.
public enum HomeKitStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or its directory cannot be read or created (the reason in words).
    case unreadable(path: String, reason: String)
    /// Its group or others have permissions on it (the mode bits).
    case exposed(path: String, mode: UInt32)
    /// The file is not the pairing state this version writes (what is wrong).
    case malformed(path: String, reason: String)
    /// The new state could not be written (the reason in words).
    case unwritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "HomeKit pairing file \(path): cannot be read: \(reason)"
        case .exposed(let path, let mode):
            "HomeKit pairing file \(path): its group or others may access it (mode 0\(String(mode, radix: 8))): "
                + "only the bridge's user may read the accessory's key and pairings (chmod 600, owned by that user)"
        case .malformed(let path, let reason): "HomeKit pairing file \(path): \(reason)"
        case .unwritable(let path, let reason): "HomeKit pairing file \(path): cannot be written: \(reason)"
        }
    }
}

/// The accessory's pairing state, in one JSON file (mode 0600 in a 0700 directory, written atomically): its device
/// id, Ed25519 long-term key and setup id, the paired controllers, the configuration number with the hash of the
/// attribute database it counts, the stable accessory ids, and the failed Pair Setup attempts with the time of the
/// last one (so the limit of 100 and the back-off survive a restart). Shared by the daemon's HAP server and the
/// command line. One writer at a time: a change is written under the lock, and kept only once it is on disk.
public final class HomeKitStore: Sendable {
    /// At most this many controllers may be paired (HAP specification).
    public static let maximumPairings = 16

    struct State: Sendable {
        var deviceID: String
        var signingKey: [UInt8]
        var setupID: String
        var pairings: [Pairing]
        var configurationNumber: Int
        var structureHash: String
        var accessoryIDs: [String: Int]
        var failedAttempts: Int
        /// The wall-clock time of the last failed attempt, in milliseconds since 1970 (absent in files of earlier
        /// versions).
        var lastFailedAttempt: Int?
        /// What each accessory was when the hardware last said (by the aid allocator's key): served at the next start
        /// until the interview says again, so Apple Home never loses an accessory (and its room) meanwhile.
        var accessoryKinds: [String: String] = [:]
    }

    public let path: String
    private let state: Mutex<State>

    /// Opens the file at `path`, creating it (and its directory, mode 0700) with a new identity when it is missing.
    public init(path: String) throws(HomeKitStoreError) {
        self.path = path
        let loaded: State
        if let bytes = try StoreFile.read(path) {
            loaded = try Self.decode(bytes, path: path)
        } else {
            loaded = Self.fresh()
            try StoreFile.write(Self.encode(loaded), to: path)
        }
        state = Mutex(loaded)
    }

    /// The accessory's pairing id, `XX:XX:XX:XX:XX:XX`, random once.
    public var deviceID: String { state.withLock { $0.deviceID } }

    /// The accessory's pairing id and long-term key.
    public var identity: PairSetup.Identity {
        state.withLock { state in
            let key =
                (try? Curve25519.Signing.PrivateKey(rawRepresentation: state.signingKey))
                ?? Curve25519.Signing.PrivateKey()
            return PairSetup.Identity(pairingID: state.deviceID, signingKey: key)
        }
    }

    /// Four characters (0-9, A-Z): the end of the `X-HM://` payload, and hashed into the `sh` TXT record.
    public var setupID: String { state.withLock { $0.setupID } }

    public var pairings: [Pairing] { state.withLock { $0.pairings } }

    public var isPaired: Bool { state.withLock { !$0.pairings.isEmpty } }

    /// The configuration number, `c#`: 1 to 65535.
    public var configurationNumber: Int { state.withLock { $0.configurationNumber } }

    /// Failed Pair Setup attempts since the last reset of the pairings.
    public var failedAttempts: Int { state.withLock { $0.failedAttempts } }

    /// When the last failed attempt was, in milliseconds since 1970 (wall clock): the HAP server's back-off
    /// deadline after a restart.
    var lastFailedAttempt: Int? { state.withLock { $0.lastFailedAttempt } }

    /// Adds a controller, or updates the permissions of one that is already paired with the same key.
    public func add(_ pairing: Pairing) throws(HomeKitStoreError) {
        try update { state in
            if let index = state.pairings.firstIndex(where: { $0.identifier == pairing.identifier }) {
                state.pairings[index] = pairing
            } else {
                state.pairings.append(pairing)
            }
        }
    }

    /// Removes the controller `identifier`; when no admin is left, every pairing goes (HAP specification).
    /// Returns the identifiers removed.
    @discardableResult
    public func remove(identifier: String) throws(HomeKitStoreError) -> [String] {
        try update { state in
            let before = state.pairings.map(\.identifier)
            state.pairings.removeAll { $0.identifier == identifier }
            if !state.pairings.contains(where: \.isAdmin) {
                state.pairings = []
            }
            let after = Set(state.pairings.map(\.identifier))
            return before.filter { !after.contains($0) }
        }
    }

    /// Removes every pairing and resets the failed attempts: the accessory can be paired again.
    public func removeAllPairings() throws(HomeKitStoreError) {
        try update { state in
            state.pairings = []
            state.failedAttempts = 0
            state.lastFailedAttempt = nil
        }
    }

    /// Counts a failed Pair Setup attempt made `now` (milliseconds since 1970); returns the count.
    @discardableResult
    public func noteFailedAttempt() throws(HomeKitStoreError) -> Int {
        let now = Self.wallClockMilliseconds()
        return try update { state in
            state.failedAttempts += 1
            state.lastFailedAttempt = now
            return state.failedAttempts
        }
    }

    /// The wall clock, in milliseconds since 1970.
    static func wallClockMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }

    /// Records the hash of the attribute database's structure; when it differs from the last one, the
    /// configuration number goes up (65535 wraps to 1). Returns the configuration number.
    @discardableResult
    public func noteStructure(hash: String) throws(HomeKitStoreError) -> Int {
        try update { state in
            guard state.structureHash != hash else { return state.configurationNumber }
            if !state.structureHash.isEmpty {
                state.configurationNumber = state.configurationNumber >= 65535 ? 1 : state.configurationNumber + 1
            }
            state.structureHash = hash
            return state.configurationNumber
        }
    }

    /// The accessory id of the device `key`: the one it had, or the next free one from 2 (1 is the bridge),
    /// kept in the file. When the file cannot be written, the id holds until the bridge stops (the one change
    /// kept in memory without the file: an accessory must keep its id while the bridge runs).
    public func accessoryID(for key: String) -> Int {
        if let known = state.withLock({ $0.accessoryIDs[key] }) { return known }
        return (try? allocateAccessoryID(for: key)) ?? state.withLock { $0.accessoryIDs[key] ?? 0 }
    }

    /// What the device `key` was last time (``rememberKind(_:for:)``), nil when never told.
    public func rememberedKind(for key: String) -> String? { state.withLock { $0.accessoryKinds[key] } }

    /// Keeps what the device `key` is (its kind, as the accessory layout writes it) for the next start. When the
    /// file cannot be written it holds until the bridge stops, as an accessory id does.
    public func rememberKind(_ kind: String, for key: String) {
        guard state.withLock({ $0.accessoryKinds[key] }) != kind else { return }
        _ = try? update(keepingOnFailure: true) { $0.accessoryKinds[key] = kind }
    }

    private func allocateAccessoryID(for key: String) throws(HomeKitStoreError) -> Int {
        try update(keepingOnFailure: true) { state in
            if let known = state.accessoryIDs[key] { return known }
            let allocated = (state.accessoryIDs.values.max() ?? 1) + 1
            state.accessoryIDs[key] = allocated
            return allocated
        }
    }

    /// Changes the state and writes it, under the lock: writes happen one at a time, in the order of the changes.
    /// When the write fails the change is undone (kept in memory only with `keepingOnFailure`), and the error
    /// says why.
    private func update<T: Sendable>(
        keepingOnFailure: Bool = false, _ change: (inout State) -> T
    ) throws(HomeKitStoreError) -> T {
        try state.withLock { (state) throws(HomeKitStoreError) -> T in
            var next = state
            let result = change(&next)
            do throws(HomeKitStoreError) {
                try StoreFile.write(Self.encode(next), to: path)
            } catch {
                if keepingOnFailure { state = next }
                throw error
            }
            state = next
            return result
        }
    }

    static func fresh() -> State {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789ABCDEF")
        let deviceID = (0..<6).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String([hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }.joined(separator: ":")
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let setupID = String((0..<4).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
        return State(
            deviceID: deviceID, signingKey: Array(Curve25519.Signing.PrivateKey().rawRepresentation),
            setupID: setupID, pairings: [], configurationNumber: 1, structureHash: "", accessoryIDs: [:],
            failedAttempts: 0, lastFailedAttempt: nil)
    }
}
