internal import CZWaveShim
internal import FoundationEssentials
internal import SystemSupport

/// What a device command needs, readable from any thread: the manager handle while the driver is ready,
/// and the value ids OpenZWave reported. The driver actor keeps it current; `setLevel`/`setSwitch` use it
/// to call OpenZWave from the caller's thread instead of hopping to the driver's queue first (one thread
/// wake less between an MQTT `/set` and the frame on the wire).
///
/// A call into OpenZWave through `withReadyManager` holds the lock, and the driver withdraws the handle
/// (`setManager(nil)`, which waits for that lock) before it destroys the manager, so no call can use a
/// destroyed one. OpenZWave never calls back into this lock (its notifications go to the driver's stream).
final class FastSetPath: @unchecked Sendable {  // all state is guarded by `lock`
    private let lock = Lock()
    private var manager: OpaquePointer?
    private var ready = false
    private var values: [ZWaveValueKey: ZWaveValueID] = [:]

    func setManager(_ manager: OpaquePointer?) { lock.withLock { self.manager = manager } }
    func setReady(_ ready: Bool) { lock.withLock { self.ready = ready } }

    func record(_ id: ZWaveValueID) { lock.withLock { values[id.key] = id } }
    func remove(_ key: ZWaveValueKey) { lock.withLock { values[key] = nil } }
    func removeNode(_ node: NodeID) { lock.withLock { values = values.filter { $0.key.node != node } } }
    func removeAll() { lock.withLock { values.removeAll() } }
    func value(at key: ZWaveValueKey) -> ZWaveValueID? { lock.withLock { values[key] } }
    func allValues() -> [ZWaveValueID] { lock.withLock { Array(values.values) } }

    /// Runs `body` with the manager and the value id at `key`, under the lock; throws what the actor's
    /// `knownValue` would: `.notRunning`, `.notReady` or `.valueNotFound`.
    func withReadyManager<T>(
        _ key: ZWaveValueKey, call: String, _ body: (OpaquePointer, ZWaveValueID) throws(ZWaveError) -> T
    ) throws(ZWaveError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let manager else { throw ZWaveError(.notRunning, call: call, node: key.node) }
        guard ready else { throw ZWaveError(.notReady, call: call, node: key.node) }
        guard let id = values[key] else {
            throw ZWaveError(.valueNotFound, call: call, node: key.node, message: "no value at \(key)")
        }
        return try body(manager, id)
    }
}
