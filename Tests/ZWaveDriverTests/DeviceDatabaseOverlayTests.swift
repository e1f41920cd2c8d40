import Foundation
import Testing
import ZWaveDriver

/// The private view of OpenZWave's device database with `NoRefreshAfterSet` for the FGD212.
@Suite struct DeviceDatabaseOverlayTests {
    static let installed = "/etc/openzwave"

    @Test func patchesTheInstalledFGD212AndLinksEverythingElse() throws {
        #expect(FileManager.default.fileExists(atPath: "\(Self.installed)/fibaro/fgd212.xml"),
                "install the device database with `apt-get install libopenzwave1.6-dev`")
        let state = NSTemporaryDirectory() + "overlay-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let overlay = DeviceDatabaseOverlay(source: Self.installed, stateDirectory: state)
        let path = try overlay.prepare()
        #expect(path == "\(state)/openzwave-config")
        let patched = try String(contentsOfFile: "\(path)/fibaro/fgd212.xml", encoding: .utf8)
        #expect(patched.contains("<CommandClass id=\"38\">\n    <Compatibility><NoRefreshAfterSet index=\"0\">true</NoRefreshAfterSet></Compatibility>"))
        let original = try String(contentsOfFile: "\(Self.installed)/fibaro/fgd212.xml", encoding: .utf8)
        #expect(!original.contains("NoRefreshAfterSet"))
        // Other files are links to the installed database.
        let manufacturers = try FileManager.default.destinationOfSymbolicLink(atPath: "\(path)/manufacturer_specific.xml")
        #expect(manufacturers == "\(Self.installed)/manufacturer_specific.xml")
        let sibling = try FileManager.default.destinationOfSymbolicLink(atPath: "\(path)/fibaro/fgd211.xml")
        #expect(sibling == "\(Self.installed)/fibaro/fgd211.xml")
        // A second start rebuilds it without error.
        #expect(try overlay.prepare() == path)
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
