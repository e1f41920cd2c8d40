internal import Glibc

/// Writes text to a file descriptor, all of it (retrying short writes and interruptions); false on an error.
@discardableResult
public func writeAll(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeMutableBytes { raw in
            Glibc.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
        }
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return false
        }
    }
    return true
}

/// Writes text to standard error.
public func writeStandardError(_ text: String) { writeAll(text, to: STDERR_FILENO) }

/// Writes text to standard output (unbuffered: Swift's `print` buffers when the output is not a terminal).
public func writeStandardOutput(_ text: String) { writeAll(text, to: STDOUT_FILENO) }
