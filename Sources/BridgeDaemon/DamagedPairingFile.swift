import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// A HomeKit pairing file that cannot be parsed (truncated, garbage): moved aside to
/// `<file>.damaged-<UTC time>` (`homekit.json.damaged-20261129T041500Z`), never deleted. While such a copy exists and
/// no new pairing file does, the bridge runs without HomeKit (it does not make a new identity, which would silently
/// break every pairing in the user's Home) until `thuis-bridge homekit reset` makes a new one.
public enum DamagedPairingFile {
    /// The damaged copies of `path` beside it, oldest first (the names sort by time).
    public static func copies(of path: String) -> [String] {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "/" : directory)) ?? []
        return names.filter { $0.hasPrefix(name + ".damaged-") }.sorted().map {
            slash == nil ? $0 : "\(directory)/\($0)"
        }
    }

    /// Renames `path` to `<path>.damaged-<UTC time of secondsSince1970>`; returns the new name, or why it could not.
    public static func moveAside(_ path: String, secondsSince1970: Double) -> Result<String, MoveFailure> {
        DamagedFile.moveAside(path, secondsSince1970: secondsSince1970).mapError { MoveFailure(reason: $0.reason) }
    }

    /// Why a damaged file could not be moved aside.
    public struct MoveFailure: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }
}
