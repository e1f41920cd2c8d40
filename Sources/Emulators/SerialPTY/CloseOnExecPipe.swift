#if canImport(Glibc)
    import Glibc
#endif

/// glibc's `pipe2`, which Swift's Glibc module does not export (it is behind `_GNU_SOURCE`).
@_silgen_name("pipe2")
private func systemPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// A pipe whose two ends are close-on-exec from the moment they exist (`pipe2(O_CLOEXEC)`): a child process
/// started at the same moment by another thread cannot inherit them. Returns `[read, write]`, or nil with
/// `errno` set.
public func makeCloseOnExecPipe() -> [Int32]? {
    var fds: [Int32] = [-1, -1]
    let result = fds.withUnsafeMutableBufferPointer { buffer -> Int32 in
        guard let base = buffer.baseAddress else { return -1 }
        return systemPipe2(base, O_CLOEXEC)
    }
    return result == 0 ? fds : nil
}
