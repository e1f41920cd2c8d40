import BridgeCore
import Foundation
import SystemSupport
import Testing

@testable import ZWaveDriver

/// `last_seen` in a node's inventory: the string the MQTT contract documents (`2026-11-22T04:38:02Z`), written by the
/// core's encoder from the seconds the driver gives it.
@Suite struct LastSeenTimestampTests {
    func timestamp(_ date: Date) -> String { RequestResult.timestamp(secondsSince1970: date.timeIntervalSince1970) }

    @Test("UTC with whole seconds, zero-padded, the fraction truncated")
    func format() {
        #expect(timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(timestamp(Date(timeIntervalSince1970: 1_795_322_282.999)) == "2026-11-22T04:38:02Z")
        #expect(timestamp(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test("the same string as Foundation's ISO 8601 format for 2,000 seconds of this century (a fixed sample)")
    func matchesFoundation() {
        var generator = SeededRandom(seed: 0x7457_2026)
        for _ in 0..<2000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 946_684_800..<4_102_444_800, using: &generator))
            #expect(timestamp(date) == date.formatted(Date.ISO8601FormatStyle()))
        }
    }
}

/// Intervals on the monotonic clock: NTP setting a Pi's wall clock at boot (it has no battery clock) changes no
/// interval, while `last_seen` shows the wall-clock time.
@Suite struct LastSeenIntervalTests {
    @Test("a wall clock set back by hours neither holds back nor hurries the inventory's refresh")
    func wallClockJumpsDoNotMoveIntervals() {
        var lastSeen = LastSeen()
        let start = ContinuousClock.now
        let boot = Date(timeIntervalSince1970: 0)  // a Pi before NTP: 1970
        let node = NodeID(2)
        let first = lastSeen.note(node, at: .init(instant: start, date: boot))
        #expect(first)
        // NTP sets the wall clock 56 years ahead 10 s later: not a minute yet, no refresh.
        let synced = Date(timeIntervalSince1970: 1_795_322_282)
        let early = lastSeen.note(node, at: .init(instant: start + .seconds(10), date: synced))
        #expect(!early)
        // A minute after the first on the monotonic clock: due, whatever the wall clock did meanwhile.
        let setBack = synced.addingTimeInterval(-7200)
        let due = lastSeen.note(node, at: .init(instant: start + .seconds(61), date: setBack))
        #expect(due)
        #expect(lastSeen.lastReport(node) == start + .seconds(61))
        let shown = lastSeen.publishing(node)
        #expect(shown == setBack, "last_seen shows the wall-clock time")
    }
}
