import Testing

@testable import thuis_bench

/// Scenario 12's reading of the HAP server's JSON, and which of its outcomes fail the benchmark.
@Suite struct HomeKitScenarioTests {
    @Test func findsTheLightbulbsBrightnessInShortAndLongTypes() throws {
        let body = #"""
            {"accessories":[
              {"aid":1,"services":[{"type":"3E","iid":1,"characteristics":[{"iid":2,"type":"8"}]}]},
              {"aid":7,"services":[{"type":"00000047-0000-1000-8000-0026BB765291","iid":10,
                "characteristics":[{"iid":11,"type":"25"},{"iid":12,"type":"26"}]}]},
              {"aid":9,"services":[{"type":"00000043-0000-1000-8000-0026BB765291","iid":10,
                "characteristics":[{"iid":11,"type":"25"},{"iid":12,"type":"00000008-0000-1000-8000-0026BB765291"}]}]}
            ]}
            """#
        let (brightness, count) = try HomeKitScenario.brightness(Array(body.utf8))
        #expect(brightness.aid == 9 && brightness.iid == 12)
        #expect(count == 3)
        #expect(throws: BenchError.self) { try HomeKitScenario.brightness(Array(#"{"accessories":[]}"#.utf8)) }
    }

    @Test func readsTheBrightnessOfAnEventOnly() throws {
        let brightness = HomeKitScenario.Brightness(aid: 9, iid: 12)
        let event = #"{"characteristics":[{"aid":9,"iid":11,"value":true},{"aid":9,"iid":12,"value":42}]}"#
        #expect(try HomeKitScenario.value(Array(event.utf8), brightness) == 42)
        let other = #"{"characteristics":[{"aid":3,"iid":12,"value":42}]}"#
        #expect(try HomeKitScenario.value(Array(other.utf8), brightness) == nil)
    }

    @Test func aLostWriteOrStateFailsAndMissedGoalsDoNot() {
        var slow = HomeKitScenario.Outcome()
        slow.hapSet = [9, 9]
        slow.mqttSet = [1, 1]
        slow.event = [20]
        slow.state = [1]
        slow.eventLag = [19]
        slow.rssOff = MemoryReading(rssKB: 10_000, pssKB: 1, anonymousKB: 1)
        slow.rssOn = MemoryReading(rssKB: 20_000, pssKB: 1, anonymousKB: 1)
        let missed = ThuisBench.homeKit(slow)
        #expect(missed.rows.filter { $0.met == false }.count == 3)
        #expect(missed.checks.allSatisfy { $0.passed })

        var lost = slow
        lost.hapLost = 1
        lost.statesMissing = 1
        let failed = ThuisBench.homeKit(lost)
        #expect(failed.checks.filter { !$0.passed }.count == 2)
        #expect(failed.name.hasPrefix("12. HomeKit"))
    }
}
