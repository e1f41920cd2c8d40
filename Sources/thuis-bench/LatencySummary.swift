/// Percentiles of a latency sample, in milliseconds.
struct LatencySummary: Codable, Sendable {
    var count: Int
    var p1: Double
    var p50: Double
    var p90: Double
    var p99: Double
    var max: Double
    var mean: Double

    init(milliseconds samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let index = Int((q * Double(sorted.count - 1)).rounded())
            return sorted[Swift.min(Swift.max(index, 0), sorted.count - 1)]
        }
        p1 = quantile(0.01)
        p50 = quantile(0.5)
        p90 = quantile(0.9)
        p99 = quantile(0.99)
        max = sorted.last ?? .nan
        mean = sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count)
    }
}

extension Duration {
    var milliseconds: Double {
        let c = components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }
}
