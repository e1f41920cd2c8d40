internal import CZWaveShim

/// The bridge's patches of OpenZWave (the C++ in `CZWaveShim/LibraryPatches.cpp`), and whether they apply.
///
/// Each patch was written against one library version (``writtenFor``, Debian bookworm's libopenzwave 1.6.1914):
/// the driver applies them only when the running library reports exactly that version (`Manager::getVersionAsString`,
/// read from the library at start, not compiled in) and `[zwave] openzwave_patches` is not false. Otherwise OpenZWave
/// runs as shipped, and the bridge says so once in its log and in the `network` request.
public struct LibraryPatches: Sendable, Equatable {
    /// The OpenZWave version the patches were written against.
    public static let writtenFor = String(cString: zw_patches_written_for())

    public enum Patch: String, Sendable, CaseIterable {
        /// A user's value Set goes on a queue OpenZWave's driver thread serves before its own start-up and refresh
        /// queries (`Driver::SendMsg`): a `/set` waits at most for the transaction in flight.
        case userCommandsFirst = "user-commands-first"
        /// The network-cache writes OpenZWave starts itself during a start are skipped; the bridge writes the cache
        /// once when the network is queried (`Driver::WriteCache`): one write to the SD card instead of one per node.
        case deferredCacheWrites = "deferred-cache-writes"
        /// The copy of each node's network-cache element OpenZWave keeps but no longer reads is freed once the node
        /// is past loading from the cache.
        case nodeCacheRelease = "node-cache-release"
    }

    /// The running library's version, as it reports it.
    public let libraryVersion: String
    /// The patches in force: all, or none.
    public let active: [Patch]
    /// Why none is in force; nil when they are.
    public let refusal: String?

    /// The gate: every patch when `enabled`, the running library is `writtenFor` and the executable's replaced
    /// functions are the ones the library binds to (`interposed`); else none, with the reason.
    public static func decide(libraryVersion: String, writtenFor: String, enabled: Bool, interposed: Bool)
        -> LibraryPatches
    {
        let refusal: String? =
            if !enabled {
                "turned off ([zwave] openzwave_patches = false)"
            } else if libraryVersion != writtenFor {
                "written for OpenZWave \(writtenFor), the running library is \(libraryVersion)"
            } else if !interposed {
                "libopenzwave does not call the executable's replacements (Driver::SendMsg, Driver::WriteCache)"
            } else {
                nil
            }
        return LibraryPatches(
            libraryVersion: libraryVersion, active: refusal == nil ? Patch.allCases : [], refusal: refusal)
    }

    /// The decision for the running library (read from it), and the shim set to match.
    static func apply(writtenFor: String, enabled: Bool) -> LibraryPatches {
        var buffer = [CChar](repeating: 0, count: 64)
        let status = zw_library_version(&buffer, buffer.count)
        let version =
            status == ZW_OK
            ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : "unknown"
        let decision = decide(
            libraryVersion: version, writtenFor: writtenFor, enabled: enabled,
            interposed: zw_send_msg_interposed() && zw_cache_writes_interposed())
        zw_set_library_patches(decision.refusal == nil)
        return decision
    }

    /// For logs and the `network` request: "user-commands-first, deferred-cache-writes, node-cache-release", or
    /// "none (<why>)".
    public var summary: String {
        if let refusal { return "none (\(refusal))" }
        return active.map(\.rawValue).joined(separator: ", ")
    }
}
