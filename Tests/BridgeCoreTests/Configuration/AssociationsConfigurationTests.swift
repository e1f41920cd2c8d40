import BridgeCore
import TestSupport
import Testing

/// `associations = { 2 = [4], 3 = ["5:1"] }` on a `[[zwave.device]]`: desired association members by group.
@Suite struct AssociationsConfigurationTests {
    static func fixture(_ associations: String) -> ConfigFixture {
        ConfigFixture(
            zwave: .init(
                port: "/dev/zwave",
                devices: [.init(node: 2, room: "hall", name: "light", associations: associations)]))
    }

    @Test func groupsAndTargetsAreRead() throws {
        let zwave = try #require(
            try ConfigurationLoader.parse(text: Self.fixture(#"{ 2 = [4, "6"], 3 = ["5:1", 4] }"#).text).zwave)
        let device = try #require(zwave.devices.first)
        #expect(
            device.associations == [
                2: [AssociationTarget(node: 4), AssociationTarget(node: 6)],
                3: [AssociationTarget(node: 5, endpoint: 1), AssociationTarget(node: 4)],
            ])
    }

    @Test func noAssociationsKeyMeansNone() throws {
        let text = ConfigFixture(zwave: .init(port: "/dev/zwave", devices: [.init(node: 2, room: "a", name: "b")]))
            .text
        let zwave = try #require(try ConfigurationLoader.parse(text: text).zwave)
        #expect(zwave.devices.first?.associations == [:])
    }

    /// Each bad shape is refused with the key path of what is wrong and a reason that names it.
    @Test(
        arguments: [
            (#"{ x = [4] }"#, "zwave.device[0].associations.x", "group must be a number between 1 and 255"),
            (#"{ 0 = [4] }"#, "zwave.device[0].associations.0", "group must be a number between 1 and 255"),
            (#"{ 256 = [4] }"#, "zwave.device[0].associations.256", "group must be a number between 1 and 255"),
            (#"{ 2 = 4 }"#, "zwave.device[0].associations.2", "must be an array of targets"),
            (#"{ 2 = ["4:x"] }"#, "zwave.device[0].associations.2[0]", "is not a node or node:endpoint"),
            (#"{ 2 = [4, "5:"] }"#, "zwave.device[0].associations.2[1]", "is not a node or node:endpoint"),
            (#"{ 2 = [233] }"#, "zwave.device[0].associations.2[0]", "outside the Z-Wave node ids 1...232"),
            (#"{ 2 = ["5:0"] }"#, "zwave.device[0].associations.2[0]", "endpoint 0, outside 1...127"),
            (#"{ 2 = [true] }"#, "zwave.device[0].associations.2[0]", "must be a node like 4"),
            (#"{ 2 = [2] }"#, "zwave.device[0].associations.2[0]", "node 2 cannot be associated with itself"),
            (#"{ 2 = ["2:1"] }"#, "zwave.device[0].associations.2[0]", "node 2 cannot be associated with itself"),
            (#"[4]"#, "zwave.device[0].associations", "must be a table"),
        ])
    func aBadShapeIsRefusedWithItsKeyPath(associations: String, keyPath: String, reason: String) {
        do {
            _ = try ConfigurationLoader.parse(text: Self.fixture(associations).text)
            Issue.record("\(associations) was accepted")
        } catch {
            #expect(error.problems.map(\.keyPath) == [keyPath], "\(error)")
            #expect(error.problems.first?.message.contains(reason) == true, "\(error)")
        }
    }
}
