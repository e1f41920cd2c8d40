import CZWaveShim
import Foundation
import Testing
import ZWaveEmulator

@testable import ZWaveDriver

extension OpenZWaveSuite {
    /// The real libopenzwave through the driver against the project's stick emulator (FGD212 node 2,
    /// PowerNode 6 node 3).
    @Suite struct DriverEmulatorIntegrationTests {
        static let dimmer = NodeID(2)
        static let powerNode = NodeID(3)

        static func network() -> NetworkDescription {
            NetworkDescription(nodes: [
                NodeDescription(id: 2, kind: .fgd212, name: "dimmer", level: 0, loads: [60], sceneActivation: true),
                NodeDescription(
                    id: 3, kind: .powernode6, name: "powernode",
                    switches: [true, true, true, true, false, false], loads: [10, 25.5, 0, 120, 5, 0]),
            ])
        }

        @Test("ready, all nodes queried, setLevel and setSwitch reach the emulated devices and come back as events")
        func interviewAndCommands() async throws {
            let context = try ZWaveTestContext(readyTimeout: .seconds(60), makePTY: false)
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: Self.network())
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }

            let started = ContinuousClock.now
            try await context.withRunningDriver {
                let ready = await context.events.wait(timeout: .seconds(60)) { $0.contains { $0.isDriverReady } }
                try #require(ready, "no driverReady; events: \(context.events.all)")
                context.note("emulator: run() -> driverReady \(ContinuousClock.now - started)")
                let queried = await context.events.wait(timeout: .seconds(60)) {
                    $0.contains(.allNodesQueried(someDead: false))
                }
                try #require(queried, "no allNodesQueried; events: \(context.events.all.suffix(20))")
                context.note("emulator: run() -> allNodesQueried \(ContinuousClock.now - started)")
                let readyNodes = Set(
                    context.events.all.compactMap { event -> NodeID? in
                        if case .nodeReady(let node) = event { node } else { nil }
                    })
                #expect(readyNodes.isSuperset(of: [Self.dimmer, Self.powerNode]))

                let info = try await context.driver.nodeInfo(Self.dimmer)
                #expect(info.manufacturerID.lowercased().contains("010f"), "\(info)")
                #expect(info.queryStage == "Complete")
                #expect(info.isListening)
                #expect(!info.isFailed)
                #expect(info.productName == "FGD212 Dimmer 2", "\(info)")

                // Dimmer: level 40 on the emulated FGD212, and the change comes back as a value event.
                let dimmerLevel = try #require(
                    await context.driver.valueID(
                        for: ZWaveValueKey(node: Self.dimmer, commandClass: 0x26, instance: 1, index: 0)))
                #expect(dimmerLevel.type == .byte)
                let commanded = ContinuousClock.now
                try await context.driver.setLevel(node: Self.dimmer, instance: 1, level: 40)
                let reached = await context.events.wait(timeout: .seconds(10)) { _ in
                    emulator.level(node: 2) == 40
                }
                #expect(reached, "emulated level is \(String(describing: emulator.level(node: 2)))")
                let echoed = await context.events.wait(timeout: .seconds(10)) { events in
                    events.contains { event in
                        if case .valueChanged(let value) = event {
                            value.id.key == dimmerLevel.key && value.content == .byte(40)
                        } else {
                            false
                        }
                    }
                }
                #expect(echoed, "no valueChanged 40 for the dimmer")
                context.note("emulator: setLevel -> valueChanged \(ContinuousClock.now - commanded)")
                let cached = try await context.driver.read(dimmerLevel)
                #expect(cached.content == .byte(40))

                // PowerNode socket 3 on, socket 4 off; the others untouched.
                try await context.driver.setSwitch(node: Self.powerNode, instance: 3, on: true)
                try await context.driver.setSwitch(node: Self.powerNode, instance: 4, on: false)
                let switched = await context.events.wait(timeout: .seconds(10)) { _ in
                    emulator.switchState(node: 3, endpoint: 3) == true
                        && emulator.switchState(node: 3, endpoint: 4) == false
                }
                #expect(switched)
                #expect(emulator.switchState(node: 3, endpoint: 1) == true)
                #expect(emulator.switchState(node: 3, endpoint: 5) == false)

                // Configuration: parameter 28 (scene activation) read back as a config value.
                try await context.driver.requestConfigParameter(node: Self.dimmer, parameter: 28)
                let param = await context.events.wait(timeout: .seconds(10)) { events in
                    events.contains { event in
                        switch event {
                        case .valueChanged(let v), .valueRefreshed(let v):
                            v.id.node == Self.dimmer && v.id.genre == .config && v.id.index == 28
                        default: false
                        }
                    }
                }
                #expect(param, "no config value 28 from the dimmer")

                // A value the node does not have is a typed error naming the node.
                do throws(ZWaveError) {
                    try await context.driver.setSwitch(node: Self.dimmer, instance: 7, on: true)
                    Issue.record("setSwitch on a dimmer succeeded")
                } catch {
                    #expect(error.code == .valueNotFound)
                    #expect(error.node == Self.dimmer)
                }
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: context.statePath)
            #expect(files.contains("ozwcache_0xc0ffee01.xml"), "state dir: \(files)")

            // Restart on the cache: ready and all nodes queried again, with fewer host frames.
            let framesFirst = emulator.hostFrameCount
            let second = context.makeDriver()
            let secondEvents = Recorder<ZWaveEvent>()
            let restarted = ContinuousClock.now
            let stopTook = try await context.withRunningDriver(second, recording: secondEvents) {
                let queried = await secondEvents.wait(timeout: .seconds(60)) {
                    $0.contains(.allNodesQueried(someDead: false))
                }
                #expect(queried, "no allNodesQueried on the cached restart")
                context.note("emulator cached restart: run() -> allNodesQueried \(ContinuousClock.now - restarted)")
                // The level survived in the device and is read back.
                let level = await second.valueID(
                    for: ZWaveValueKey(
                        node: Self.dimmer, commandClass: 0x26,
                        instance: 1, index: 0))
                let id = try #require(level)
                #expect(try await second.read(id).content == .byte(40))
            }
            context.note(
                "emulator: stop \(stopTook); host frames first run \(framesFirst), second run \(emulator.hostFrameCount - framesFirst)"
            )
        }

        @Test("no stick at start: adapterLost at once (the port does not exist), once; picked up when it appears")
        func startWithoutStick() async throws {
            let readyTimeout = Duration.seconds(2)
            let context = try ZWaveTestContext(
                readyTimeout: readyTimeout, restartBackoff: .milliseconds(500), makePTY: false)
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: Self.network())
            defer { emulator.stop() }

            let started = ContinuousClock.now
            try await context.withRunningDriver {
                let lost = await context.events.wait(timeout: .seconds(30)) { $0.contains { $0.isAdapterLost } }
                try #require(lost, "no adapterLost without a stick; events: \(context.events.all)")
                context.note("emulator: no stick -> adapterLost \(ContinuousClock.now - started)")
                // At once, for the missing port: had it waited for the ready timeout, the reason would be that.
                if case .adapterLost(let reason)? = context.events.all.first(where: { $0.isAdapterLost }) {
                    #expect(reason.contains("\(context.portPath) does not exist"), "\(reason)")
                }
                // Nothing is handed to OpenZWave while the port is missing, and the outage is not reported again
                // when the ready timeout would have passed.
                let again = await context.events.wait(timeout: readyTimeout * 2) {
                    $0.filter(\.isAdapterLost).count > 1
                }
                #expect(!again, "adapterLost reported twice: \(context.events.all)")
                #expect(!context.logLines.all.contains { $0.message == "Z-Wave driver added" })

                try emulator.start(link: context.portPath)
                await context.expectRecovery(after: "plugged in")
                let queried = await context.events.wait(timeout: .seconds(30)) {
                    $0.contains(.allNodesQueried(someDead: false))
                }
                try #require(queried)
                #expect(context.events.all.filter(\.isAdapterLost).count == 1)
                try await context.driver.setLevel(node: Self.dimmer, level: 30)
                #expect(await context.events.wait(timeout: .seconds(10)) { _ in emulator.level(node: 2) == 30 })
            }
        }

        /// Quiet when idle: at rest the driver's watchdog does not run (it runs when the port's
        /// path changes, the phase changes or a deadline of the phase comes, never on a period), and the unplug,
        /// the port's link vanishing, is what wakes it.
        @Test(
            "unplugged stick: adapterLost, the driver is re-added until the port is back, then adapterRecovered; at rest before it the driver's queue runs nothing"
        )
        func unplugAndReplug() async throws {
            let context = try ZWaveTestContext(
                readyTimeout: .seconds(5), restartBackoff: .milliseconds(500),
                makePTY: false)
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: Self.network())
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }

            try await context.withRunningDriver {
                let queried = await context.events.wait(timeout: .seconds(30)) {
                    $0.contains(.allNodesQueried(someDead: false))
                }
                try #require(queried)
                // The network at rest: no frame from the host for a second (the last reads after the queries).
                var frames = emulator.hostFrameCount
                var quietSince = ContinuousClock.now
                while ContinuousClock.now - quietSince < .seconds(1) {
                    try await Task.sleep(for: .milliseconds(50))
                    if emulator.hostFrameCount != frames {
                        frames = emulator.hostFrameCount
                        quietSince = .now
                    }
                }
                let jobs = context.driver.executorJobs
                // The window observed (not a synchronisation): nothing happens in it. A watchdog on a 100 ms period
                // runs ten times in it.
                try await Task.sleep(for: .seconds(1))
                #expect(context.driver.executorJobs - jobs <= 1, "the driver's queue ran jobs in a second at rest")

                emulator.unplug()
                let unplugged = ContinuousClock.now
                let lost = await context.events.wait(timeout: .seconds(10)) { $0.contains { $0.isAdapterLost } }
                #expect(lost, "no adapterLost after unplug; events: \(context.events.all.suffix(10))")
                context.note("emulator: unplug -> adapterLost \(ContinuousClock.now - unplugged)")
                #expect(await context.driver.isReady == false)
                do throws(ZWaveError) {
                    try await context.driver.setLevel(node: Self.dimmer, level: 10)
                    Issue.record("setLevel succeeded while the adapter is lost")
                } catch {
                    #expect(error.code == .notReady)
                }

                try emulator.replug()
                await context.expectRecovery(after: "replug")
                let readyAgain = await context.events.wait(timeout: .seconds(30)) {
                    $0.filter { $0 == .allNodesQueried(someDead: false) }.count >= 2
                }
                #expect(readyAgain)
                try await context.driver.setLevel(node: Self.dimmer, level: 25)
                #expect(await context.events.wait(timeout: .seconds(10)) { _ in emulator.level(node: 2) == 25 })
            }
        }

        /// User commands first (a library patch): OpenZWave queues the Gets of a node's Dynamic query stage (Switch
        /// Multilevel, Meter, Notification...) all at once on the queue a Set goes on, so a Set queued behind them
        /// waits for every one of their transactions. The radio is held in the middle of them (the first Meter Get
        /// of the dimmer's interview in flight, the rest queued), a Set is queued, the radio released: with the patch
        /// applied the next frame at the stick is the Set and the queries come after it; with the gate refusing (a
        /// library version the patches were not written for) OpenZWave runs as shipped: the Set still reaches the
        /// dimmer, after a query.
        @Test(
            "a Set queued while the start-up queries wait: right after the transaction in flight when the patch applies",
            arguments: [true, false])
        func setGoesBeforeQueuedQueries(patched: Bool) async throws {
            let context = try ZWaveTestContext(
                readyTimeout: .seconds(60), makePTY: false, patchesWrittenFor: patched ? nil : "1.6.9999")
            defer { context.close() }
            let emulator = ZWaveStickEmulator(network: Self.network())
            try emulator.start(link: context.portPath)
            defer { emulator.stop() }
            #expect(zw_send_msg_interposed(), "the executable's Driver::SendMsg is not the one libopenzwave calls")

            try await context.withRunningDriver {
                // Meter Get (0x32 0x01) to the dimmer: only its interview's Dynamic stage sends it.
                let held = await emulator.holdRadio(
                    startingWith: { $0.carries(0x32, 0x01, to: 2) }, timeout: .seconds(30))
                let inFlight = try #require(held, "the dimmer's interview sent no Meter Get")
                let patches = await context.driver.libraryPatches
                #expect(patches.libraryVersion == LibraryPatches.writtenFor)
                #expect(patches.active == (patched ? LibraryPatches.Patch.allCases : []), "\(patches)")
                let promoted = zw_user_commands_promoted()
                try await context.driver.setLevel(node: Self.dimmer, level: 42)
                if patched {
                    #expect(zw_user_commands_promoted() > promoted, "the Set's messages were not moved ahead")
                } else {
                    #expect(zw_user_commands_promoted() == promoted, "a message was moved although the gate refused")
                }
                emulator.releaseRadio()

                guard patched else {
                    let next = await emulator.waitForHostFrame(timeout: .seconds(10)) { $0.destinationNode != nil }
                    let first = try #require(next, "nothing sent after the transaction in flight")
                    #expect(first.multilevelSetLevel(node: 2) != 42, "the Set went first without the patch")
                    #expect(await context.events.wait(timeout: .seconds(60)) { _ in emulator.level(node: 2) == 42 })
                    return
                }
                let next = await emulator.waitForHostFrame(timeout: .seconds(10)) { $0.destinationNode != nil }
                let first = try #require(next, "nothing sent after the transaction in flight")
                #expect(first.index > inFlight.index)
                #expect(
                    first.multilevelSetLevel(node: 2) == 42,
                    "the first frame after the one in flight was \(first), not the Set")
                // The queries were there: the dimmer's other Meter Get follows the Set.
                let query = await emulator.waitForHostFrame(timeout: .seconds(10)) { $0.carries(0x32, 0x01, to: 2) }
                #expect(query != nil, "no queued Meter Get to the dimmer followed the Set")
                #expect(await context.events.wait(timeout: .seconds(10)) { _ in emulator.level(node: 2) == 42 })
            }
        }
    }
}
