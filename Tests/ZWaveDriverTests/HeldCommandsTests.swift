import Testing

@testable import ZWaveDriver

/// The device commands held during inclusion: released when the controller command ends, failed at once when
/// their task is cancelled (the bridge stops).
@Suite struct HeldCommandsTests {
    @Test @ZWaveBackendActor func releasedCommandsGoOn() async {
        let held = HeldCommands()
        async let first = held.wait()
        async let second = held.wait()
        while held.count < 2 { await Task.yield() }
        held.releaseAll()
        #expect(await [first, second] == [true, true])
        #expect(held.count == 0)
    }

    @Test @ZWaveBackendActor func aCancelledCommandStopsWaitingAtOnceAndTheOthersStayHeld() async {
        let held = HeldCommands()
        let cancelled = Task { @ZWaveBackendActor in await held.wait() }
        async let other = held.wait()
        while held.count < 2 { await Task.yield() }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        #expect(held.count == 1)
        held.releaseAll()
        #expect(await other == true)
    }

    @Test @ZWaveBackendActor func aTaskCancelledBeforeItWaitsDoesNotWait() async {
        let held = HeldCommands()
        let task = Task { @ZWaveBackendActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return await held.wait()
        }
        #expect(await task.value == false)
        #expect(held.count == 0)
    }
}
