/// The 0-10 rating of a node's link after a `health_check`: failed frames weigh most, then the round trip.
///
/// `rating = 10 − failures − slowness`, at least 0, where
/// - failures = ⌈20 × failed ÷ sent⌉: each tenth of the frames lost costs 2 points (half of them lost: 0);
/// - slowness, from the mean round trip of the acknowledged frames: under 100 ms 0, under 250 ms 1, under
///   500 ms 2, under 1 s 3, else 4.
/// No frame acknowledged: 0.
public enum HealthRating {
    /// The rating of `sent` frames of which `failed` were not acknowledged, the others after `meanRTT`
    /// milliseconds on average (nil: none acknowledged); nil when nothing was sent.
    public static func rating(sent: Int, failed: Int, meanRTT: Double?) -> Int? {
        guard sent > 0 else { return nil }
        let failed = min(max(failed, 0), sent)
        guard failed < sent, let meanRTT else { return 0 }
        let failures = (20 * failed + sent - 1) / sent
        return max(0, 10 - failures - slowness(meanRTT))
    }

    /// The points a mean round trip of `milliseconds` costs.
    public static func slowness(_ milliseconds: Double) -> Int {
        switch milliseconds {
        case ..<100: 0
        case ..<250: 1
        case ..<500: 2
        case ..<1000: 3
        default: 4
        }
    }
}
