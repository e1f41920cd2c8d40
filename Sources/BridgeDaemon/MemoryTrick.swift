import SystemSupport

/// The daemon's memory-only measures, each on in the daemon. `thuis-bridge run --without <names>` (a hidden
/// option, for measurement only) turns some off, so that the benchmark can show each one's saving next to the RSS
/// with all of them on, in the same run (issue 21: a measure that saves under 1 MB goes).
public enum MemoryTrick: String, CaseIterable, Sendable {
    /// OpenZWave's per-node copies of the network cache freed once each node is past loading from the cache
    /// (`ZWaveDriverConfiguration.releaseNodeCacheCopies`).
    case nodeCacheRelease = "node-cache-release"
    /// The executable's read-only pages given back to the kernel each time the start-up is over
    /// (`Bridge.settled`, `ExecutablePages.pageOut()`): code that ran once and is read again from the binary if it
    /// runs again.
    case codePageOut = "code-page-out"
    /// The heap given back to the kernel after each network-cache write, which builds and frees an XML document
    /// of the whole network (`ZWaveDriverConfiguration.trimHeapAfterCacheWrite`).
    case cacheWriteTrim = "cache-write-trim"

    /// The measures named in a comma-separated `list` (`node-cache-release,code-page-out`); nil when a name is
    /// unknown.
    public static func parse(list: String) -> Set<MemoryTrick>? {
        var tricks: Set<MemoryTrick> = []
        for name in list.split(separator: ",") {
            guard let trick = MemoryTrick(rawValue: String(name).trimmingWhitespace()) else { return nil }
            tricks.insert(trick)
        }
        return tricks
    }
}
