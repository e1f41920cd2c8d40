import Foundation
import Testing
import ZWaveEmulator

@testable import thuis_bench

/// Scenario 4's networks and its page rows: at Z-Wave's limit the mesh of the `large` preset with every device
/// mapped, and a page that never showed every node is a failed check, not a missing row.
@Suite struct ScaleNetworkTests {
    @Test func atTheLimitTheNetworkIsTheLargeMeshWithEveryDeviceMapped() throws {
        let network = ZWaveFixture.scaleNetwork(count: 231)
        #expect(network.nodes.count == 231)
        #expect(Set(network.nodes.map(\.kind)) == [.fgd212, .powernode6, .binarySwitch])
        #expect(network.neighborTable[1]?.count == 40, "only the first ring hears the stick")
        #expect(ZWaveFixture.scaleNetwork(count: 20).nodes.allSatisfy { $0.neighbors == nil })

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scale-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fixture = try ZWaveFixture(
            network: network, radioLatency: .zero, link: (directory as NSString).appendingPathComponent("zwave"))
        defer { fixture.stick.stop() }
        let switches = network.nodes.filter { $0.kind == .binarySwitch }.map(\.id)
        let topics = fixture.stateTopics()
        #expect(topics.count == 616)
        #expect(switches.allSatisfy { topics.contains("Thuis/device/bench/s\($0)") })
        #expect(fixture.zwaveSection(stateDirectory: directory, refreshAfterSet: false).contains("name = \"s4\""))
        // The switches have no meter: their power never comes, so it is not waited for.
        #expect(fixture.meterTopics().count == (616 - switches.count) * 2)
        #expect(!fixture.meterTopics().contains { $0.hasPrefix("Thuis/device/bench/s") })
    }

    @Test func pageRowsTakeTheMedianAndAMissingFigureFailsTheCheck() {
        var result = ScenarioResult(name: "4")
        ThuisBench.pageRows(
            231, PageRender.Outcome(network: [948, 686, 538], map: [250, 1254, 271], mapDraw: [22, 31, 22]),
            into: &result)
        #expect(result.rows.map(\.measured) == ["686.0 ms", "271.0 ms"])
        #expect(result.rows.allSatisfy { $0.met == true })
        #expect(result.rows[1].comparison == "first load 250 ms, drawing 22 ms")
        #expect(result.numbers["231_map_page_ms"] == 271)

        var failed = ScenarioResult(name: "4")
        ThuisBench.pageRows(
            231, PageRender.Outcome(network: [1200], problem: "/network/map did not show 231 nodes"), into: &failed)
        #expect(failed.rows.map(\.met) == [false])
        #expect(failed.notes.contains { $0.contains("did not show 231 nodes") })
        if PageRender.isInstalled { #expect(failed.checks.map(\.passed) == [false]) }
    }
}
