import Foundation
import Synchronization
import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    @Suite struct ControlTests {
        @Test func unplugRemovesTheLinkAndReplugServesAgain() throws {
            let f = try EmulatorFixture()
            let firstDevice = try #require(f.emulator.devicePath)
            f.emulator.unplug()
            #expect(!FileManager.default.fileExists(atPath: f.link))
            #expect(f.emulator.devicePath == nil)
            try f.emulator.replug()
            #expect(FileManager.default.fileExists(atPath: f.link))
            let host = try HostPort(path: f.link)
            let answer = host.transact(SerialFrame(.request, 0x15))
            #expect(answer.ack == .ack)
            #expect(answer.frames.first?.function == 0x15)
            #expect(f.emulator.devicePath != nil)
            _ = firstDevice
        }

        @Test func waitForHostFrameSeesTheSendDataWithItsDestination() async throws {
            let f = try EmulatorFixture()
            let since = f.emulator.hostFrameCount
            f.host.send(SerialFrame(.request, 0x13, [0x03, 0x02, 0x25, 0x02, 0x25, 0x11]))
            f.host.send(SerialFrame(.request, 0x13, [0x02, 0x03, 0x26, 0x01, 0x20, 0x25, 0x12]))
            // Whether or not the frames have arrived yet: `since` covers both.
            let event = try #require(
                await f.emulator.waitForHostFrame(since: since, timeout: .seconds(30)) { $0.destinationNode == 2 })
            #expect(event.command == [0x26, 0x01, 0x20])
            #expect(event.index == 1)
            let none = await f.emulator.waitForHostFrame(timeout: .milliseconds(200)) { $0.destinationNode == 9 }
            #expect(none == nil)
        }

        @Test func hostFrameStreamDeliversFramesInOrder() async throws {
            let f = try EmulatorFixture()
            let stream = f.emulator.hostFrameStream()
            f.host.send(SerialFrame(.request, 0x15))
            f.host.send(SerialFrame(.request, 0x20))
            var functions: [UInt8] = []
            for await event in stream {
                functions.append(event.frame.function)
                if functions.count == 2 { break }
            }
            #expect(functions == [0x15, 0x20])
        }

        @Test func controlLinesDriveTheEmulator() throws {
            let f = try EmulatorFixture()
            #expect(f.emulator.execute("press 2 s1 double") == "ok")
            #expect(f.emulator.level(node: 2) == 99)
            #expect(f.emulator.execute("toggle 3 5") == "ok")
            #expect(f.emulator.switchState(node: 3, endpoint: 5) == true)
            #expect(f.emulator.execute("dead 3 on") == "ok")
            #expect(f.emulator.execute("load 3 1 42") == "ok")
            #expect(f.emulator.execute("press 3 s1 single").hasPrefix("error"))
            #expect(f.emulator.execute("press 2 s3 single").hasPrefix("error"))
            #expect(f.emulator.execute("dead 2 maybe").hasPrefix("error"))
            #expect(f.emulator.execute("").hasPrefix("error"))
            #expect(f.emulator.execute("raw zz").hasPrefix("error"))
            #expect(f.emulator.execute("state 2") == "level 99")
            // Absurd loads are clamped, never a crash.
            #expect(f.emulator.execute("load 2 1 inf") == "ok")
            #expect(f.emulator.execute("load 3 2 nan") == "ok")
            #expect(f.emulator.execute("load 3 2 -5") == "ok")
        }

        @Test func theControlFIFOAcceptsLines() async throws {
            let f = try EmulatorFixture()
            let results = ResultLog()
            let channel = try EmulatorControlChannel(path: f.link + ".ctl", emulator: f.emulator) { line, result in
                results.append("\(line) -> \(result)")
            }
            defer { channel.close() }
            let fifo = try #require(FileHandle(forWritingAtPath: f.link + ".ctl"))
            fifo.write(Data("press 2 s1 single\nnonsense\n".utf8))
            try fifo.close()
            let deadline = Date().addingTimeInterval(3)
            while results.lines.count < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(results.lines == ["press 2 s1 single -> ok", "nonsense -> error: unknown command nonsense"])
            #expect(f.emulator.level(node: 2) == 99)
        }
    }
}

/// Lines collected from another thread.
final class ResultLog: Sendable {
    private let items = Mutex<[String]>([])

    func append(_ line: String) { items.withLock { $0.append(line) } }

    var lines: [String] { items.withLock { $0 } }
}
