internal import Glibc

/// A state file the bridge reads back and cannot use (truncated, garbage): moved aside to
/// `<file>.damaged-<UTC time>`, never deleted, so the user can look at it and nothing the bridge writes next overwrites it.
public enum DamagedFile {
    /// Renames `path` to `<path>.damaged-<UTC time of secondsSince1970>`; returns the new name, or why it could not.
    public static func moveAside(_ path: String, secondsSince1970: Double) -> Result<String, MoveFailure> {
        let target = "\(path).damaged-\(Timestamp.compact(secondsSince1970: secondsSince1970))"
        guard rename(path, target) == 0 else {
            return .failure(MoveFailure(reason: "cannot rename it to \(target): \(String(cString: strerror(errno)))"))
        }
        return .success(target)
    }

    /// Why a damaged file could not be moved aside.
    public struct MoveFailure: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }
}
