import BridgeCore
import ServiceLifecycle
import SystemSupport

/// Lets the house live: after `firstDelay`, then every 10-20 s (seeded), one action of `DemoHouse`,
/// printed in the feed. It is the first service to stop, so nothing happens while the bridge says goodbye.
struct DemoHouseService: Service {
    let house: DemoHouse
    let seed: UInt64
    let firstDelay: Duration
    let console: DemoConsole

    func run() async throws {
        var random = SeededRandom(seed: seed)
        var delay = firstDelay
        while true {
            let wait = delay
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            } catch {
                break
            }
            if let action = house.act(using: &random) { console.line(.house, action) }
            delay = .milliseconds(Int.random(in: 10_000...20_000, using: &random))
        }
    }
}
