internal import Glibc

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
        let directory = directory(of: path)
        try makeDirectory(directory, for: path)
        let (temporary, descriptor) = try createTemporary(beside: path)
        var written = 0
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = reason() }
        while failure == nil, written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno != EINTR { failure = reason() }
            } else {
                written += count
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = reason() }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 { failure = reason() }
        if let failure {
            unlink(temporary)
            throw .unwritable(path: path, reason: failure)
        }
        // The rename is done and cannot be undone: a directory that cannot be synced leaves the new file in place.
        let parent = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if parent >= 0 {
            _ = fsync(parent)
            close(parent)
        }
    }

    /// A new file `path.tmp-XXXXXXXXXXXXXXXX` (random hex), opened for writing with mode 0600: created
    /// exclusively (never an existing file or a symbolic link planted at that name).
    private static func createTemporary(beside path: String) throws(HomeKitStoreError) -> (String, CInt) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let temporary =
                path + ".tmp-" + Hex.encode((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return (temporary, descriptor) }
            guard errno == EEXIST else { break }
        }
        throw .unwritable(path: path, reason: reason())
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
