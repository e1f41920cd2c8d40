import ArgumentParser
import BridgeCore
import BridgeDaemon
import FoundationEssentials
internal import Glibc
import HomeAssistant
internal import SystemSupport

/// `thuis-bridge check-config [file]`: validates devices.toml without touching any hardware or the broker.
/// Exit 0 and the topics the bridge would serve on stdout; exit 2 and every problem (one per line, with its key
/// path and line) on stderr.
struct CheckConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate devices.toml and print the topics the bridge would serve.",
        discussion: "Exits 0 when the file is valid, 2 listing every problem with its key path otherwise."
    )

    @Argument(help: "The configuration file.") var file: String = "devices.toml"

    func run() async throws {
        let configuration: BridgeConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: file)
        } catch {
            printToStandardError("\(file): \(Self.plural(error.problems.count, "problem"))")
            printToStandardError(error.description)
            throw ExitCode(2)
        }
        print(Self.summary(configuration, file: file))
        print("")
        print(TopicTable(configuration).description)
        print("")
        print(Self.homeAssistant(configuration))
        print("")
        print(Self.dashboard(configuration))
        print("")
        print(Self.homeKit(configuration))
    }

    /// The HomeKit bridge's name, port and files, or that it is off; never the setup code itself.
    static func homeKit(_ configuration: BridgeConfiguration) -> String {
        guard let homeKit = configuration.homeKit else { return "HOMEKIT  off (no [homekit] section)" }
        guard homeKit.enabled else { return "HOMEKIT  off ([homekit] enabled = false)" }
        let code =
            switch homeKit.setupCode {
            case .file(let path)?: "setup code from \(path)"
            case .inline?: "setup code in [homekit] setup_code"
            case nil: "no setup code"
            }
        return "HOMEKIT  \"\(homeKit.name)\" on port \(homeKit.port), \(code), pairings in \(homeKit.pairingFile)"
    }

    /// Where the dashboard is served and how it is protected, or that it is off.
    static func dashboard(_ configuration: BridgeConfiguration) -> String {
        guard let web = configuration.web else { return "DASHBOARD  off (no [web] section)" }
        let listen = web.listen
        let host =
            listen.host == "0.0.0.0" || listen.host == "::" ? "<this machine's address>" : listen.urlHost
        let port = listen.port == 0 ? "<a free port, logged at start>" : String(listen.port)
        var access: String
        if let admin = web.adminToken {
            access =
                "admin token required (\(Self.origin(admin))): open it once as .../?token=<token>, which sets a cookie"
            if let control = web.controlToken {
                access += "; control token (\(Self.origin(control))): tiles and commands"
            }
        } else {
            access = "no token: open to this machine only (loopback), as admin"
        }
        if let notice = web.deprecationNotice { access += "\n  note: \(notice)" }
        return [
            "DASHBOARD  http://\(host):\(port)/  \(access)",
            "  pages: / (tiles), /network, /node/<id>, /events; JSON: /api/devices, /health; /metrics (Prometheus); "
                + "WebSocket: /ws",
        ].joined(separator: "\n")
    }

    /// Where a token comes from: its file, or its key in devices.toml.
    static func origin(_ setting: DashboardTokenSetting) -> String {
        switch setting.source {
        case .file(let path): "from \(path)"
        case .inline: "[web] \(setting.key)"
        }
    }

    /// What Home Assistant discovery publishes for each device, or that it is off.
    static func homeAssistant(_ configuration: BridgeConfiguration) -> String {
        let section = configuration.homeAssistant
        guard section.enabled else { return "HOME ASSISTANT DISCOVERY  off ([homeassistant] enabled = false)" }
        let identity = BridgeIdentity(name: configuration.bridge.name, prefix: configuration.bridge.prefix)
        var lines = [
            "HOME ASSISTANT DISCOVERY  on, retained under \"\(section.prefix)/\" (Z-Wave entities once the stick "
                + "reports its home id and a node's interview or the network cache its kinds; the bridge itself: a "
                + "connectivity binary_sensor)",
            "DEVICE  ENTITIES",
        ]
        for device in Composition.devices(configuration) {
            // A Z-Wave kind is a guess until the node's interview (or the network cache): shown as the guess,
            // marked as assumed; the bridge publishes no config for it until the kind is known.
            let shown = DeviceDescriptor(
                address: device.address, kind: device.kind, source: device.source, metered: device.metered,
                inputs: device.inputs, configured: device.configured)
            let inventory = BridgeInventory(
                identity: identity, devices: [BridgeInventory.Device(descriptor: shown)], networks: [.zwave: "home"])
            let configs = DiscoveryMapping.configs(for: inventory).filter { !$0.objectID.hasPrefix("thuis_bridge_") }
            let triggers = configs.filter { $0.component == "device_automation" }.count
            var entities = configs.filter { $0.component != "device_automation" }.map { config in
                guard case .string(let name)? = config.payload["name"] else { return config.component }
                return "\(config.component) (\(name.lowercased()))"
            }
            if triggers > 0 { entities.append("\(triggers) device triggers") }
            let assumed = device.kindKnown ? "" : "  (assumed \(device.kind.rawValue): the interview tells)"
            lines.append("\(device.address)  \(entities.joined(separator: ", "))\(assumed)")
        }
        return lines.joined(separator: "\n")
    }

    /// `devices.toml is valid: bridge "living", prefix "Thuis", MQTT localhost:1883, ...`.
    static func summary(_ configuration: BridgeConfiguration, file: String) -> String {
        var parts = [
            "bridge \"\(configuration.bridge.name)\"", "prefix \"\(configuration.bridge.prefix)\"",
            "MQTT \(configuration.mqtt.host):\(configuration.mqtt.port)\(configuration.mqtt.usesTLS ? " (TLS)" : "")",
        ]
        if let zwave = configuration.zwave {
            let counts = "\(plural(zwave.devices.count, "device")), \(plural(zwave.scenes.count, "scene"))"
            parts.append("Z-Wave on \(zwave.port) (\(counts))")
        }
        if let cec = configuration.cec {
            parts.append("CEC on \(cec.port) (\(plural(cec.devices.count, "device")))")
        }
        if let web = configuration.web { parts.append("dashboard on \(web.listen)") }
        return "\(file) is valid: " + parts.joined(separator: ", ")
    }

    /// `1 device`, `13 devices`.
    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    private func printToStandardError(_ text: String) {
        writeStandardError(text + "\n")
    }
}
