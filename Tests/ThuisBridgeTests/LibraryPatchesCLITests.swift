import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing
import ZWaveEmulator

/// Which OpenZWave runs and which of the bridge's patches of it are active, as a user sees it: `thuis-bridge devices`
/// prints it under the table (from the `network` request), and a `/set` works either way.
@Suite(.endToEnd) struct LibraryPatchesCLITests {
    @Test(arguments: [true, false])
    func devicesSaysWhichPatchesAreActive(patches: Bool) async throws {
        var options = InclusionHouse.Options()
        options.openZWavePatches = patches ? nil : false
        try await InclusionHouse.with(name: "patches-\(patches)", joinAfter: nil, options: options) { house in
            let devices = try house.cli(["devices"])
            #expect(await devices.waitForExit(timeout: .seconds(15)) == .exited(0))
            let expected =
                patches
                ? "OpenZWave 1.6.1914, patches: user-commands-first, deferred-cache-writes, node-cache-release"
                : "OpenZWave 1.6.1914, patches: none (turned off ([zwave] openzwave_patches = false))"
            #expect(devices.outputText.contains(expected), "\(devices.outputText)")
            // The bridge works on OpenZWave as shipped too.
            try await house.watcher.publish(topic: "Thuis/device/bedroom/light/set", text: "35")
            try await MQTTTestClient.poll(timeout: .seconds(20), "level 35 at the dimmer") {
                house.stick.level(node: 2) == 35
            }
            let said = patches ? "OpenZWave patches applied" : "OpenZWave runs as shipped, without the bridge's patches"
            #expect(house.bridge.outputText.contains(said), "the log does not say which OpenZWave runs")
        }
    }
}
