internal import Synchronization

/// What the host did: the bus and adapter state, the frames it transmitted, the messages it sent, and the waits
/// for a frame.
extension CECAdapterEmulator {
    /// A wait for a transmitted frame (`waitForTransmitted`), resumed by the pty reader or when it expires.
    struct Waiter {
        let since: Int
        let predicate: @Sendable (BusFrame) -> Bool
        let continuation: CheckedContinuation<TransmittedFrame?, Never>
    }

    /// A snapshot of the bus and adapter state.
    public var state: CECEmulatorState {
        adapter.withLock { adapter in
            let bus = adapter.bus
            return CECEmulatorState(
                tvPoweredOn: bus.devices[EmulatedBus.tv]?.powered ?? false,
                tvInput: bus.tvInput, volume: bus.volume, muted: bus.muted, systemAudioMode: bus.systemAudioMode,
                audioSystemPoweredOn: bus.devices[EmulatedBus.audioSystem]?.powered ?? false,
                playbackPoweredOn: bus.devices[EmulatedBus.playback]?.powered ?? false,
                ackMask: adapter.ackMask, controlled: adapter.controlled, pluggedIn: adapter.terminal != nil)
        }
    }

    /// Every frame the host transmitted so far, oldest first.
    public var transmittedFrames: [TransmittedFrame] { adapter.withLock { $0.transmitted } }

    /// How many frames the host transmitted so far: pass it as `since` to wait only for later ones.
    public var transmittedCount: Int { adapter.withLock { $0.transmitted.count } }

    /// How many messages with this code the host has sent to the adapter (e.g. `.ping`).
    public func hostMessageCount(_ code: AdapterCode) -> Int {
        adapter.withLock { $0.hostMessages[code.rawValue, default: 0] }
    }

    /// Waits until the host transmits (or has transmitted, at index ≥ `since`) a frame matching `predicate`.
    /// Returns nil after `timeout` or when the emulator stops.
    public func waitForTransmitted(
        since: Int = 0, timeout: Duration,
        where predicate: @escaping @Sendable (BusFrame) -> Bool
    ) async -> TransmittedFrame? {
        let id = adapter.withLock { adapter -> Int in
            adapter.nextWaiterID += 1
            return adapter.nextWaiterID
        }
        return await withTaskGroup(of: TransmittedFrame?.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    self.addWaiter(id: id, since: since, predicate: predicate, continuation: continuation)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.expireWaiter(id: id)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            self.expireWaiter(id: id)
            await group.waitForAll()
            self.forgetWaiter(id: id)
            return first
        }
    }

    /// Both children are done: nothing will register `id` any more.
    private func forgetWaiter(id: Int) {
        adapter.withLock { _ = $0.expiredWaiters.remove(id) }
    }

    private func addWaiter(
        id: Int, since: Int, predicate: @escaping @Sendable (BusFrame) -> Bool,
        continuation: CheckedContinuation<TransmittedFrame?, Never>
    ) {
        let immediate: TransmittedFrame?? = adapter.withLock { adapter in
            if adapter.expiredWaiters.remove(id) != nil { return .some(nil) }
            if let hit = adapter.transmitted.dropFirst(max(0, since)).first(where: { predicate($0.frame) }) {
                return .some(hit)
            }
            if adapter.stopped { return .some(nil) }
            adapter.waiters[id] = Waiter(since: since, predicate: predicate, continuation: continuation)
            return nil
        }
        if let immediate { continuation.resume(returning: immediate) }
    }

    private func expireWaiter(id: Int) {
        let waiter = adapter.withLock { adapter -> Waiter? in
            if let waiter = adapter.waiters.removeValue(forKey: id) { return waiter }
            // Not registered yet (or already resumed): remember, so a late registration returns at once.
            adapter.expiredWaiters.insert(id)
            return nil
        }
        waiter?.continuation.resume(returning: nil)
    }

    func failAllWaiters() {
        let all = adapter.withLock { adapter -> [Waiter] in
            defer { adapter.waiters.removeAll() }
            return Array(adapter.waiters.values)
        }
        for waiter in all { waiter.continuation.resume(returning: nil) }
    }
}
