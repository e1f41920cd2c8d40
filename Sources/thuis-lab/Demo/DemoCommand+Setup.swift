import BridgeCore
import FoundationEssentials
internal import HomeKit
internal import SystemSupport
internal import ZWaveEmulator

extension DemoCommand {
    /// The configuration from devices.toml with the same devices, pointed at the demo: the broker, the
    /// emulated stick and adapter, and a private state directory.
    static func rewrite(
        _ loaded: BridgeConfiguration, host: String, port: Int, emulators: DemoEmulators,
        stateDirectory: String
    ) -> BridgeConfiguration {
        var configuration = loaded
        configuration.mqtt.host = host
        configuration.mqtt.port = port
        let zwave = configuration.zwave ?? ZWaveSection(port: emulators.zwaveLink)
        configuration.zwave = zwave
        configuration.zwave?.port = emulators.zwaveLink
        configuration.zwave?.stateDirectory = stateDirectory
        let cec = configuration.cec ?? CECSection()
        configuration.cec = cec
        configuration.cec?.port = emulators.cecLink
        // The dashboard, on a free loopback port (printed once bound), open to this machine only.
        configuration.web = WebSection(listen: WebListenAddress(host: "127.0.0.1", port: 0))
        // HomeKit, unless devices.toml enables it: on a free port, with a setup code of this run (printed with the
        // port once bound), pairings in the demo's state directory. Pairing needs the code, so it may listen on
        // the network: an iPhone on it can pair with the demo's emulated house.
        if configuration.homeKit?.enabled != true {
            configuration.homeKit = HomeKitSection(
                enabled: true, name: HomeKitSection.defaultName(bridge: configuration.bridge.name), port: 0,
                setupCode: .inline(digits: String(SetupCode.random().description.filter(\.isNumber))),
                pairingFile: Path.join(stateDirectory, HomeKitSection.defaultPairingFileName))
        } else {
            configuration.homeKit?.pairingFile = Path.join(stateDirectory, HomeKitSection.defaultPairingFileName)
        }
        return configuration
    }

    /// The commands that drive the demo: a dimmer level, the TV, its input, inclusion of the joining node.
    static func driveCommands(configuration: BridgeConfiguration, emulators: DemoEmulators) -> [String] {
        let prefix = configuration.bridge.prefix
        let connection = "-h \(configuration.mqtt.host) -p \(configuration.mqtt.port)"
        let joining = emulators.network.nodes.filter { $0.kind == .joining }.map { String($0.id) }.joined(
            separator: ",")
        let firstDimmer =
            configuration.zwave?.devices.first { $0.instance == nil }?.address.description ?? "bedroom/light"
        var drive = ["mosquitto_pub \(connection) -t \(prefix)/device/\(firstDimmer)/set -m 40"]
        if let tv = configuration.cec?.devices.first {
            drive.append("mosquitto_pub \(connection) -t \(prefix)/device/\(tv.address)/set -m on")
            if let input = tv.inputs.keys.sorted().last {
                drive.append("mosquitto_pub \(connection) -t \(prefix)/device/\(tv.address)/input/set -m \(input)")
            }
        }
        drive.append(
            "mosquitto_pub \(connection) -t \(prefix)/bridge/\(configuration.bridge.name)/request/include -m '{\"transaction\":\"1\"}'"
                + (joining.isEmpty ? "" : "   # node \(joining) joins"))
        return drive
    }

    /// The command that shows the whole traffic.
    static func watchCommand(configuration: BridgeConfiguration) -> String {
        "mosquitto_sub -h \(configuration.mqtt.host) -p \(configuration.mqtt.port) -t '\(configuration.bridge.prefix)/#' -v"
    }

    /// What the demo prints before the feed: what runs where, how to watch and drive it.
    static func banner(
        configuration: BridgeConfiguration, emulators: DemoEmulators, privateBroker: Bool,
        logPath: String, exitAfter: Int?
    ) -> String {
        let mqtt = configuration.mqtt
        let nodes = emulators.network.nodes.filter { $0.kind != .joining }.map { String($0.id) }.joined(separator: ",")
        let joining = emulators.network.nodes.filter { $0.kind == .joining }.map { String($0.id) }.joined(
            separator: ",")
        let devices = (configuration.zwave?.devices.count ?? 0) + (configuration.cec?.devices.count ?? 0)
        let drive = driveCommands(configuration: configuration, emulators: emulators).map { "  " + $0 }
        let stop = exitAfter.map { "Stops by itself after \($0) s, or with Ctrl-C." } ?? "Stop it with Ctrl-C."
        return """
            thuis-lab demo: the house from devices.toml, emulated. \(stop)
              Z-Wave  emulated stick, nodes \(nodes)\(joining.isEmpty ? "" : " (node \(joining) waits to join)")  \(emulators.zwaveLink)
              CEC     emulated adapter: TV, Apple TV at 1.0.0.0, AVR at 2.0.0.0  \(emulators.cecLink)
              MQTT    \(privateBroker ? "private mosquitto on" : "broker") \(mqtt.host):\(mqtt.port)
              bridge  "\(configuration.bridge.name)", \(devices) devices; log: \(logPath)

            The dashboard (tiles, network, events) opens in a browser; its address follows once it listens.

            Watch it from another terminal:
              \(watchCommand(configuration: configuration))
            Drive it:
            \(drive.joined(separator: "\n"))

            Live feed ("» cmd": a command sent to the bridge; "house": the emulated house acting by itself):
            """
    }
}
