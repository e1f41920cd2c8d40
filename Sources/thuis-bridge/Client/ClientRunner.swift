import ArgumentParser
import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// Runs a client command's body against the bridge and turns failures into a message on stderr and the
/// CLI's exit codes (1 failed or timed out, 2 usage or configuration error).
enum ClientRunner {
    static func run(_ options: ClientOptions, _ body: (BridgeConnection) async throws -> Void) async throws {
        do {
            let configuration = try options.load()
            try await BridgeConnection.with(configuration, body)
        } catch let error as ClientError {
            standardError(error.description)
            throw ExitCode(error.exitCode)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            standardError("\(error)")
            throw ExitCode(1)
        }
    }

    static func standardError(_ text: String) {
        writeStandardError(text + "\n")
    }

    /// Writes to stdout unbuffered, so a reader of a pipe sees progress as it happens; a closed pipe
    /// (`| head`) is ignored.
    static func standardOutput(_ text: String) {
        writeStandardOutput(text)
    }
}
