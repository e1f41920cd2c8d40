import BridgeCore
import Testing

@Suite struct CoalescingQueueTests {
    @Test func idleDeviceRunsAtOnceBusyDeviceKeepsNewestPerChannel() {
        var queue = CoalescingQueue<String, Int, String>()
        #expect(queue.submit("level 1", for: "a", channel: 0) == "level 1")
        #expect(queue.submit("level 2", for: "a", channel: 0) == nil)
        #expect(queue.submit("volume up", for: "a", channel: 1) == nil)
        #expect(queue.submit("level 3", for: "a", channel: 0) == nil)
        #expect(queue.coalescedCount == 1)
        #expect(queue.submit("other", for: "b", channel: 0) == "other")
        #expect(queue.complete("a") == "level 3")
        #expect(queue.complete("a") == "volume up")
        #expect(queue.complete("a") == nil)
        #expect(!queue.isBusy("a"))
        #expect(queue.isBusy("b"))
    }

    @Test func aBurstOfFiveHundredLevelsCostsTwoCommandsAndEndsAtTheLast() {
        var queue = CoalescingQueue<String, Int, Int>()
        var sent: [Int] = []
        for level in 1...500 {
            if let now = queue.submit(level, for: "dimmer", channel: 0) { sent.append(now) }
        }
        while let next = queue.complete("dimmer") { sent.append(next) }
        #expect(sent == [1, 500])
        #expect(queue.waitingCount == 0)
    }

    @Test func drainReturnsWaitingCommands() {
        var queue = CoalescingQueue<String, Int, Int>()
        _ = queue.submit(1, for: "a", channel: 0)
        _ = queue.submit(2, for: "a", channel: 0)
        _ = queue.submit(3, for: "a", channel: 1)
        #expect(queue.drain("a") == [2, 3])
        #expect(queue.complete("a") == nil)
    }
}
