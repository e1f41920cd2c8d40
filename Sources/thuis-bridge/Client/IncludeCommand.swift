import ArgumentParser
import BridgeCore

/// `thuis-bridge include [--timeout 60] [--secure]`: inclusion mode on the running bridge, with live
/// progress; prints the new node's manufacturer, product and a ready-to-paste devices.toml stanza.
/// Ctrl-C cancels the inclusion on the controller before exiting.
struct IncludeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "include", abstract: "Add a Z-Wave device (inclusion mode on the running bridge).",
        discussion: "Exit 0 when a device joined, 1 when none joined in time, it failed or was cancelled (Ctrl-C).")

    @OptionGroup var options: ClientOptions
    @Option(help: "Seconds to wait for a device to join (1-600).") var timeout: Int = 60
    @Flag(help: "Include with S0 security (needs [zwave] network_key_file).") var secure = false

    var request: ClientRequest { ClientRequest(.include, [("timeout_s", .int(timeout)), ("secure", .bool(secure))]) }

    func validate() throws { try request.validate() }

    /// The bridge bounds the interview by 60 s after the device joined.
    static let interviewAllowance: Duration = .seconds(75)

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let data = try await ControllerRequest.run(
                connection, command: request.command, arguments: request.arguments,
                timeout: .seconds(timeout) + Self.interviewAllowance, what: "inclusion")
            Self.printResult(data)
        }
    }

    static func printResult(_ data: JSONValue) {
        func text(_ key: String) -> String {
            if case .string(let s)? = data[key] { return s }
            return ""
        }
        let node = data["node"]?.serialized ?? "?"
        var out = "node \(node): \(text("manufacturer")) \(text("product"))\n"
        if text("interview") != "completed" {
            out +=
                "warning: the interview stopped at \"\(text("stage"))\"; basic control works, "
                + "`thuis-bridge refresh \(node)` retries it\n"
        }
        out += "\nAdd to devices.toml:\n\n" + text("stanza")
        ClientRunner.standardOutput(out)
    }
}
