import Testing
import ZWaveDriver

/// The gate of the library patches, as a decision: every patch for exactly the version they were written for, none
/// otherwise, each refusal with its reason.
@Suite struct LibraryPatchesTests {
    @Test func theVersionTheyWereWrittenForGetsEveryPatch() {
        let patches = LibraryPatches.decide(
            libraryVersion: "1.6.1914", writtenFor: "1.6.1914", enabled: true, interposed: true)
        #expect(patches.active == LibraryPatches.Patch.allCases)
        #expect(patches.refusal == nil)
        #expect(patches.summary == "user-commands-first, deferred-cache-writes, node-cache-release")
    }

    @Test(arguments: ["1.6.1913", "1.6.1915", "1.6", "1.7.0", "unknown", ""])
    func anyOtherVersionGetsNone(version: String) {
        let patches = LibraryPatches.decide(
            libraryVersion: version, writtenFor: "1.6.1914", enabled: true, interposed: true)
        #expect(patches.active.isEmpty)
        #expect(patches.summary == "none (written for OpenZWave 1.6.1914, the running library is \(version))")
    }

    @Test func turnedOffOrNotBoundGetsNone() {
        let off = LibraryPatches.decide(
            libraryVersion: "1.6.1914", writtenFor: "1.6.1914", enabled: false, interposed: true)
        #expect(off.active.isEmpty)
        #expect(off.refusal == "turned off ([zwave] openzwave_patches = false)")
        let unbound = LibraryPatches.decide(
            libraryVersion: "1.6.1914", writtenFor: "1.6.1914", enabled: true, interposed: false)
        #expect(unbound.active.isEmpty)
        #expect(unbound.refusal?.contains("does not call the executable's replacements") == true)
    }

    @Test func theyAreWrittenForBookwormsOpenZWave() {
        #expect(LibraryPatches.writtenFor == "1.6.1914")
    }
}
