import CZWaveShim
import Foundation
import Testing
import ZWaveDriver
import ZWaveEmulator

extension OpenZWaveSuite {
    /// OpenZWave 1.6 rewrites the whole network cache each time a node's queries complete; the driver defers
    /// those writes until the network is queried and then writes the cache once.
    @Suite struct CacheWriteDeferralTests {
        static func counts() -> (written: UInt64, skipped: UInt64) {
            var written: UInt64 = 0
            var skipped: UInt64 = 0
            zw_cache_write_counts(&written, &skipped)
            return (written, skipped)
        }

        @Test("OpenZWave's own cache writes wait until the network is queried; then the cache is written once")
        func cacheWrittenOnceTheNetworkIsQueried() async throws {
            #expect(zw_cache_writes_interposed(), "libopenzwave's Driver::WriteCache calls do not reach the shim")
            let context = try ZWaveTestContext(readyTimeout: .seconds(20), makePTY: false)
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: DriverEmulatorIntegrationTests.network())
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }
            let before = Self.counts()

            try await context.withRunningDriver {
                let ready = await context.events.wait(timeout: .seconds(20)) { $0.contains { $0.isDriverReady } }
                try #require(ready, "no driverReady; events: \(context.events.all)")
                #expect(zw_cache_writes_deferred())
                let queried = await context.events.wait(timeout: .seconds(60)) {
                    $0.contains(.allNodesQueried(someDead: false)) || $0.contains(.awakeNodesQueried)
                }
                try #require(queried, "the network was not queried; events: \(context.events.all.suffix(20))")
                // The driver handles the notification (ends the deferral, writes) before publishing it.
                let after = Self.counts()
                #expect(!zw_cache_writes_deferred())
                #expect(after.skipped > before.skipped, "OpenZWave started no cache write of its own during the interviews")
                #expect(after.written == before.written + 1, "expected exactly one write, got \(after.written - before.written)")
                let files = try FileManager.default.contentsOfDirectory(atPath: context.statePath)
                #expect(files.contains { $0.hasPrefix("ozwcache_") && $0.hasSuffix(".xml") }, "\(files)")
            }
        }
    }
}
