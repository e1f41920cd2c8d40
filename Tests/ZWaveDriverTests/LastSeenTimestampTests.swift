import Foundation
import SystemSupport
import Testing

@testable import ZWaveDriver

/// `last_seen` in a node's inventory: the string the MQTT contract documents (`2026-11-22T04:38:02Z`).
@Suite struct LastSeenTimestampTests {
    @Test("UTC with whole seconds, zero-padded, the fraction truncated")
    func format() {
        #expect(ZWaveBackend.timestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ZWaveBackend.timestamp(Date(timeIntervalSince1970: 1_795_322_282.999)) == "2026-11-22T04:38:02Z")
        #expect(ZWaveBackend.timestamp(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test("the same string as Foundation's ISO 8601 format for 2,000 seconds of this century (a fixed sample)")
    func matchesFoundation() {
        var generator = SeededRandom(seed: 0x7457_2026)
        for _ in 0..<2000 {
            let date = Date(timeIntervalSince1970: Double.random(in: 946_684_800..<4_102_444_800, using: &generator))
            #expect(ZWaveBackend.timestamp(date) == date.formatted(Date.ISO8601FormatStyle()))
        }
    }
}
