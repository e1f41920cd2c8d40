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
        p1 = Self.quantile(0.01, sorted: sorted)
        p50 = Self.quantile(0.5, sorted: sorted)
        p90 = Self.quantile(0.9, sorted: sorted)
        p99 = Self.quantile(0.99, sorted: sorted)
        max = sorted.last ?? .nan
        mean = sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count)
    }

    /// The `q` quantile (nearest rank) of samples in ascending order; NaN when there is none.
    static func quantile(_ q: Double, sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let index = Int((q * Double(sorted.count - 1)).rounded())
        return sorted[Swift.min(Swift.max(index, 0), sorted.count - 1)]
    }
}

extension Duration {
    var milliseconds: Double {
        let c = components
        return Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
    }
}
