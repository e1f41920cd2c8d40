import Testing

@testable import ZWaveDriver

/// A sleeping node is dead only when it missed its wake-ups: silent for more than twice its wake-up interval plus
/// the grace; never with no timed wake-ups.
@Suite struct SleepingNodesTests {
    @Test func aSleepingNodeIsOverdueOnlyAfterTwoMissedWakeUpsAndTheGrace() {
        let hour = 3600
        let limit = Duration.seconds(2 * hour) + SleepingNodes.overdueGrace
        #expect(!SleepingNodes.isOverdue(silentFor: .seconds(hour + 60), interval: hour))
        #expect(!SleepingNodes.isOverdue(silentFor: .seconds(2 * hour + 60), interval: hour))
        #expect(!SleepingNodes.isOverdue(silentFor: limit, interval: hour))
        #expect(SleepingNodes.isOverdue(silentFor: limit + .seconds(1), interval: hour))
        #expect(SleepingNodes.overdueGrace == .seconds(600))
    }

    @Test func aNodeWithoutTimedWakeUpsIsNeverOverdue() {
        #expect(!SleepingNodes.isOverdue(silentFor: .seconds(86_400 * 365), interval: 0))
        #expect(!SleepingNodes.isOverdue(silentFor: .seconds(86_400 * 365), interval: -1))
    }
}
