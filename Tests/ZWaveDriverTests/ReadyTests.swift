import Foundation
import Testing
import ZWaveDriver

extension OpenZWaveSuite {
    /// A stick that answers the init chain (test-only `MiniStick`, the controller alone).
    @Suite struct ReadyTests {
        @Test("answering stick: driverReady with home and controller, cache written to the state dir, clean stop")
        func readyAndCache() async throws {
            let context = try ZWaveTestContext(readyTimeout: .seconds(60))
            defer { context.close() }
            let stick = MiniStick(pty: try #require(context.pty), answering: true)
            let started = ContinuousClock.now
            let stopTook = try await context.withRunningDriver {
                let ready = await context.events.wait(timeout: .seconds(60)) { $0.contains { $0.isDriverReady } }
                #expect(ready)
                let readyAfter = ContinuousClock.now - started
                #expect(context.events.all.contains(.driverReady(home: HomeID(0xC0FF_EE01), controller: NodeID(1))))
                context.note("mini stick: run() -> driverReady \(readyAfter)")
                #expect(stick.received.all.occurrences(of: getVersionFrame) == 1)

                // Commands need known values: a node the network does not have is named in the error.
                do throws(ZWaveError) {
                    try await context.driver.setSwitch(node: NodeID(9), on: true)
                    Issue.record("setSwitch on an unknown node succeeded")
                } catch {
                    #expect(error.code == .valueNotFound)
                    #expect(error.node == NodeID(9))
                }
                // The controller alone: once the library has queried every node, nothing waits to be sent.
                let queried = await context.events.wait(timeout: .seconds(20)) {
                    $0.contains { if case .allNodesQueried = $0 { true } else { false } }
                }
                #expect(queried, "no allNodesQueried; events: \(context.events.all)")
                let queued = try await context.driver.sendQueueCount()
                #expect(queued == 0, "\(queued) messages still queued with nothing left to send")

                try await context.driver.writeConfig()
                let files = try FileManager.default.contentsOfDirectory(atPath: context.statePath)
                #expect(files.contains("ozwcache_0xc0ffee01.xml"), "state dir: \(files)")
            }
            context.note("mini stick (ready): stop \(stopTook)")
            #expect(context.events.all.last == .driverRemoved)
        }
    }
}
