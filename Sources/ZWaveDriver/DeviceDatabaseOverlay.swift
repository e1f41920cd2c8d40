internal import BridgeCore
import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// A private view of OpenZWave's device database (`config_path`, e.g. `/etc/openzwave`) with the bridge's
/// compatibility patches applied, built under the state directory and handed to OpenZWave as its config path.
///
/// The only patch today turns off OpenZWave's verifying Get after every Switch Multilevel Set
/// (`m_refreshAfterSet`, `Value.cpp`) for the Fibaro FGD212, which reports its own level: it adds
/// `<Compatibility><NoRefreshAfterSet index="0">true</NoRefreshAfterSet></Compatibility>` to the device's
/// `<CommandClass id="38">` (read by OpenZWave's `CompatOptionManager`), halving the radio traffic of a `/set`.
///
/// The view is a tree of symbolic links to the source database (always current with the installed package);
/// only the patched files are real copies. A stamp in the view records what it was built from (the source's
/// entries and the patched files' sizes and dates): a start with an unchanged source reuses it.
public struct DeviceDatabaseOverlay: Sendable {
    /// The installed device database.
    public let source: String
    /// The directory OpenZWave is pointed at (`<state_dir>/openzwave-config`).
    public let destination: String

    /// Device files (relative to the database) whose Switch Multilevel level needs no verifying Get.
    /// (The profiles that report their own level: ``DeviceProfile/reportsOwnLevel``.)
    public static let noRefreshAfterSetDevices = DeviceProfile.all.filter(\.reportsOwnLevel).compactMap(\.databaseFile)

    /// - Parameters:
    ///   - source: OpenZWave's installed device database (`[zwave] config_path`).
    ///   - stateDirectory: the bridge's state directory; the view is built in `openzwave-config` under it.
    public init(source: String, stateDirectory: String) {
        self.source = source
        self.destination = Path.join(stateDirectory, "openzwave-config")
    }

    /// The stamp's name inside the view.
    public static let stampName = ".thuis-overlay"

    /// Builds the view (or reuses an earlier one built from the same source) and returns its path, for
    /// `Options::Create`'s config path.
    /// - Throws: `ZWaveError` with code `.configPath` naming the file that could not be read or written.
    public func prepare() throws(ZWaveError) -> String {
        let files = FileManager.default
        let stamp = Path.join(destination, Self.stampName)
        do {
            let signature = try self.signature()
            if (try? String(contentsOfFile: stamp, encoding: .utf8)) == signature { return destination }
            if files.fileExists(atPath: destination) { try files.removeItem(atPath: destination) }
            try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
            let patched = Set(Self.noRefreshAfterSetDevices)
            // Directories that hold a patched file are real directories; everything else is a link.
            let patchedDirectories = Set(patched.map { Path.parent($0) })
            for entry in try files.contentsOfDirectory(atPath: source) {
                let target = Path.join(source, entry)
                let link = Path.join(destination, entry)
                if patchedDirectories.contains(entry) {
                    try files.createDirectory(atPath: link, withIntermediateDirectories: false)
                    for file in try files.contentsOfDirectory(atPath: target) {
                        let relative = "\(entry)/\(file)"
                        let from = Path.join(target, file)
                        let to = Path.join(link, file)
                        if patched.contains(relative) {
                            let text = try String(contentsOfFile: from, encoding: .utf8)
                            try Self.addingNoRefreshAfterSet(to: text).write(
                                toFile: to, atomically: true, encoding: .utf8)
                        } else {
                            try files.createSymbolicLink(atPath: to, withDestinationPath: from)
                        }
                    }
                } else {
                    try files.createSymbolicLink(atPath: link, withDestinationPath: target)
                }
            }
            // Last: a view cut short by a crash has no stamp and is built again.
            try signature.write(toFile: stamp, atomically: true, encoding: .utf8)
        } catch let error as ZWaveError {
            throw error
        } catch {
            throw ZWaveError(
                .configPath, call: "DeviceDatabaseOverlay.prepare",
                message: "building \(destination) from \(source): \(error)")
        }
        return destination
    }

    /// What the view is built from: the source path, its entries, those of the directories holding a patched
    /// file, and each patched file's size and modification time.
    func signature() throws -> String {
        let files = FileManager.default
        var lines = ["thuis-overlay 1", source]
        lines += try files.contentsOfDirectory(atPath: source).sorted()
        let patched = Self.noRefreshAfterSetDevices.sorted()
        for directory in Set(patched.map { Path.parent($0) }).sorted() {
            let path = Path.join(source, directory)
            lines.append("[\(directory)]")
            lines += try files.contentsOfDirectory(atPath: path).sorted()
        }
        for file in patched {
            let attributes = try files.attributesOfItem(atPath: Path.join(source, file))
            let size = attributes[.size].map { "\($0)" } ?? "?"
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            lines.append("\(file) \(size) \(modified)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The device XML with `NoRefreshAfterSet` for value index 0 of Switch Multilevel (command class 38):
    /// inserted into an existing `<CommandClass id="38">` element, or added as a new one before `</Product>`.
    /// - Throws: `ZWaveError` (`.configPath`) when the text is not a device file (no `</Product>`).
    public static func addingNoRefreshAfterSet(to xml: String) throws(ZWaveError) -> String {
        let flag = "<Compatibility><NoRefreshAfterSet index=\"0\">true</NoRefreshAfterSet></Compatibility>"
        if xml.contains("NoRefreshAfterSet") { return xml }
        if let open = xml.firstRange(of: "<CommandClass id=\"38\"") {
            if let close = xml[open.upperBound...].firstRange(of: ">"), xml[xml.index(before: close.lowerBound)] != "/"
            {
                var patched = xml
                patched.replaceSubrange(close, with: ">\n    \(flag)")
                return patched
            }
        }
        guard let end = xml.ranges(of: "</Product>").last else {
            throw ZWaveError(
                .configPath, call: "DeviceDatabaseOverlay.addingNoRefreshAfterSet",
                message: "not an OpenZWave device file (no </Product>)")
        }
        var patched = xml
        patched.replaceSubrange(end, with: "  <CommandClass id=\"38\">\n    \(flag)\n  </CommandClass>\n</Product>")
        return patched
    }
}
