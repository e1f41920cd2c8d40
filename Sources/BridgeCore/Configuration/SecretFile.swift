internal import SystemSupport

/// A file that holds a secret (the Z-Wave network key, the dashboard's token): it must be readable, and neither its
/// group nor others may have any permission on it (`chmod 600`, owned by the bridge's user).
enum SecretFile {
    /// The file's text, once it is known to be private; `Problem` says what is wrong with it.
    static func read<Problem: SecretFileProblem>(_ path: String, _: Problem.Type) throws(Problem) -> String {
        let text: String
        do {
            text = try readTextFile(path)
        } catch {
            throw .unreadable(error.description)
        }
        if let permissions = filePermissions(path), permissions & 0o077 != 0 {
            throw .exposed(permissions)
        }
        return text
    }

    /// Why an exposed file is refused: `secret` is what it holds ("the network key").
    static func exposedMessage(_ mode: UInt32, secret: String) -> String {
        "its group or others may access it (mode 0\(String(mode, radix: 8))): only the bridge's user may read "
            + "\(secret) (chmod 600, owned by that user)"
    }
}

/// What is wrong with a file that holds a secret (the errors of the secrets read through ``SecretFile``).
protocol SecretFileProblem: Error {
    /// The file cannot be read (the reason in words).
    static func unreadable(_ reason: String) -> Self
    /// Its group or others have permissions (the mode bits).
    static func exposed(_ mode: UInt32) -> Self
}

extension ZWaveNetworkKeyError: SecretFileProblem {}
extension DashboardTokenError: SecretFileProblem {}
