internal import Dispatch
internal import Glibc
internal import Synchronization

/// Tells when a device path (a stick's `/dev/ttyACM0`, a udev link such as `/dev/zwave`, an emulator's pty link)
/// may have appeared, disappeared, been replaced or changed its permissions, without polling: inotify watches on
/// the directory that holds it (or, while that is missing, on its nearest existing ancestor) and, for a link, on
/// the directory of its target. `onChange` runs on a private queue after anything happened to one of those names;
/// the caller then looks at the path itself. No thread waits for it: the inotify descriptor is one more source in
/// Dispatch's event loop. Call `cancel()` when done.
public final class PathWatcher: Sendable {
    private let path: String
    private let onChange: @Sendable () -> Void
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "thuis.path-watcher")
    /// Watch descriptor → the names in that directory that matter (empty: the directory itself).
    private let watches = Mutex<[Int32: Set<String>]>([:])
    /// Dispatch sources are thread-safe (`cancel()` may be called from any thread); the type is not marked Sendable.
    nonisolated(unsafe) private let source: any DispatchSourceRead

    /// What a watched directory reports: entries created, deleted, renamed or changed (permissions), and the
    /// directory itself going away.
    private static let mask = UInt32(
        IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    /// Starts watching `path`; nil when inotify is not available (the caller then has no change events).
    public init?(path: String, onChange: @escaping @Sendable () -> Void) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.path = path
        self.onChange = onChange
        self.descriptor = descriptor
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        queue.sync { arm() }
        source.setEventHandler { [weak self] in self?.readEvents() }
        source.setCancelHandler { _ = close(descriptor) }
        source.resume()
    }

    deinit { cancel() }

    /// Stops watching; `onChange` is not called after the queue has finished what it was doing.
    public func cancel() { source.cancel() }

    /// Reads every pending event; if one concerns a watched name, re-arms the watches and reports the change.
    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            let headerSize = MemoryLayout<inotify_event>.size
            while offset + headerSize <= count {
                let (watch, flags, length) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                offset += headerSize + length
                let names = watches.withLock { $0[watch] }
                if flags & UInt32(IN_Q_OVERFLOW) != 0 || flags & UInt32(IN_IGNORED) != 0 {
                    relevant = true
                } else if let names, names.isEmpty || names.contains(name) || name.isEmpty {
                    relevant = true
                }
            }
        }
        guard relevant else { return }
        arm()
        onChange()
    }

    /// Watches, for the path and (if it is a link) its target: the directory that holds it, or its nearest existing
    /// ancestor, for the next name down. Drops the watches no longer needed.
    private func arm() {
        var wanted: [String: Set<String>] = [:]
        for candidate in [path] + (Self.linkTarget(path).map { [$0] } ?? []) {
            let (directory, name) = Self.nearestExistingDirectory(for: candidate)
            wanted[directory, default: []].insert(name)
        }
        var armed: [Int32: Set<String>] = [:]
        for (directory, names) in wanted {
            let watch = inotify_add_watch(descriptor, directory, Self.mask)
            if watch >= 0 { armed[watch, default: []].formUnion(names) }
        }
        let stale = watches.withLock { watches in
            defer { watches = armed }
            return watches.keys.filter { armed[$0] == nil }
        }
        for watch in stale { _ = inotify_rm_watch(descriptor, watch) }
    }

    /// The absolute target of `path` if it is a symbolic link.
    static func linkTarget(_ path: String) -> String? {
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &target, target.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("/") { return text }
        return parent(of: path) + "/" + text
    }

    /// The deepest existing directory along `path` and the name below it that leads to `path`.
    static func nearestExistingDirectory(for path: String) -> (String, String) {
        var child = path
        var directory = parent(of: path)
        while !isDirectory(directory), directory != "/" {
            child = directory
            directory = parent(of: directory)
        }
        let name = child.split(separator: "/").last.map(String.init) ?? child
        return (directory, name)
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
