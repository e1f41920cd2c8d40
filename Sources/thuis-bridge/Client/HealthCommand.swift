import ArgumentParser
import BridgeCore

/// `thuis-bridge health [<node>] [--frames 10]`: a health check of one node or every node in turn, with live
/// progress; prints each node's frames, round trips and rating.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health", abstract: "Check the links of one Z-Wave node, or of every node in turn.",
        discussion: "Sends NoOperation frames and rates each node 0-10 (failed frames weigh most, then the round trip)."
    )

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232); every node when omitted.") var node: Int?
    @Option(help: "NoOperation frames per node (1-100).") var frames: Int = BridgeRequest.defaultHealthFrames

    var request: ClientRequest {
        ClientRequest(.healthCheck, (node.map { [("node", JSONValue.int($0))] } ?? []) + [("frames", .int(frames))])
    }

    func validate() throws { try request.validate() }

    /// How long the bridge may take: a frame ends within seconds; every node of a full network at most.
    var timeout: Duration { node == nil ? .seconds(232 * frames * 10 + 60) : .seconds(frames * 10 + 60) }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let progress = ProgressLine()
            let data: JSONValue
            do {
                data = try await connection.request(request.command, request.arguments, timeout: timeout) { event in
                    progress.show(event)
                }
            } catch {
                progress.finish()
                throw error
            }
            progress.finish()
            ClientRunner.standardOutput(Self.table(data))
        }
    }

    /// One line per node: status, frames, round trips (ms), rating.
    static func table(_ data: JSONValue) -> String {
        guard case .array(let nodes)? = data["nodes"] else { return "no nodes tested\n" }
        func field(_ node: JSONValue, _ key: String) -> String {
            switch node[key] {
            case .int(let n)?: String(n)
            case .double(let d)?: String(d)
            case .string(let s)?: s
            default: "-"
            }
        }
        var out = "node  status    sent  acked  failed  rtt min/mean/max ms  rating\n"
        for node in nodes {
            let rtt = "\(field(node, "rtt_min_ms"))/\(field(node, "rtt_mean_ms"))/\(field(node, "rtt_max_ms"))"
            out +=
                [
                    field(node, "node").padded(4), field(node, "status").padded(8), field(node, "sent").padded(4),
                    field(node, "acknowledged").padded(5), field(node, "failed").padded(6), rtt.padded(19),
                    field(node, "rating") + (node["rating"] == .null ? "" : "/10"),
                ].joined(separator: "  ") + "\n"
        }
        return out
    }
}

extension String {
    /// The text left-aligned in `width` columns.
    fileprivate func padded(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
