import Foundation
import TestSupport

/// Runs `python` with `arguments` on a thread of its own, `input` on its standard input: its exit status, standard
/// output and standard error (-1 and the reason when it cannot start).
func runPython(_ python: String, _ arguments: [String], input: Data? = nil) async -> (Int32, Data, Data) {
    await onThread { () -> (Int32, Data, Data) in
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let (stdin, output, errors) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return (-1, Data(), Data("\(error)".utf8))
        }
        if let input { stdin.fileHandleForWriting.write(input) }
        try? stdin.fileHandleForWriting.close()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }
}
