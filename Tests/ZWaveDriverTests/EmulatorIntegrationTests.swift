import Foundation
import Testing
import ZWaveDriver
import ZWaveEmulator

/// the real libopenzwave 1.6 (through CZWaveShim / OpenZWave) against the emulated
/// stick. Nested in the serialized `OpenZWaveSuite` because OpenZWave's Manager is a process singleton.
extension OpenZWaveSuite {
    @Suite struct EmulatorIntegrationTests {
        static let dimmer = NodeID(2)
        static let powerNode = NodeID(3)
        static let newNode = NodeID(10)

        /// The default network, with the joining node joining only when a test presses its button.
        static var network: NetworkDescription {
            var n = NetworkDescription.defaultNetwork
            n.nodes[2].joinAfter = nil
            return n
        }

        func waitForAllNodesQueried(_ ctx: EmulatorDriverContext, count: Int = 1) async -> Bool {
            await ctx.eventually(.seconds(60)) { ctx.events.count { $0.emulatorTestAllNodesQueried } >= count }
        }

        @Test("1: cold start and cached start reach AllNodesQueried with the right names; the cached one asks less")
        func coldAndCachedStart() async throws {
            let ctx = try EmulatorDriverContext(
                network: Self.network, latency: ZWaveStickEmulator.realisticRadioLatency)
            defer { ctx.close() }

            let cold = ctx.makeDriver()
            let coldStart = ContinuousClock.now
            try await ctx.withRunning(cold) {
                #expect(await waitForAllNodesQueried(ctx))
                let dimmer = try await cold.nodeInfo(Self.dimmer)
                #expect(dimmer.manufacturerName == "FIBARO System")
                #expect(dimmer.productName == "FGD212 Dimmer 2")
                let powerNode = try await cold.nodeInfo(Self.powerNode)
                #expect(powerNode.manufacturerName == "GreenWave Reality Inc")
                #expect(powerNode.productName == "PowerNode 6 port")
            }
            let coldTime = try #require(ctx.events.firstTime { $0.emulatorTestAllNodesQueried }) - coldStart
            let coldFrames = ctx.emulator.hostFrameCount
            let cache = try FileManager.default.contentsOfDirectory(atPath: ctx.statePath)
            #expect(cache.contains { $0.hasPrefix("ozwcache_") }, "no cache written: \(cache)")

            let cached = ctx.makeDriver()
            let cachedStart = ContinuousClock.now
            let before = ctx.events.all.count
            try await ctx.withRunning(cached) {
                #expect(await waitForAllNodesQueried(ctx, count: 2))
                let info = try await cached.nodeInfo(Self.dimmer)
                #expect(info.productName == "FGD212 Dimmer 2")
            }
            let cachedEvents = Array(ctx.events.all.dropFirst(before))
            #expect(cachedEvents.contains { $0.emulatorTestAllNodesQueried })
            let cachedFrames = ctx.emulator.hostFrameCount - coldFrames
            #expect(cachedFrames < coldFrames)
            let cachedDone = try #require(ctx.events.allTimes { $0.emulatorTestAllNodesQueried }.dropFirst().first)
            let cachedTime = cachedDone - cachedStart
            print(
                "EMULATOR-MEASURE 30 ms radio: cold \(coldTime.emulatorTestSeconds) s / \(coldFrames) host frames; "
                    + "cached \(cachedTime.emulatorTestSeconds) s / \(cachedFrames) host frames")
        }

        @Test("2: setting the dimmer's level changes the emulated level and the library sees it")
        func setLevel() async throws {
            let ctx = try EmulatorDriverContext(network: Self.network)
            defer { ctx.close() }
            let driver = ctx.makeDriver()
            try await ctx.withRunning(driver) {
                #expect(await waitForAllNodesQueried(ctx))
                try await driver.setLevel(node: Self.dimmer, instance: 1, level: 40)
                #expect(await ctx.eventually(.seconds(5)) { ctx.emulator.level(node: 2) == 40 })
                #expect(
                    await ctx.eventually(.seconds(5)) {
                        ctx.events.contains(where: {
                            if case .valueChanged(let v) = $0, v.id.node == Self.dimmer, v.id.commandClass == 0x26,
                                v.id.instance == 1, v.id.index == 0, v.content == .byte(40)
                            {
                                return true
                            }
                            return false
                        })
                    })
            }
        }

        @Test("3: inclusion adds and interviews the joining node; exclusion removes it; cancel is clean")
        func inclusionExclusionCancel() async throws {
            let ctx = try EmulatorDriverContext(network: Self.network)
            defer { ctx.close() }
            let driver = ctx.makeDriver()
            try await ctx.withRunning(driver) {
                #expect(await waitForAllNodesQueried(ctx))
                try await driver.include()
                #expect(await ctx.eventually(.seconds(5)) { ctx.emulator.isInclusionActive })
                #expect(ctx.emulator.pressNetworkButton(node: 10))
                #expect(await ctx.eventually(.seconds(10)) { ctx.events.contains(.nodeAdded(Self.newNode)) })
                #expect(await ctx.eventually(.seconds(15)) { ctx.events.contains(.nodeReady(Self.newNode)) })
                #expect(ctx.emulator.includedNodeIDs == [2, 3, 10])
                let info = try await driver.nodeInfo(Self.newNode)
                #expect(info.productName == "AN157 Plug-in Appliance Module")

                try await driver.exclude()
                #expect(await ctx.eventually(.seconds(5)) { ctx.emulator.isExclusionActive })
                #expect(ctx.emulator.pressNetworkButton(node: 10))
                #expect(await ctx.eventually(.seconds(10)) { ctx.events.contains(.nodeRemoved(Self.newNode)) })
                #expect(ctx.emulator.includedNodeIDs == [2, 3])

                let before = ctx.events.all.count
                try await driver.include()
                #expect(await ctx.eventually(.seconds(5)) { ctx.emulator.isInclusionActive })
                try await driver.cancelControllerCommand()
                #expect(await ctx.eventually(.seconds(5)) { !ctx.emulator.isInclusionActive })
                #expect(
                    await ctx.eventually(.seconds(5)) {
                        ctx.events.all.dropFirst(before).contains {
                            if case .controllerCommand(let u) = $0, u.state == .cancel { return true }
                            return false
                        }
                    })
                #expect(
                    !ctx.events.all.dropFirst(before).contains {
                        if case .nodeAdded = $0 { return true }
                        return false
                    })
                // Normal traffic flows again after the cancel.
                try await driver.setLevel(node: Self.dimmer, instance: 1, level: 12)
                #expect(await ctx.eventually(.seconds(5)) { ctx.emulator.level(node: 2) == 12 })
            }
        }

        @Test("4: an S2 click is scene 26; socket 4 load change with the real PowerNode framing lands on instance 1")
        func sceneAndMeter() async throws {
            let ctx = try EmulatorDriverContext(network: Self.network)
            defer { ctx.close() }
            let driver = ctx.makeDriver()
            try await ctx.withRunning(driver) {
                #expect(await waitForAllNodesQueried(ctx))
                #expect(ctx.emulator.pressButton(node: 2, button: .s2, .single))
                #expect(
                    await ctx.eventually(.seconds(5)) { ctx.events.contains(.sceneEvent(Self.dimmer, sceneID: 26)) })

                // Real firmware framing (60 0D 01 04 …): OpenZWave 1.6 reads the source endpoint only, so the
                // socket-4 report updates instance 1's W value (open-zwave#1700).
                #expect(ctx.emulator.setLoad(node: 3, endpoint: 4, watts: 345.6))
                #expect(
                    await ctx.eventually(.seconds(5)) {
                        ctx.events.contains(where: {
                            if case .valueChanged(let v) = $0, v.id.node == Self.powerNode, v.id.commandClass == 0x32,
                                v.id.index == 2, case .decimal(let w, _) = v.content, abs(w - 345.6) < 0.01
                            {
                                return v.id.instance == 1
                            }
                            return false
                        })
                    })
            }
        }

        @Test("4b: with the spec framing the socket-4 load change lands on instance 4")
        func meterSpecFraming() async throws {
            var network = Self.network
            network.nodes[1].realFraming = false
            let ctx = try EmulatorDriverContext(network: network)
            defer { ctx.close() }
            let driver = ctx.makeDriver()
            try await ctx.withRunning(driver) {
                #expect(await waitForAllNodesQueried(ctx))
                #expect(ctx.emulator.setLoad(node: 3, endpoint: 4, watts: 345.6))
                #expect(
                    await ctx.eventually(.seconds(5)) {
                        ctx.events.contains(where: {
                            if case .valueChanged(let v) = $0, v.id.node == Self.powerNode, v.id.commandClass == 0x32,
                                v.id.instance == 4, v.id.index == 2, case .decimal(let w, _) = v.content
                            {
                                return abs(w - 345.6) < 0.01
                            }
                            return false
                        })
                    })
            }
        }

        @Test("a NAK and a CAN from the stick make OpenZWave resend, and the start completes")
        func nakAndCanAreRecovered() async throws {
            let ctx = try EmulatorDriverContext(network: Self.network)
            defer { ctx.close() }
            ctx.emulator.nakNextFrame()
            let driver = ctx.makeDriver()
            try await ctx.withRunning(driver) {
                #expect(await waitForAllNodesQueried(ctx))
                let versions = ctx.emulator.receivedHostFrames.filter { $0.frame.function == SerialFunction.getVersion }
                #expect(versions.count == 2, "GET_VERSION resent after the NAK")
                ctx.emulator.canNextFrame()
                try await driver.setLevel(node: Self.dimmer, instance: 1, level: 55)
                #expect(await ctx.eventually(.seconds(5)) { ctx.emulator.level(node: 2) == 55 })
            }
        }

        @Test("5: a node that stops answering is marked dead, and alive again when it answers")
        func deadAndAlive() async throws {
            let ctx = try EmulatorDriverContext(network: Self.network)
            defer { ctx.close() }
            let driver = ctx.makeDriver(retryTimeout: .seconds(2))
            try await ctx.withRunning(driver) {
                #expect(await waitForAllNodesQueried(ctx))
                ctx.emulator.setDead(node: 2, true)
                for level: UInt8 in [10, 20, 30] {
                    try? await driver.setLevel(node: Self.dimmer, instance: 1, level: level)
                }
                #expect(await ctx.eventually(.seconds(30)) { ctx.events.contains(.nodeDead(Self.dimmer)) })
                #expect(ctx.emulator.level(node: 2) == 0, "a dead node must not act")
                ctx.emulator.setDead(node: 2, false)
                #expect(await ctx.eventually(.seconds(10)) { ctx.events.contains(.nodeAlive(Self.dimmer)) })
            }
        }
    }
}
