import ArgumentParser
import BridgeCore
internal import SystemSupport

/// `thuis-bridge devices`: a table of every node and CEC device the running bridge knows.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List every device the running bridge knows.")

    @OptionGroup var options: ClientOptions

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let inventory = try await connection.request("devices")
            ClientRunner.standardOutput(Self.table(inventory))
            // A bridge without Z-Wave answers `network` with an error: then there is no library to report.
            if let network = try? await connection.request("network") {
                ClientRunner.standardOutput(Self.libraryLine(network))
            }
        }
    }

    /// "OpenZWave 1.6.1914, patches: user-commands-first, ..." or "..., patches: none (why)".
    static func libraryLine(_ network: JSONValue) -> String {
        guard case .string(let version)? = network["openzwave"] else { return "" }
        var patches: [String] = []
        if case .array(let active)? = network["patches"] {
            patches = active.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
        var refusal = ""
        if case .string(let why)? = network["patches_refused"] { refusal = " (\(why))" }
        let list = patches.isEmpty ? "none" : patches.joined(separator: ", ")
        return "\nOpenZWave \(version), patches: \(list)\(refusal)\n"
    }

    static let headers = ["NODE", "PRODUCT", "DEVICE", "INTERVIEW", "ALIVE", "LAST SEEN"]

    /// One row per device, aligned columns.
    static func table(_ inventory: JSONValue) -> String {
        guard case .array(let devices) = inventory else { return "the bridge sent no inventory\n" }
        return TextTable.render(headers, devices.map(row))
    }

    static func row(_ device: JSONValue) -> [String] {
        func text(_ key: String) -> String? {
            switch device[key] {
            case .string(let s)?: s.isEmpty ? nil : s
            case .int(let n)?: String(n)
            case .bool(let b)?: b ? "yes" : "no"
            default: nil
            }
        }
        var node = "-"
        if let number = text("node") {
            node = number + (text("instance").map { ".\($0)" } ?? "")
        } else if let logical = text("logical_address") {
            node = "cec \(logical)"
        }
        let product = [text("manufacturer"), text("product")].compactMap { $0 }.joined(separator: " ")
        let place = "\(text("room") ?? "?")/\(text("name") ?? "?")"
        return [
            node, product.isEmpty ? "-" : product, place,
            text("interview_stage") ?? "-", text("alive") ?? "-", text("last_seen") ?? "-",
        ]
    }
}
