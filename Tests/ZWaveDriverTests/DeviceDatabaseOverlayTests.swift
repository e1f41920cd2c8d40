import Foundation
import Testing
import ZWaveDriver

/// The private view of OpenZWave's device database with `NoRefreshAfterSet` for the FGD212.
@Suite struct DeviceDatabaseOverlayTests {
    static let installed = "/etc/openzwave"

    @Test func patchesTheInstalledFGD212AndLinksEverythingElse() throws {
        #expect(
            FileManager.default.fileExists(atPath: "\(Self.installed)/fibaro/fgd212.xml"),
            "install the device database with `apt-get install libopenzwave1.6-dev`")
        let state = NSTemporaryDirectory() + "overlay-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let overlay = DeviceDatabaseOverlay(source: Self.installed, stateDirectory: state)
        let path = try overlay.prepare()
        #expect(path == "\(state)/openzwave-config")
        let patched = try String(contentsOfFile: "\(path)/fibaro/fgd212.xml", encoding: .utf8)
        #expect(
            patched.contains(
                "<CommandClass id=\"38\">\n    <Compatibility><NoRefreshAfterSet index=\"0\">true</NoRefreshAfterSet></Compatibility>"
            ))
        let original = try String(contentsOfFile: "\(Self.installed)/fibaro/fgd212.xml", encoding: .utf8)
        #expect(!original.contains("NoRefreshAfterSet"))
        // Other files are links to the installed database.
        let manufacturers = try FileManager.default.destinationOfSymbolicLink(
            atPath: "\(path)/manufacturer_specific.xml")
        #expect(manufacturers == "\(Self.installed)/manufacturer_specific.xml")
        let sibling = try FileManager.default.destinationOfSymbolicLink(atPath: "\(path)/fibaro/fgd211.xml")
        #expect(sibling == "\(Self.installed)/fibaro/fgd211.xml")
        // A second start rebuilds it without error.
        #expect(try overlay.prepare() == path)
    }

    @Test func reusesTheViewUntilTheSourceChanges() throws {
        let root = NSTemporaryDirectory() + "overlay-source-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = FileManager.default
        let source = "\(root)/db", state = "\(root)/state"
        try files.createDirectory(atPath: "\(source)/fibaro", withIntermediateDirectories: true)
        try "<Product>\n</Product>\n".write(toFile: "\(source)/fibaro/fgd212.xml", atomically: true, encoding: .utf8)
        try "<ManufacturerSpecificData/>".write(
            toFile: "\(source)/manufacturer_specific.xml", atomically: true, encoding: .utf8)
        let overlay = DeviceDatabaseOverlay(source: source, stateDirectory: state)
        let path = try overlay.prepare()
        #expect(files.fileExists(atPath: "\(path)/\(DeviceDatabaseOverlay.stampName)"))

        // Unchanged source: the view is reused as it is (a file put into it survives).
        try "x".write(toFile: "\(path)/marker", atomically: true, encoding: .utf8)
        #expect(try overlay.prepare() == path)
        #expect(files.fileExists(atPath: "\(path)/marker"))

        // A new entry in the source: rebuilt, and the new entry is linked.
        try "<Product/>".write(toFile: "\(source)/fibaro/fgd213.xml", atomically: true, encoding: .utf8)
        #expect(try overlay.prepare() == path)
        #expect(!files.fileExists(atPath: "\(path)/marker"))
        #expect(
            try files.destinationOfSymbolicLink(atPath: "\(path)/fibaro/fgd213.xml") == "\(source)/fibaro/fgd213.xml")

        // The patched file changed (a package update): rebuilt from the new text.
        try "<Product>\n  <!-- v2 -->\n</Product>\n".write(
            toFile: "\(source)/fibaro/fgd212.xml", atomically: true, encoding: .utf8)
        _ = try overlay.prepare()
        let patched = try String(contentsOfFile: "\(path)/fibaro/fgd212.xml", encoding: .utf8)
        #expect(patched.contains("v2") && patched.contains("NoRefreshAfterSet"))

        // A view without its stamp (a build cut short) is built again.
        try "x".write(toFile: "\(path)/marker", atomically: true, encoding: .utf8)
        try files.removeItem(atPath: "\(path)/\(DeviceDatabaseOverlay.stampName)")
        _ = try overlay.prepare()
        #expect(!files.fileExists(atPath: "\(path)/marker"))
    }

    @Test func insertsIntoAnExistingSwitchMultilevelElement() throws {
        let xml = "<Product>\n  <CommandClass id=\"38\" getsupported=\"false\">\n  </CommandClass>\n</Product>\n"
        let patched = try DeviceDatabaseOverlay.addingNoRefreshAfterSet(to: xml)
        #expect(patched.components(separatedBy: "<CommandClass id=\"38\"").count == 2)
        #expect(patched.contains("getsupported=\"false\">\n    <Compatibility><NoRefreshAfterSet index=\"0\">true"))
    }

    @Test func refusesTextThatIsNotADeviceFile() {
        #expect(throws: ZWaveError.self) { try DeviceDatabaseOverlay.addingNoRefreshAfterSet(to: "<html/>") }
    }
}
