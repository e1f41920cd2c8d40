internal import Glibc

/// Starts a detached thread named `name` (the kernel keeps 15 bytes of it) that runs `body` and ends with it.
/// Returns false, without running `body`, when the system cannot create a thread.
@discardableResult
public func startThread(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    var thread = pthread_t()
    let result = pthread_create(
        &thread, &attributes,
        { argument in
            guard let argument else { return nil }
            let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
            nameCurrentThread(start.name)
            start.body()
            return nil
        }, start)
    guard result == 0 else {
        Unmanaged<Start>.fromOpaque(start).release()
        return false
    }
    return true
}

/// Sleeps the calling thread for `seconds` (blocking; for threads of our own, never the cooperative pool).
public func sleepThread(seconds: Double) {
    guard seconds > 0, seconds.isFinite else { return }
    let whole = Int(min(seconds, 1e9))
    let nanoseconds = min(Int((min(seconds, 1e9) - Double(whole)) * 1e9), 999_999_999)
    var request = timespec(tv_sec: whole, tv_nsec: nanoseconds)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// Names the calling thread, as `ps -L` and `top -H` show it (`pthread_setname_np`, which Swift's Glibc module
/// does not expose, writes the same file).
private func nameCurrentThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    writeAll(String(decoding: name.utf8.prefix(15), as: UTF8.self), to: fd)
    close(fd)
}

/// Runs `body` with the calling thread named `name`, then gives it its own name back: the threads a library starts
/// inside `body` inherit `name` (Linux copies the name to a new thread), so they can be told apart from the
/// dispatch worker that started them.
public func withCurrentThreadName<T, E: Error>(_ name: String, _ body: () throws(E) -> T) throws(E) -> T {
    let own = currentThreadName()
    nameCurrentThread(name)
    defer { if let own { nameCurrentThread(own) } }
    return try body()
}

/// The calling thread's name, from /proc/thread-self/comm.
private func currentThreadName() -> String? {
    let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return String(decoding: buffer[0..<count].prefix { $0 != 0x0A && $0 != 0 }, as: UTF8.self)
}

/// The calling thread's kernel id (its directory under /proc/self/task), from the /proc/thread-self link.
public func currentThreadID() -> Int32? {
    var target = [CChar](repeating: 0, count: 64)
    let count = readlink("/proc/thread-self", &target, target.count - 1)
    guard count > 0 else { return nil }
    let text = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.split(separator: "/").last.flatMap { Int32($0) }
}
