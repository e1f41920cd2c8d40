internal import FoundationEssentials
internal import Logging
internal import SystemSupport

/// The last complete network cache, kept beside OpenZWave's own.
///
/// OpenZWave 1.6 rewrites `ozwcache_<home>.xml` in place (TinyXML truncates it, then writes it from the start).
/// A power cut, or a kill at the unit's `TimeoutStopSec`, in the middle of a write leaves a file cut short; the
/// library cannot read it and interviews every node again at the next start: minutes at 232 nodes, and days for
/// a battery node that sleeps. So after each complete write the bridge copies the cache to
/// `ozwcache_<home>.xml.complete` (a temporary file, then `rename(2)`), and at start a cache that is cut short is put
/// aside (`ozwcache_<home>.xml.damaged-<UTC time>`) and the complete copy takes its place. No library code is
/// changed: the bridge reads and copies files in its own state directory.
///
/// A cache is complete when it is an XML document whose root element `<Driver>` is closed at its end and whose
/// `<Node>` elements (but an association's member, `<Node id="1" />`) are all closed: what a write cut at any byte
/// never leaves. A cache that is missing stays missing (deleting it is how a user asks for a new interview); delete
/// the `.complete` copy too for that.
struct NetworkCacheCopy: Sendable {
    /// The state directory OpenZWave writes its cache into.
    let directory: String
    let logger: Logger

    init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    static let copySuffix = ".complete"

    /// Whether `bytes` hold a whole network cache (see the type's description).
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        guard trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<Driver") else { return false }
        var end = text[...]
        while let last = end.last, last.isWhitespace { end = end.dropLast() }
        guard end.hasSuffix("</Driver>"), text.contains("<Driver") else { return false }
        return openedNodes(in: bytes) == occurrences(of: "</Node>", in: text)
    }

    /// `<Node ...>` elements that are not closed in their own tag (an association's member, `<Node id="1" />`, is).
    private static func openedNodes(in bytes: [UInt8]) -> Int {
        let tag = Array("<Node ".utf8)
        var count = 0
        var index = 0
        while index + tag.count <= bytes.count {
            guard bytes[index..<index + tag.count].elementsEqual(tag) else {
                index += 1
                continue
            }
            var end = index + tag.count
            while end < bytes.count, bytes[end] != UInt8(ascii: ">") { end += 1 }
            if end < bytes.count, bytes[end - 1] != UInt8(ascii: "/") { count += 1 }
            index = end
        }
        return count
    }

    private static func occurrences(of needle: String, in text: String) -> Int {
        text.split(separator: needle, omittingEmptySubsequences: false).count - 1
    }

    /// The cache files OpenZWave wrote into the directory (`ozwcache_<home>.xml`).
    func cacheFiles() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("ozwcache_") && $0.hasSuffix(".xml") }.sorted()
    }

    /// Before OpenZWave starts: every cache cut short is put aside and replaced by its complete copy (logged); one
    /// with no copy is left to the library, which interviews the network again (logged). A complete cache is
    /// copied, so a later cut finds this one.
    func restoreDamaged(now: Date = Date()) {
        for name in cacheFiles() {
            let path = directory + "/" + name
            guard let bytes = Self.read(path) else { continue }
            if Self.isComplete(bytes) {
                keep(path: path, bytes: bytes)
                continue
            }
            let copy = path + Self.copySuffix
            let aside = path + ".damaged-" + Timestamp.compact(secondsSince1970: now.timeIntervalSince1970)
            guard let complete = Self.read(copy), Self.isComplete(complete) else {
                logger.warning(
                    "the network cache is cut short and no complete copy is kept: OpenZWave interviews the network again",
                    metadata: ["file": "\(path)", "bytes": "\(bytes.count)"])
                return
            }
            do {
                try FileManager.default.moveItem(atPath: path, toPath: aside)
                try AtomicFile.write(complete, to: path)
                logger.warning(
                    "the network cache was cut short (a write interrupted): restored its last complete copy",
                    metadata: ["file": "\(path)", "bytes": "\(bytes.count)", "damaged": "\(aside)"])
            } catch {
                logger.error(
                    "the network cache is cut short and its complete copy could not be put back",
                    metadata: ["file": "\(path)", "error": "\(error)"])
            }
        }
    }

    /// After a cache write the bridge made (or saw end): copies every complete cache to its `.complete` file. A file
    /// that is not complete (OpenZWave writing it again on its own thread) is left for the next time.
    func keepComplete() {
        for name in cacheFiles() {
            let path = directory + "/" + name
            guard let bytes = Self.read(path), Self.isComplete(bytes) else { continue }
            keep(path: path, bytes: bytes)
        }
    }

    private func keep(path: String, bytes: [UInt8]) {
        let copy = path + Self.copySuffix
        if Self.read(copy) == bytes { return }
        do {
            try AtomicFile.write(bytes, to: copy)
        } catch {
            logger.warning(
                "could not keep a complete copy of the network cache",
                metadata: ["file": "\(copy)", "error": "\(error)"])
        }
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](data)
    }
}
