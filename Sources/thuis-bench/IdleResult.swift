import Foundation

extension ThuisBench {
    /// Scenario 8's rows: per setup the bridge's own threads (goal ≤ 0.02 s a minute) and, with CEC, the whole
    /// process against libcec's own cost over the same window: `cec-client -m`'s process less its main thread,
    /// which only reads its console (goal ≤ that + 0.05 s a minute).
    static func idle(_ outcome: IdleScenario.Outcome, window: Duration) -> ScenarioResult {
        var result = ScenarioResult(name: "8. idle CPU (\(Int(window.milliseconds / 1000)) s at rest)")
        func perMinute(_ seconds: Double?) -> String { seconds.map { String(format: "%.3f s", $0) } ?? "n/a" }
        let client = outcome.cecClient
        let libcecAlone = client?.processSecondsPerMinute(lessThanOf: [.own])
        for reading in outcome.readings {
            let setup = reading.setup
            let usage = reading.usage
            let own = usage?.secondsPerMinute(.own)
            result.row(
                "\(setup.rawValue): the bridge's own threads, CPU per minute", perMinute(own),
                comparison: usage.map {
                    String(
                        format: "schedstat %.4f s; %d threads, %.0f wake-ups/min", $0.preciseSecondsPerMinute(.own),
                        $0.threads(.own), $0.wakeupsPerMinute(.own))
                } ?? "", goal: "≤ 0.02 s", met: own.map { $0 <= 0.02 })
            let whole = usage?.processSecondsPerMinute
            let libraries = usage.map {
                String(
                    format: "OpenZWave %.3f s, libcec %.3f s (%d threads)", $0.secondsPerMinute(.openZWave),
                    $0.secondsPerMinute(.libcec), $0.threads)
            }
            if setup.hasCEC {
                let limit = libcecAlone.map { $0 + 0.05 }
                result.row(
                    "  whole process", perMinute(whole),
                    baseline: "libcec in cec-client -m \(perMinute(libcecAlone))", comparison: libraries ?? "",
                    goal: "≤ libcec + 0.05 s" + (limit.map { String(format: " = %.3f s", $0) } ?? ""),
                    met: limit.flatMap { limit in whole.map { $0 <= limit } })
            } else {
                result.row("  whole process", perMinute(whole), comparison: libraries ?? "")
            }
            if let usage {
                result.numbers["\(setup.key)_process_cpu_s_per_min"] = usage.processSecondsPerMinute
                result.numbers["\(setup.key)_threads"] = Double(usage.threads)
                for owner in ThreadOwner.allCases {
                    let name = owner.rawValue.lowercased()
                    result.numbers["\(setup.key)_\(name)_cpu_s_per_min"] = usage.secondsPerMinute(owner)
                    result.numbers["\(setup.key)_\(name)_schedstat_s_per_min"] = usage.preciseSecondsPerMinute(owner)
                    result.numbers["\(setup.key)_\(name)_wakeups_per_min"] = usage.wakeupsPerMinute(owner)
                }
                let traffic = [
                    reading.zwaveFrames.map { "\($0) frames to the stick" },
                    reading.cecFrames.map { "\($0) on the CEC bus" }, "\(reading.mqttMessages) MQTT messages",
                ].compactMap { $0 }.joined(separator: ", ")
                result.notes.append("\(setup.rawValue) (\(traffic)), by thread: \(usage.summary())")
            }
            result.checks += reading.checks
        }
        if let client {
            result.row(
                "libcec alone: cec-client -m less its main thread, CPU per minute", perMinute(libcecAlone),
                baseline: "whole cec-client \(perMinute(client.processSecondsPerMinute))",
                comparison: String(
                    format: "libcec's threads: schedstat %.4f s, %.0f wake-ups/min",
                    client.preciseSecondsPerMinute(.libcec),
                    client.wakeupsPerMinute(.libcec)))
            result.numbers["cec_client_cpu_s_per_min"] = client.processSecondsPerMinute
            result.numbers["cec_client_libcec_cpu_s_per_min"] = libcecAlone ?? -1
            result.numbers["cec_client_libcec_schedstat_s_per_min"] = client.preciseSecondsPerMinute(.libcec)
            result.notes.append("cec-client -m, by thread: \(client.summary())")
        } else {
            result.row("libcec alone: cec-client -m", "n/a", comparison: outcome.cecClientProblem ?? "")
        }
        return result
    }
}
