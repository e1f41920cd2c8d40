internal import Glibc

/// The permission bits (`st_mode & 0o7777`) of the file at `path`, symbolic links followed (`stat(2)`); nil
/// when it cannot be examined.
public func filePermissions(_ path: String) -> UInt32? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return UInt32(info.st_mode) & 0o7777
}
