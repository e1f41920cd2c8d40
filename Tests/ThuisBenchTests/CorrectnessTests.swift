import Testing

@testable import thuis_bench

/// What makes `thuis-bench` exit with status 1: a failed correctness check, never a missed timing or memory goal.
@Suite struct CorrectnessTests {
    func report(_ results: [ScenarioResult]) -> BenchReport {
        BenchReport(
            machine: Machine(cores: 2, cpuModel: "test", kernel: "Linux", loadAverage: "0"), date: "now",
            durationSeconds: 1, command: "thuis-bench", results: results)
    }

    func flood(stickLevel: UInt8?, state: String?, sendData: Int = 30, rssAfterKB: Int = 20_000) -> ScenarioResult {
        ThuisBench.flood(
            SliderFloodScenario.Outcome(
                published: 10_000, publishSeconds: 1, setFrames: sendData, sendDataFrames: sendData,
                drainSeconds: 90, quiet: false, expectedLevel: 42, stickLevel: stickLevel, lastPublishedState: state,
                rssBeforeKB: 20_000, rssAfterKB: rssAfterKB, transaction: 0.03),
            refresh: false)
    }

    @Test func missedTimingAndMemoryGoalsDoNotFail() {
        // Ten times the ideal number of radio commands, still sending after 90 s, 10 MB more RSS: all reported.
        let slow = flood(stickLevel: 42, state: "42", sendData: 330, rssAfterKB: 30_240)
        #expect(slow.rows.contains { $0.met == false })
        var setToWire = SetToWireScenario.Outcome(bridge: [5, 9], baseline: [0.3, 0.4])
        setToWire.sent = 2
        let late = ThuisBench.setToWire(setToWire, refresh: false)
        #expect(late.rows.contains { $0.met == false })
        let report = report([slow, late])
        #expect(report.correctnessFailures.isEmpty)
        #expect(report.table.contains("correctness: all 3 checks passed"))
    }

    @Test func aWrongFinalLevelFails() {
        let failures = report([flood(stickLevel: 42, state: "41")]).correctnessFailures
        #expect(failures.count == 1)
        #expect(failures.first?.contains("final level and state = the last sent") == true)
        #expect(failures.first?.contains("state 41") == true)
    }

    @Test func lostCommandsAndMissingStatesFail() {
        var setToWire = SetToWireScenario.Outcome(bridge: [0.4], baseline: [0.3])
        (setToWire.sent, setToWire.lost, setToWire.statesMissing) = (3, 1, 1)
        var report = ReportToMQTTScenario.Outcome(bridge: [0.2], baseline: [0.1])
        (report.sent, report.lost) = (2, 1)
        let failures = self.report([
            ThuisBench.setToWire(setToWire, refresh: false), ThuisBench.reportToMQTT(report),
        ]).correctnessFailures
        #expect(
            failures == [
                "1. set → wire (refresh_after_set = false): every /set reached the stick (1 of 3 lost)",
                "1. set → wire (refresh_after_set = false): every commanded level published as the state (1 of 2 not within 5 s)",
                "2. report → MQTT: every device report published as the state (1 of 2 lost)",
            ])
    }

    @Test func aScenarioThatDidNotCompleteFails() {
        struct Broken: Error {}
        let failed = report([.failed("6", Broken(), stage: "could not start")])
        #expect(failed.correctnessFailures == ["6: the scenario ran to its end (could not start)"])
        #expect(failed.table.contains("correctness: 1 of 1 checks FAILED"))
    }
}
