import Testing
import ZWaveEmulator

@Suite struct NetworkDescriptionTests {
    @Test func parsesAFullDescription() throws {
        let network = try NetworkDescription(
            toml: """
                home_id = 0xDEADBEEF
                time_scale = 60.0
                [[node]]
                id = 2
                kind = "fgd212"
                name = "bedroom light"
                level = 30
                loads = [40.0]
                scene_activation = true
                [[node]]
                id = 3
                kind = "powernode6"
                switches = [true, false, true, false, true, false]
                loads = [1.0, 2.0, 3.0, 4.5, 5.0, 6.0]
                framing = "spec"
                [[node]]
                id = 12
                kind = "joining"
                joins_as = "fgd212"
                join_after = 1.5
                """)
        #expect(network.homeID == 0xDEAD_BEEF)
        #expect(network.timeScale == 60)
        #expect(network.nodes.map(\.id) == [2, 3, 12])
        #expect(
            network.nodes[0]
                == NodeDescription(
                    id: 2, kind: .fgd212, name: "bedroom light", level: 30,
                    loads: [40], sceneActivation: true))
        #expect(network.nodes[1].realFraming == false)
        #expect(network.nodes[1].loads[3] == 4.5)
        #expect(network.nodes[2].joinsAs == .fgd212)
        #expect(network.nodes[2].joinAfter == 1.5)
    }

    @Test func rejectsBadInput() {
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "[[node]]\nid = 2\nkind = \"toaster\"")
        }
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "[[node]]\nid = 1\nkind = \"fgd212\"")
        }
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "[[node]]\nid = 2\nkind = \"fgd212\"\n[[node]]\nid = 2\nkind = \"fgd212\"")
        }
        #expect(throws: NetworkDescriptionError.self) { try NetworkDescription(toml: "this is = = not toml") }
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "time_scale = -1.0")
        }
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "[[node]]\nid = 3\nkind = \"powernode6\"\nloads = [nan]")
        }
        #expect(throws: NetworkDescriptionError.self) {
            try NetworkDescription(toml: "[[node]]\nid = 3\nkind = \"powernode6\"\nframing = \"sideways\"")
        }
        #expect(throws: NetworkDescriptionError.self) { try NetworkDescription.load("/nonexistent/network.toml") }
    }

    @Test func presetsMatchTheExampleHouse() throws {
        let house = try NetworkDescription.load("house")
        #expect(house.nodes.map(\.id) == [2, 3, 4, 5, 6, 7, 8, 9, 10])
        #expect(
            house.nodes.map(\.kind) == [
                .fgd212, .powernode6, .fgd212, .fgd212, .fgd212, .fgd212,
                .binarySwitch, .fgd212, .joining,
            ])
        let standard = try NetworkDescription.load("default")
        #expect(standard.nodes.map(\.kind) == [.fgd212, .powernode6, .joining])
        #expect(standard.homeID == 0xC0FF_EE01)
    }
}
