internal import Glibc

/// Why ``AtomicFile/write(_:to:mode:)`` failed: the path and the C library's reason.
public struct AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}

/// Files replaced whole: a reader sees the old content or the new, never a part.
public enum AtomicFile {
    /// Writes `bytes` (permissions `mode`) to a new temporary file beside `path`, with a name of its own (process id and a random
    /// number), created exclusively and without following a link (`O_CREAT|O_EXCL|O_NOFOLLOW`) with `mode`; flushes
    /// it (`fsync`), renames it over `path` and flushes the directory, so the rename survives a power cut. On any
    /// failure the temporary file is removed and `path` is as it was.
    public static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o600) throws(AtomicFileError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
        guard descriptor >= 0 else { throw AtomicFileError(path: path, reason: "\(temporary): \(errorText())") }
        var written = 0
        var failure: String?
        if fchmod(descriptor, mode_t(mode)) != 0 { failure = errorText() }
        while failure == nil, written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno != EINTR { failure = errorText() }
            } else {
                written += count
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errorText() }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = errorText() }
        if let failure {
            unlink(temporary)
            throw AtomicFileError(path: path, reason: failure)
        }
        // The rename is done and cannot be undone: a directory that cannot be synced leaves the new file in place.
        let directory = Path.parent(path)
        let directoryDescriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
