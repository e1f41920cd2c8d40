import CZWaveShim
import Foundation
import Testing
import ZWaveDriver
import ZWaveEmulator

extension OpenZWaveSuite {
    /// OpenZWave 1.6 rewrites the whole network cache each time a node's queries complete; with the library patches
    /// applied the driver defers those writes until the network is queried and then writes the cache once, and frees
    /// OpenZWave's per-node copies of the cache; with the gate refusing, OpenZWave writes and keeps them as shipped.
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
            let context = try ZWaveTestContext(readyTimeout: .seconds(60), makePTY: false)
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: DriverEmulatorIntegrationTests.network())
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }
            let before = Self.counts()

            try await context.withRunningDriver {
                let ready = await context.events.wait(timeout: .seconds(60)) { $0.contains { $0.isDriverReady } }
                try #require(ready, "no driverReady; events: \(context.events.all)")
                #expect(zw_cache_writes_deferred())
                let queried = await context.events.wait(timeout: .seconds(60)) {
                    $0.contains(.allNodesQueried(someDead: false)) || $0.contains(.awakeNodesQueried)
                }
                try #require(queried, "the network was not queried; events: \(context.events.all.suffix(20))")
                // The driver handles the notification (ends the deferral, writes) before publishing it.
                let after = Self.counts()
                #expect(!zw_cache_writes_deferred())
                #expect(
                    after.skipped > before.skipped, "OpenZWave started no cache write of its own during the interviews")
                #expect(
                    after.written == before.written + 1,
                    "expected exactly one write, got \(after.written - before.written)")
                let files = try FileManager.default.contentsOfDirectory(atPath: context.statePath)
                #expect(files.contains { $0.hasPrefix("ozwcache_") && $0.hasSuffix(".xml") }, "\(files)")
            }
        }

        static func cacheFiles(in context: ZWaveTestContext) -> [String] {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: context.statePath)) ?? []
            return files.filter { $0.hasPrefix("ozwcache_") && $0.hasSuffix(".xml") }
        }

        static func isQueried(_ event: ZWaveEvent) -> Bool {
            event == .allNodesQueried(someDead: false) || event == .allNodesQueried(someDead: true)
                || event == .awakeNodesQueried
        }

        /// Runs the driver against the two-node network on a slow radio (400 ms per transaction), which keeps the
        /// interviews, and so the deferral, going for many seconds; `body` runs once the driver is ready.
        static func whileInterviewing(
            _ context: ZWaveTestContext,
            _ body: (ZWaveStickEmulator, (written: UInt64, skipped: UInt64)) async throws -> Void
        )
            async throws
        {
            let emulator = ZWaveStickEmulator(
                network: DriverEmulatorIntegrationTests.network(),
                radioLatency: .milliseconds(400))
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }
            let before = counts()
            try await context.withRunningDriver {
                let ready = await context.events.wait(timeout: .seconds(60)) { $0.contains { $0.isDriverReady } }
                try #require(ready, "no driverReady; events: \(context.events.all)")
                try await body(emulator, before)
            }
        }

        @Test("a stick lost before the network is queried: OpenZWave's own write as the driver is removed goes through")
        func cacheWrittenWhenTheStickIsLostDuringTheDeferral() async throws {
            let context = try ZWaveTestContext(readyTimeout: .seconds(60), restartBackoff: .seconds(30), makePTY: false)
            defer { context.close() }
            try await Self.whileInterviewing(context) { emulator, before in
                #expect(zw_cache_writes_deferred())
                emulator.unplug()
                let lost = await context.events.wait(timeout: .seconds(10)) { $0.contains { $0.isAdapterLost } }
                try #require(lost, "no adapterLost after unplug; events: \(context.events.all.suffix(10))")
                try #require(
                    !context.events.all.contains(where: Self.isQueried),
                    "the network was queried before the unplug: the test proves nothing")
                // adapterLost is published as the driver starts removing the stick's driver: wait for the file.
                let written = await context.events.wait(timeout: .seconds(10)) { _ in
                    !Self.cacheFiles(in: context).isEmpty
                }
                #expect(written, "no network cache after losing the stick")
                #expect(!zw_cache_writes_deferred(), "the deferral outlived the driver")
                #expect(Self.counts().written > before.written, "no cache write as the driver was removed")
            }
        }

        @Test("a network that is never queried: the deferral ends at its limit and the cache is written")
        func cacheWrittenAtTheDeferralLimit() async throws {
            let context = try ZWaveTestContext(
                readyTimeout: .seconds(60), makePTY: false,
                cacheWriteDeferralLimit: .seconds(1))
            defer { context.close() }
            try await Self.whileInterviewing(context) { _, before in
                let ended = await context.events.wait(timeout: .seconds(10)) { _ in !zw_cache_writes_deferred() }
                try #require(ended, "the deferral did not end at its limit")
                try #require(
                    !context.events.all.contains(where: Self.isQueried),
                    "the network was queried before the limit: the test proves nothing")
                #expect(Self.counts().written > before.written, "no cache write at the deferral limit")
                #expect(!Self.cacheFiles(in: context).isEmpty, "no network cache after the deferral limit")
                #expect(
                    context.logLines.all.contains { $0.message == "network cache written" },
                    "no log line for the write at the limit")
            }
        }

        @Test(
            "a start from the cache: OpenZWave's per-node copies of it are freed, and the cache written after is whole")
        func nodeCacheCopiesFreed() async throws {
            let context = try ZWaveTestContext(readyTimeout: .seconds(60), makePTY: false)
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: DriverEmulatorIntegrationTests.network())
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }

            try await context.withRunningDriver {  // cold: no cache, nothing to free; the stop writes the cache
                let queried = await context.events.wait(timeout: .seconds(60)) { $0.contains(where: Self.isQueried) }
                try #require(queried, "the network was not queried; events: \(context.events.all.suffix(20))")
            }
            let file = try #require(Self.cacheFiles(in: context).first, "no cache after the first run")
            let path = context.statePath + "/" + file
            let cold = try String(contentsOfFile: path, encoding: .utf8)
            let before = zw_node_cache_copies_released()

            let events = Recorder<ZWaveEvent>()
            try await context.withRunningDriver(context.makeDriver(), recording: events) {
                let queried = await events.wait(timeout: .seconds(60)) { $0.contains(where: Self.isQueried) }
                try #require(queried, "the network was not queried from the cache; events: \(events.all.suffix(20))")
                #expect(
                    zw_node_cache_copies_released() == before + 3,
                    "expected the copies of nodes 1 (the controller), 2 and 3 freed")
            }
            // The stop wrote the cache again, from the nodes themselves: as whole as the first one.
            let warm = try String(contentsOfFile: path, encoding: .utf8)
            for needle in ["<Node id=\"2\"", "<Node id=\"3\"", "<CommandClass id=\"38\"", "<CommandClass id=\"96\""] {
                #expect(
                    warm.components(separatedBy: needle).count == cold.components(separatedBy: needle).count,
                    "\(needle) differs between the cold and the warm cache")
            }
            #expect(!context.logLines.all.contains { $0.message.contains("copies of the network cache are kept") })
        }

        @Test(
            "with the gate refusing (another library version): OpenZWave writes its cache as shipped, keeps its copies")
        func gateRefusedRunsOpenZWaveAsShipped() async throws {
            let context = try ZWaveTestContext(readyTimeout: .seconds(60), makePTY: false, patchesWrittenFor: "1.4.0")
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: DriverEmulatorIntegrationTests.network())
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }
            try await context.withRunningDriver {  // cold start: writes the cache for the warm start below
                let queried = await context.events.wait(timeout: .seconds(60)) { $0.contains(where: Self.isQueried) }
                try #require(queried, "the network was not queried; events: \(context.events.all.suffix(20))")
            }
            let before = Self.counts()
            let released = zw_node_cache_copies_released()
            let events = Recorder<ZWaveEvent>()
            try await context.withRunningDriver(context.makeDriver(), recording: events) {
                let ready = await events.wait(timeout: .seconds(60)) { $0.contains { $0.isDriverReady } }
                try #require(ready, "no driverReady; events: \(events.all)")
                #expect(!zw_cache_writes_deferred(), "deferred although the gate refused")
                let queried = await events.wait(timeout: .seconds(60)) { $0.contains(where: Self.isQueried) }
                try #require(queried, "the network was not queried from the cache; events: \(events.all.suffix(20))")
                #expect(Self.counts().skipped == before.skipped, "a write of OpenZWave's own was skipped")
                #expect(zw_node_cache_copies_released() == released, "copies freed although the gate refused")
            }
            #expect(Self.counts().written > before.written, "OpenZWave wrote no cache of its own")
            #expect(
                context.logLines.all.contains {
                    $0.message == "OpenZWave runs as shipped, without the bridge's patches"
                },
                "the refusal was not logged")
        }
    }
}
