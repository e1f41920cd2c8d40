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
        }
    }

    static let headers = ["NODE", "PRODUCT", "DEVICE", "INTERVIEW", "ALIVE", "LAST SEEN"]

    /// One row per device, aligned columns.
    static func table(_ inventory: JSONValue) -> String {
        guard case .array(let devices) = inventory else { return "the bridge sent no inventory\n" }
        let rows = devices.map(row)
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padded(toWidth: widths[index])
            }.joined(separator: "  ") + "\n"
        }
        return ([line(headers)] + rows.map(line)).joined()
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
