public import BridgeCore

/// A `DeviceBackend` that records the commands it executes. Each command can be held until the test
/// releases it, to observe the one-in-flight and coalescing behaviour deterministically.
public actor FakeDeviceBackend: DeviceBackend {
    public nonisolated let adapter: Adapter
    public private(set) var executed: [(DeviceAddress, DeviceCommand)] = []
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var failure: String?
    private var arrivalWaiters = BoundedWaiters<Int>()

    public init(adapter: Adapter) { self.adapter = adapter }

    public nonisolated func execute(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
    {
        if let reason = await record(command, device) { throw CommandFailure(reason) }
    }

    private func record(_ command: DeviceCommand, _ device: DeviceDescriptor) async -> String? {
        arrive(command, device)
        await holdIfHolding()
        return failure
    }

    private func arrive(_ command: DeviceCommand, _ device: DeviceDescriptor) {
        executed.append((device.address, command))
        arrivalWaiters.resume(with: executed.count)
    }

    private func holdIfHolding() async {
        if holding { await withCheckedContinuation { held.append($0) } }
    }

    /// From now on, each command blocks until `releaseOne()`/`releaseAll()`.
    public func hold() { holding = true }

    /// Lets the oldest held command finish.
    public func releaseOne() {
        if !held.isEmpty { held.removeFirst().resume() }
    }

    /// Stops holding and lets every held command finish.
    public func releaseAll() {
        holding = false
        for continuation in held { continuation.resume() }
        held.removeAll()
    }

    /// Makes every following command fail with `reason`.
    public func fail(with reason: String?) { failure = reason }

    /// Waits until at least `count` commands have arrived; at most `limit` (scaled), then the test has an issue
    /// recorded and goes on.
    public func waitForCommands(_ count: Int, limit: Duration = .seconds(30)) async {
        if executed.count >= count { return }
        await withCheckedContinuation { continuation in
            arrivalWaiters.add(limit: limit, matches: { $0 >= count }, continuation: continuation) { id in
                await self.expireArrival(id, count: count)
            }
        }
    }

    private func expireArrival(_ id: Int, count: Int) {
        arrivalWaiters.expire(id, what: "\(count) commands (\(executed.count) arrived)")
    }

    public var commands: [DeviceCommand] { executed.map(\.1) }
}
