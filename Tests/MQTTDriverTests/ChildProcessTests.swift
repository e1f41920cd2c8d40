import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing

@Suite("ChildProcess test helper")
struct ChildProcessTests {
    @Test("captures stdout and stderr lines and the exit status")
    func capturesOutputAndExit() async throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"])
        let result = await child.waitForExit(timeout: .seconds(10))
        #expect(result == .exited(3))
        await child.waitForOutputEnd(timeout: .seconds(5))
        #expect(child.output.contains { $0.stream == .stdout && $0.text == "out" })
        #expect(child.output.contains { $0.stream == .stderr && $0.text == "err" })
    }

    @Test("a child writing megabytes never blocks, and signals end it")
    func drainsLargeOutputAndSignals() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh",
            arguments: ["-c", "head -c 4000000 /dev/zero | tr '\\0' 'x' | fold -w 100; echo; echo done; exec sleep 60"])
        // A bound against a hang: 40 000 lines take a while under AddressSanitizer with full stacks.
        let done = await child.waitForLine(timeout: .seconds(300)) { $0.text == "done" }
        #expect(done != nil)
        #expect(child.isRunning)
        child.kill()
        #expect(await child.waitForExit(timeout: .seconds(10)) == .signalled(SIGKILL))
    }

    @Test("the child starts with no blocked signals, so SIGTERM ends it")
    func sigtermIsNotBlocked() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "grep SigBlk /proc/self/status; exec sleep 600"])
        defer { child.kill() }
        let line = await child.waitForLine(timeout: .seconds(10)) { $0.text.hasPrefix("SigBlk") }
        #expect(line?.text.hasSuffix("0000000000000000") == true, "\(String(describing: line))")
        // SIGTERM alone (no SIGKILL follows it here), long before the child would end by itself.
        child.signal(SIGTERM)
        #expect(await child.waitForExit(timeout: .seconds(60)) == .signalled(SIGTERM))
    }

    @Test("runs in the given working directory with extra environment")
    func workingDirectoryAndEnvironment() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "pwd; echo $THUIS_TEST_VALUE"],
            environment: ["THUIS_TEST_VALUE": "forty two"], workingDirectory: directory.path)
        #expect(await child.waitForExit(timeout: .seconds(10)) == .exited(0))
        await child.waitForOutputEnd(timeout: .seconds(5))
        let resolved = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        #expect(child.output.map(\.text) == [resolved, "forty two"])
    }

    @Test("mosquitto is installed (the broker tests need it)")
    func mosquittoIsInstalled() throws {
        _ = try MosquittoBroker.locateBinary()
    }
}
