import ArgumentParser
import BridgeCore

/// `thuis-bridge refresh <node>`: re-interviews a node (e.g. after an interview that did not finish).
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Re-interview a Z-Wave node through the running bridge.")

    @OptionGroup var options: ClientOptions
    @Argument(help: "The node id (1-232).") var node: Int

    var request: ClientRequest { ClientRequest(.refresh, [("node", .int(node))]) }

    func validate() throws { try request.validate() }

    func run() async throws {
        try await ClientRunner.run(options) { connection in
            let progress = ProgressLine()
            // The bridge bounds the interview by 60 s (the request's default); on top of it the same allowance as
            // an inclusion's, for a bridge busy with other work (a loaded machine answered after more than 75 s).
            let answerWithin = Duration.seconds(BridgeRequest.defaultTimeout) + IncludeCommand.interviewAllowance
            let data = try await connection.request(request.command, request.arguments, timeout: answerWithin) {
                progress.show($0)
            }
            progress.finish()
            guard case .string("completed")? = data["interview"] else {
                throw ClientError.failed(
                    command: "refresh",
                    reason: "the interview of node \(node) stopped at \(data["stage"]?.serialized ?? "?")")
            }
            IncludeCommand.printResult(data)
        }
    }
}
