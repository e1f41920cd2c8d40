import Foundation

/// Scenario 12's rows against its goals (see Performance.md).
extension ThuisBench {
    static func homeKit(_ r: HomeKitScenario.Outcome) -> ScenarioResult {
        let hap = LatencySummary(milliseconds: r.hapSet)
        let mqtt = LatencySummary(milliseconds: r.mqttSet)
        let event = LatencySummary(milliseconds: r.event)
        let state = LatencySummary(milliseconds: r.state)
        let lag = LatencySummary(milliseconds: r.eventLag)
        func p95(_ samples: [Double]) -> Double { LatencySummary.quantile(0.95, sorted: samples.sorted()) }
        let (hap95, mqtt95, event95, state95, lag95) = (
            p95(r.hapSet), p95(r.mqttSet), p95(r.event), p95(r.state), p95(r.eventLag)
        )
        var result = ScenarioResult(name: "12. HomeKit")
        result.latencies = [
            "hap_put_to_wire": hap, "mqtt_set_to_wire": mqtt, "report_to_hap_event": event,
            "report_to_mqtt_state": state, "hap_event_after_mqtt_state": lag,
        ]
        result.numbers = [
            "hap_lost": Double(r.hapLost), "mqtt_lost": Double(r.mqttLost), "states_missing": Double(r.statesMissing),
            "overhead_p50_ms": hap.p50 - mqtt.p50, "overhead_p95_ms": hap95 - mqtt95,
            "pair_setup_ms": r.pairSetupMS, "pair_verify_ms": r.pairVerifyMS, "accessories": Double(r.accessories),
        ]
        result.row(
            "Brightness PUT → Set at the stick, p50", ms(hap.p50), baseline: "MQTT /set \(ms(mqtt.p50))",
            comparison: "overhead \(ms(hap.p50 - mqtt.p50))", goal: "overhead ≤ 1 ms", met: hap.p50 - mqtt.p50 <= 1)
        result.row(
            "  p95", ms(hap95), baseline: "MQTT /set \(ms(mqtt95))", comparison: "overhead \(ms(hap95 - mqtt95))")
        result.row(
            "report → HAP event, p50", ms(event.p50), baseline: "MQTT state \(ms(state.p50))",
            comparison: "event − state p50 \(ms(lag.p50)), p95 \(ms(lag95))", goal: "within 5 ms of MQTT",
            met: lag.p50 <= 5)
        result.row("  p95", ms(event95), baseline: "MQTT state \(ms(state95))")
        let growth = zip([r.rssOn?.rssKB].compactMap { $0 }, [r.rssOff?.rssKB].compactMap { $0 }).map { $0 - $1 }.first
        // The heap's part of the growth; the rest is file-backed (the binary's pages HomeKit's code touches).
        let anonymous =
            zip([r.rssOn?.anonymousKB].compactMap { $0 }, [r.rssOff?.anonymousKB].compactMap { $0 })
            .map { String(format: " (anonymous %+.2f MB)", Double($0 - $1) / 1024) }.first ?? ""
        result.row(
            "RSS at rest, HomeKit on", megabytes(r.rssOn?.rssKB), baseline: "off \(megabytes(r.rssOff?.rssKB))",
            comparison: growth.map { String(format: "%+.2f MB", Double($0) / 1024) + anonymous } ?? "n/a",
            goal: "≤ +3 MB",
            met: growth.map { $0 <= 3 * 1024 })
        result.row("  after pairing and the samples", megabytes(r.rssOnAfter?.rssKB))
        if let off = r.rssOff { result.numbers.merge(off.numbers("homekit_off")) { $1 } }
        if let on = r.rssOn { result.numbers.merge(on.numbers("homekit_on")) { $1 } }
        if let after = r.rssOnAfter { result.numbers.merge(after.numbers("homekit_on_after")) { $1 } }
        result.row(
            "pairing: Pair Setup M1-M6 + Pair Verify", ms(r.pairSetupMS + r.pairVerifyMS),
            comparison: "setup \(ms(r.pairSetupMS)), verify \(ms(r.pairVerifyMS))")
        result.row(
            "samples", "\(hap.count) + \(mqtt.count) writes, \(event.count) reports",
            comparison: "\(r.accessories) accessories")
        result.check("every Brightness PUT reached the stick", r.hapLost == 0, "\(r.hapLost) of \(r.writes) lost")
        result.check("every MQTT /set reached the stick", r.mqttLost == 0, "\(r.mqttLost) of \(r.writes) lost")
        result.check(
            "every report published as the MQTT state", r.statesMissing == 0,
            "\(r.statesMissing) of \(r.reports) not within 5 s")
        return result
    }
}
