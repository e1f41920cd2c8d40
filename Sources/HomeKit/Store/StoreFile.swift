internal import Glibc
internal import SystemSupport

/// The pairing file on disk: read only when neither group nor others have permissions on it, written atomically
/// and durably in a directory created with mode 0700: a new temporary file of mode 0600 beside it (a random name,
/// created exclusively and never through a symbolic link), synced, renamed over the file, then the directory
/// synced. Writers are serialised by the caller (``HomeKitStore`` writes under its lock).
enum StoreFile {
    /// The file's bytes, or nil when it does not exist.
    static func read(_ path: String) throws(HomeKitStoreError) -> [UInt8]? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: reason())
        }
        let mode = UInt32(info.st_mode) & 0o7777
        guard mode & 0o077 == 0 else { throw .exposed(path: path, mode: mode) }
        guard info.st_mode & 0o170000 == 0o100000 else { throw .unreadable(path: path, reason: "not a regular file") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: reason()) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: reason())
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            guard bytes.count <= 1 << 20 else { throw .malformed(path: path, reason: "larger than 1 MiB") }
        }
        return bytes
    }

    static func write(_ bytes: [UInt8], to path: String) throws(HomeKitStoreError) {
        try makeDirectory(directory(of: path), for: path)
        do {
            try AtomicFile.write(bytes, to: path, mode: 0o600)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }

    /// Creates `directory` and its missing parents, each with mode 0700.
    private static func makeDirectory(_ directory: String, for path: String) throws(HomeKitStoreError) {
        guard !directory.isEmpty else { return }
        var info = stat()
        if stat(directory, &info) == 0 { return }
        try makeDirectory(self.directory(of: directory), for: path)
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw .unwritable(path: path, reason: "cannot create \(directory): \(reason())")
        }
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
