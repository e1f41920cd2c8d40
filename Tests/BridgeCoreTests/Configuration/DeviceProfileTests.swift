import BridgeCore
import Foundation
import Testing

/// The device profile table: each entry found by the ids its product reports (as OpenZWave's device database lists
/// them, hex strings in any case), the FGD212's button scheme as its manual gives it, and a node whose identity is
/// not known yet getting its kind's default.
@Suite struct DeviceProfileTests {
    @Test(arguments: ["0x1000", "0x2000", "0x3000", "0x4000"])
    func everyFGD212ProductIsTheDimmer2(id: String) {
        #expect(DeviceProfile.profile(manufacturer: "0x010F", type: "0x0102", id: id) == .fibaroDimmer2)
    }

    @Test func thePowerNode6IsFoundByItsTypeAndOtherProductsAreUnknown() {
        #expect(DeviceProfile.profile(manufacturer: "0x0099", type: "0x0003", id: "0x0004") == .greenwavePowerNode6)
        #expect(DeviceProfile.greenwavePowerNode6.endpointInDestinationByte)
        // The PowerNode 1 (type 0x0002) has one socket: nothing to re-frame.
        #expect(DeviceProfile.profile(manufacturer: "0x0099", type: "0x0002", id: "0x0002") == nil)
        #expect(DeviceProfile.profile(manufacturer: "0x010f", type: "0x0102", id: "0x5000") == nil)
        #expect(DeviceProfile.profile(manufacturer: "", type: "", id: "") == nil)
        #expect(DeviceProfile.profile(manufacturer: "0xzz", type: "0x0102", id: "0x1000") == nil)
    }

    /// The FGD212's manual (parameter 28, scene activation): S1 sends 16 single, 14 double, 15 triple, 12 held,
    /// 13 released; S2 the same in the twenties.
    @Test func theFGD212ButtonSchemeIsItsManuals() throws {
        let scheme = try #require(DeviceProfile.fibaroDimmer2.buttons)
        #expect(scheme.activation?.parameter == 28 && scheme.activation?.value == 1)
        #expect(scheme.buttons == [1, 2])
        let expected: [Int: (Int, ButtonPress)] = [
            16: (1, .single), 14: (1, .double), 15: (1, .triple), 12: (1, .hold), 13: (1, .release),
            26: (2, .single), 24: (2, .double), 25: (2, .triple), 22: (2, .hold), 23: (2, .release),
        ]
        #expect(scheme.scenes.count == expected.count)
        for (scene, (button, press)) in expected {
            #expect(scheme.press(of: scene) == SceneButton(scene: scene, button: button, press: press), "\(scene)")
        }
        #expect(scheme.press(of: 11) == nil)
    }

    @Test func aNodeIsItsProductsProfileElseItsKindsDefault() {
        let powerNode = ["manufacturer_id": "0x0099", "product_type": "0x0003", "product_id": "0x0004"]
        #expect(DeviceProfile.profile(facts: powerNode, kind: .socket) == .greenwavePowerNode6)
        // Before its identity is read: a dimmer is taken for the dimmer the bridge knows.
        #expect(DeviceProfile.profile(facts: [:], kind: .dimmer) == .fibaroDimmer2)
        #expect(DeviceProfile.profile(facts: ["manufacturer_id": ""], kind: .dimmer) == .fibaroDimmer2)
        #expect(DeviceProfile.profile(facts: [:], kind: .socket) == nil)
        // Once known, another dimmer is not an FGD212: no buttons are made up for it.
        let other = ["manufacturer_id": "0x0086", "product_type": "0x0003", "product_id": "0x0063"]
        #expect(DeviceProfile.profile(facts: other, kind: .dimmer) == nil)
    }

    /// OpenZWave's device database lists each profile's products under its file.
    @Test func theDatabaseListsEveryProfilesProducts() throws {
        let path = "/etc/openzwave/manufacturer_specific.xml"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            Issue.record("no \(path): install openzwave")
            return
        }
        for profile in DeviceProfile.all {
            let file = try #require(profile.databaseFile)
            for product in profile.products {
                let type = String(format4(product.type))
                let id = product.id.map(format4)
                let line = text.split(separator: "\n").first { line in
                    line.contains("config=\"\(file)\"") && line.lowercased().contains("type=\"\(type)\"")
                        && (id.map { line.lowercased().contains("id=\"\($0)\"") } ?? true)
                }
                #expect(line != nil, "\(profile.id): \(file) type \(type) id \(id ?? "any")")
            }
        }
    }

    func format4(_ value: UInt16) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
