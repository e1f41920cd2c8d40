internal import CSystemShim

/// The executable's own read-only pages (its code, read-only data and the loader's tables).
///
/// Start-up runs code from all over the binary (argument parsing, the configuration loader, every driver's
/// set-up, the libraries' initialisers), and the kernel maps the file around each page it reads: once started, most
/// of the binary's resident pages are code the daemon will not run again, about 11 MB of a 30 MB RSS for two
/// Z-Wave nodes and a TV. They are clean and backed by the file, so giving them back costs nothing but a read
/// from the file if a path runs again.
public enum ExecutablePages {
    /// Asks the kernel to reclaim the resident read-only pages of the executable that only this process maps
    /// (`madvise(MADV_PAGEOUT)`, Linux 5.4+). Returns the bytes advised, or the `errno` of a refusal.
    public static func pageOut() -> Result<Int, PageOutError> {
        let result = thuis_page_out_executable_text()
        return result >= 0 ? .success(result) : .failure(PageOutError(errno: Int32(-result)))
    }

    /// The kernel refused the advice (`EINVAL` before Linux 5.4).
    public struct PageOutError: Error, Sendable, CustomStringConvertible {
        public let errno: Int32
        public var description: String { "madvise(MADV_PAGEOUT) failed with errno \(errno)" }
    }
}
