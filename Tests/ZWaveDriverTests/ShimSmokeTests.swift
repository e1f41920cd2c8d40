internal import CZWaveShim
import Foundation
import Logging
import Testing

@testable import ZWaveDriver

extension OpenZWaveSuite {
    /// the shim starts OpenZWave against a pty with nothing behind it and stops cleanly.
    @Suite struct ShimSmokeTests {
        @Test("silent stick: GET_VERSION written, no DriverReady, log routed, clean stop")
        func silentStick() async throws {
            let cwdLog = FileManager.default.currentDirectoryPath + "/OZW_Log.txt"
            let cwdLogBefore = try? FileManager.default.attributesOfItem(atPath: cwdLog)[.modificationDate] as? Date
            let context = try ZWaveTestContext(readyTimeout: .seconds(60), logLevel: .debug)
            defer { context.close() }
            let stick = MiniStick(pty: try #require(context.pty), answering: false)

            let took = try await context.withRunningDriver {
                let wrote = await stick.received.wait(timeout: .seconds(15)) {
                    $0.occurrences(of: getVersionFrame) >= 1
                }
                #expect(wrote, "OpenZWave never wrote GET_VERSION; got \(stick.received.all.prefix(32))")

                // OpenZWave drops the unanswered GET_VERSION after 1 s and then waits forever.
                let dropped = await context.logLines.wait(timeout: .seconds(60)) {
                    $0.contains { $0.source == "OpenZWave" && $0.message.contains("Dropping command") }
                }
                #expect(dropped, "OpenZWave never gave up on GET_VERSION")
                #expect(!context.events.all.contains { $0.isDriverReady })
                #expect(await context.driver.isReady == false)
                // Routed: OpenZWave's info line arrives at debug, with source OpenZWave.
                #expect(
                    context.logLines.all.contains {
                        $0.source == "OpenZWave" && $0.level == .debug
                            && $0.message.contains("Added driver for controller")
                    }, "OpenZWave's log lines did not reach the logger")
            }
            context.note("silent stick: stop \(took)")
            // A starting driver is removed only after a bound (StartingDriverRemovalTests), and the log says so.
            #expect(
                context.logLines.all.contains {
                    $0.source == "OpenZWave" && $0.level == .warning && $0.message.contains("still starting after 3 s")
                }, "no warning that the silent stick's driver was removed while starting")
            #expect(zwManagerExists() == false)
            let cwdLogAfter = try? FileManager.default.attributesOfItem(atPath: cwdLog)[.modificationDate] as? Date
            #expect(cwdLogAfter == cwdLogBefore, "OpenZWave wrote OZW_Log.txt into the working directory")
            let stateFiles = (try? FileManager.default.contentsOfDirectory(atPath: context.statePath)) ?? []
            #expect(
                !stateFiles.contains { $0.lowercased().contains("log") }, "log file left in state dir: \(stateFiles)")
        }

        @Test("a second Manager in the process is refused with managerExists")
        func singleton() async throws {
            let context = try ZWaveTestContext(readyTimeout: .seconds(60))
            defer { context.close() }
            let stick = MiniStick(pty: try #require(context.pty), answering: false)
            try await context.withRunningDriver {
                #expect(await stick.received.wait(timeout: .seconds(15)) { !$0.isEmpty })
                let other = try ZWaveTestContext()
                defer { other.close() }
                do throws(ZWaveError) {
                    try await other.driver.run()
                    Issue.record("a second OpenZWave Manager started")
                } catch {
                    #expect(error.code == .managerExists)
                    #expect(error.call == "zw_manager_create")
                }
            }
        }

        @Test("commands outside run() fail with a typed error naming the call and node")
        func commandsWithoutRun() async throws {
            let context = try ZWaveTestContext()
            defer { context.close() }
            do throws(ZWaveError) {
                try await context.driver.setLevel(node: NodeID(5), level: 40)
                Issue.record("setLevel succeeded without a running driver")
            } catch {
                #expect(error.code == .notRunning)
                #expect(error.node == NodeID(5))
                #expect(error.call == "OpenZWave.setLevel")
            }
            do throws(ZWaveError) {
                try await context.driver.setLevel(node: NodeID(5), level: 150)
                Issue.record("setLevel accepted level 150")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }

        @Test("a missing config path is refused before OpenZWave starts, with the path in the error")
        func badConfigPath() async throws {
            let context = try ZWaveTestContext()
            defer { context.close() }
            let driver = OpenZWave(
                configuration: ZWaveDriverConfiguration(
                    port: context.portPath, userPath: context.statePath,
                    configPath: "/nonexistent/openzwave"),
                logger: context.logger)
            do throws(ZWaveError) {
                try await driver.run()
                Issue.record("run() started without a config path")
            } catch {
                #expect(error.code == .configPath)
                #expect(error.message.contains("/nonexistent/openzwave"))
            }
            #expect(zwManagerExists() == false)
        }
    }
}

/// Whether the shim sees an OpenZWave Manager in the process (`zw_manager_exists`).
func zwManagerExists() -> Bool { zw_manager_exists() }
