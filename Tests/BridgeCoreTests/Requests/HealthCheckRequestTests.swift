import BridgeCore
import Testing

/// `health_check` and `network_stats` arguments, and the health rating's formula.
extension BridgeRequestTests {
    @Test func healthCheckTakesANodeAndOneToAHundredFrames() throws {
        #expect(try parse(.healthCheck, "{}") == .healthCheck(node: nil, frames: 10))
        #expect(try parse(.healthCheck, #"{"node":5,"frames":100}"#) == .healthCheck(node: 5, frames: 100))
        #expect(try parse(.healthCheck, #"{"frames":"1"}"#) == .healthCheck(node: nil, frames: 1))
        #expect(try failure(.healthCheck, #"{"frames":0}"#)?.contains("within 1...100, not 0") == true)
        #expect(try failure(.healthCheck, #"{"frames":101}"#)?.contains("within 1...100, not 101") == true)
        #expect(try failure(.healthCheck, #"{"frames":true}"#)?.contains("must be an integer") == true)
        #expect(try failure(.healthCheck, #"{"node":233}"#)?.contains("within 1...232") == true)
        #expect(try parse(.networkStats, "{}") == .networkStats)
        #expect(try failure(.networkStats, #"{"node":2}"#)?.contains("unknown argument") == true)
        #expect(BridgeRequest.Verb.healthCheck.changesNetwork)
        #expect(!BridgeRequest.Verb.networkStats.changesNetwork)
    }

    @Test func failedFramesWeighMostThenTheRoundTrip() throws {
        #expect(HealthRating.rating(sent: 0, failed: 0, meanRTT: nil) == nil)
        #expect(HealthRating.rating(sent: 10, failed: 0, meanRTT: 20) == 10)
        #expect(HealthRating.rating(sent: 10, failed: 1, meanRTT: 20) == 8)
        #expect(HealthRating.rating(sent: 20, failed: 1, meanRTT: 20) == 9)
        #expect(HealthRating.rating(sent: 10, failed: 3, meanRTT: 20) == 4)
        #expect(HealthRating.rating(sent: 10, failed: 5, meanRTT: 20) == 0)
        #expect(HealthRating.rating(sent: 10, failed: 10, meanRTT: nil) == 0)
        #expect(HealthRating.rating(sent: 10, failed: 0, meanRTT: 99.9) == 10)
        #expect(HealthRating.rating(sent: 10, failed: 0, meanRTT: 100) == 9)
        #expect(HealthRating.rating(sent: 10, failed: 0, meanRTT: 300) == 8)
        #expect(HealthRating.rating(sent: 10, failed: 0, meanRTT: 600) == 7)
        #expect(HealthRating.rating(sent: 10, failed: 0, meanRTT: 5_000) == 6)
        // Failed frames weigh most: losing half the frames rates 0, the slowest round trip alone costs 4 points.
        let halfLost = try #require(HealthRating.rating(sent: 10, failed: 5, meanRTT: 20))
        let slowest = try #require(HealthRating.rating(sent: 10, failed: 0, meanRTT: 60_000))
        #expect(halfLost < slowest)
        #expect(slowest == 6)
        #expect(HealthRating.rating(sent: 10, failed: 1, meanRTT: 5_000) == 4)
    }
}
