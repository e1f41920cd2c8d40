/// The table: every product the bridge knows more about than the standard tells. Ids from OpenZWave's device
/// database (`/etc/openzwave/manufacturer_specific.xml`).
extension DeviceProfile {
    public static let all: [DeviceProfile] = [fibaroDimmer2, greenwavePowerNode6]

    /// Fibaro Dimmer 2 (FGD212): reports its own level after a Set; with parameter 28 = 1 its S1 and S2 inputs send
    /// scene activations, the tens digit the button, the units digit the press (6 single, 4 double, 5 triple, 2 held,
    /// 3 released).
    public static let fibaroDimmer2 = DeviceProfile(
        id: "fibaro-fgd212", name: "Fibaro Dimmer 2 (FGD212)",
        products: [0x1000, 0x2000, 0x3000, 0x4000].map { Product(manufacturer: 0x010f, type: 0x0102, id: $0) },
        kind: .dimmer, databaseFile: "fibaro/fgd212.xml", reportsOwnLevel: true, endpointInDestinationByte: false,
        buttons: ButtonScheme(
            activation: (parameter: 28, value: 1), buttons: [1, 2],
            scenes: [1, 2].flatMap { button in
                [(6, ButtonPress.single), (4, .double), (5, .triple), (2, .hold), (3, .release)].map {
                    SceneButton(scene: button * 10 + $0.0, button: button, press: $0.1)
                }
            }))

    /// Greenwave PowerNode 6: six metered sockets on endpoints 1-6, whose unsolicited reports carry the socket in the
    /// destination endpoint byte.
    public static let greenwavePowerNode6 = DeviceProfile(
        id: "greenwave-powernode-6", name: "Greenwave PowerNode 6",
        products: [Product(manufacturer: 0x0099, type: 0x0003)], kind: nil,
        databaseFile: "greenwave/powernode6.xml", reportsOwnLevel: false, endpointInDestinationByte: true,
        buttons: nil)
}
