internal import CZWaveShim
internal import FoundationEssentials
internal import Synchronization

/// What a device command needs, readable from any thread: the manager handle while the driver is ready,
/// and the value ids OpenZWave reported. The driver actor keeps it current; `setLevel`/`setSwitch` use it
/// to call OpenZWave from the caller's thread instead of hopping to the driver's queue first (one thread
/// wake less between an MQTT `/set` and the frame on the wire).
///
/// A call into OpenZWave through `withReadyManager` holds the lock, and the driver withdraws the handle
/// (`setManager(nil)`, which waits for that lock) before it destroys the manager, so no call can use a
/// destroyed one. OpenZWave never calls back into this lock (its notifications go to the driver's stream).
final class FastSetPath: Sendable {
    /// The manager handle, whether the driver is ready, and the value ids OpenZWave reported: one lock owns them.
    private struct State {
        /// The manager handle's address (an `Int` is `Sendable`; the handle is only used under the lock).
        var manager = 0
        var ready = false
        var values: [ZWaveValueKey: ZWaveValueID] = [:]
    }

    private let state = Mutex(State())

    func setManager(_ manager: OpaquePointer?) {
        let address = Int(bitPattern: manager)
        state.withLock { $0.manager = address }
    }
    func setReady(_ ready: Bool) { state.withLock { $0.ready = ready } }

    func record(_ id: ZWaveValueID) { state.withLock { $0.values[id.key] = id } }
    func remove(_ key: ZWaveValueKey) { state.withLock { $0.values[key] = nil } }
    func removeNode(_ node: NodeID) { state.withLock { $0.values = $0.values.filter { $0.key.node != node } } }
    func removeAll() { state.withLock { $0.values.removeAll() } }
    func value(at key: ZWaveValueKey) -> ZWaveValueID? { state.withLock { $0.values[key] } }
    func allValues() -> [ZWaveValueID] { state.withLock { Array($0.values.values) } }

    /// Runs `body` with the manager and the value id at `key`, under the lock; throws what the actor's
    /// `knownValue` would: `.notRunning`, `.notReady` or `.valueNotFound`.
    func withReadyManager<T: Sendable>(
        _ key: ZWaveValueKey, call: String, _ body: (OpaquePointer, ZWaveValueID) throws(ZWaveError) -> T
    ) throws(ZWaveError) -> T {
        try state.withLock { (state) throws(ZWaveError) -> T in
            guard let manager = OpaquePointer(bitPattern: state.manager) else {
                throw ZWaveError(.notRunning, call: call, node: key.node)
            }
            guard state.ready else { throw ZWaveError(.notReady, call: call, node: key.node) }
            guard let id = state.values[key] else {
                throw ZWaveError(.valueNotFound, call: call, node: key.node, message: "no value at \(key)")
            }
            return try body(manager, id)
        }
    }
}
