public import ArgumentParser
internal import Glibc
internal import SystemSupport

extension AsyncParsableCommand {
    /// Runs the command chosen on the command line; a usage error exits 2 (ArgumentParser's default is 64), as
    /// both executables document (0 success, 1 failed or timed out, 2 usage or configuration error).
    public static func mainExitingTwoOnUsageError() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                writeStandardError(fullMessage(for: error) + "\n")
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}
