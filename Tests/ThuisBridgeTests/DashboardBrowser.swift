import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import Synchronization
import TestSupport

/// Where the tests' browser comes from: Debian's `chromium`, `chromium-driver` and `python3-selenium` (for
/// `/usr/bin/python3`, not a pyenv Python). Without them the browser tests are skipped, unless
/// `THUIS_REQUIRE_BROWSER=1` (CI), which makes them fail.
enum BrowserInstall {
    static let python = "/usr/bin/python3"
    static let harness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Dashboard/browser_harness.py").path

    static var isInstalled: Bool {
        let files = FileManager.default
        return files.isExecutableFile(atPath: "/usr/bin/chromium")
            && files.isExecutableFile(atPath: "/usr/bin/chromedriver")
            && files.isExecutableFile(atPath: python)
            && files.fileExists(atPath: "/usr/lib/python3/dist-packages/selenium")
    }

    static var isRequired: Bool { ProcessInfo.processInfo.environment["THUIS_REQUIRE_BROWSER"] == "1" }

    static let missing =
        "no headless browser: install Debian's chromium, chromium-driver and python3-selenium (apt-get install -y "
        + "chromium chromium-driver python3-selenium); THUIS_REQUIRE_BROWSER=1 makes this a failure"
}

/// Headless Chromium driven through the harness (Dashboard/browser_harness.py): one JSON command a line on its stdin,
/// one answer a line on its stdout. Its waits are WebDriverWaits on the page's own state, bounded by their timeout.
final class DashboardBrowser: Sendable {
    let process: ChildProcess
    private let lastID = Mutex(0)

    /// Starts the harness and waits until Chromium runs; returns its version.
    static func start() async throws -> (DashboardBrowser, version: String) {
        let process = try ChildProcess(
            executable: BrowserInstall.python, arguments: [BrowserInstall.harness], standardInput: true)
        let browser = DashboardBrowser(process: process)
        guard let line = await process.waitForLine(timeout: .seconds(60), where: { $0.text.hasPrefix("{\"id\": 0,") })
        else {
            _ = await process.stop(timeout: .seconds(5))
            throw TestSupportError("the browser harness did not start:\n\(process.outputText.suffix(3_000))")
        }
        let answer = try JSONValue.parse(Array(line.text.utf8))
        guard answer["ok"] == true, case .string(let version)? = answer["result"] else {
            _ = await process.stop(timeout: .seconds(5))
            throw TestSupportError("the browser did not start: \(answer["error"]?.serialized ?? line.text)")
        }
        return (browser, version)
    }

    private init(process: ChildProcess) { self.process = process }

    /// Runs `command` in the browser and returns its result; throws the harness's error (a timed-out wait says what
    /// the page showed).
    @discardableResult
    func run(_ command: String, _ arguments: [(String, JSONValue)] = [], timeout: Int = 30) async throws -> JSONValue {
        let id = lastID.withLock {
            $0 += 1
            return $0
        }
        let members: [(String, JSONValue)] =
            [("id", .int(id)), ("command", .string(command)), ("timeout", .int(TestTime.scaled(seconds: timeout)))]
            + arguments
        try process.writeInput(JSONValue.object(members).serialized + "\n")
        let prefix = "{\"id\": \(id),"
        guard
            let line = await process.waitForLine(
                timeout: .seconds(timeout + 30), where: { $0.stream == .stdout && $0.text.hasPrefix(prefix) })
        else {
            throw TestSupportError("the browser did not answer \(command):\n\(process.outputText.suffix(3_000))")
        }
        let answer = try JSONValue.parse(Array(line.text.utf8))
        guard answer["ok"] == true else {
            let reason = if case .string(let text)? = answer["error"] { text } else { line.text }
            throw TestSupportError("browser, \(command) \(JSONValue.object(arguments).serialized): \(reason)")
        }
        return answer["result"] ?? .null
    }

    /// The text of a result that is a string.
    func text(_ command: String, _ arguments: [(String, JSONValue)] = [], timeout: Int = 30) async throws -> String {
        guard case .string(let text) = try await run(command, arguments, timeout: timeout) else { return "" }
        return text
    }

    func stop() async {
        try? process.writeInput("{\"id\":999999,\"command\":\"quit\"}\n")
        if await process.waitForExit(timeout: .seconds(15)) == nil { _ = await process.stop(timeout: .seconds(5)) }
    }
}
