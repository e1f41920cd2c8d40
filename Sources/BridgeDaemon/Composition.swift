public import BridgeCore
import CECDriver
import FoundationEssentials
internal import Glibc
import HomeAssistant
import HomeKit
import HomeKitBridge
public import Logging
public import MQTTDriver
public import ServiceLifecycle
public import WebDashboard
import ZWaveDriver

/// The composition root: builds the MQTT client, the hardware drivers and their backends, the bridge and the
/// dashboard from a validated configuration, as services in stop order (MQTT first, so it stops last; the dashboard
/// just before the bridge, so it stops right after it and dashboards see the devices go offline).
public struct Composition {
    public let services: [any Service]

    /// - Parameters:
    ///   - announcement: which process runs the bridge, published retained on `<prefix>/bridge/<name>/info`
    ///     (``BridgeNameCheck/announcement(_:keepAlive:)``).
    ///   - onDashboardListening: called with the dashboard's URL once its port is bound (`[web]`).
    ///   - onHomeKitListening: called with the HAP server's port once it is bound (`[homekit]`).
    public init(
        configuration: BridgeConfiguration, logger: Logger,
        announcement: JSONValue? = nil, onDashboardListening: @escaping @Sendable (String) -> Void = { _ in },
        onHomeKitListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws {
        let topics = configuration.topics
        let mqtt = try MQTTClient(options: Self.mqttOptions(configuration), logger: logger)
        var services: [any Service] = [
            MQTTService(
                client: mqtt,
                finalPublications: [MQTTPublication(topic: topics.bridgeState, text: "offline", retain: true)])
        ]
        var backends: [any DeviceBackend] = []
        // What the MQTT connection drops (a queue was full) is published as a `messages_dropped` event.
        var hardware: [AsyncStream<HardwareEvent>] = [mqtt.droppedMessages()]
        var requestHandlers: [any BridgeRequestHandler] = []

        if let zwave = configuration.zwave {
            try FileManager.default.createDirectory(
                atPath: zwave.stateDirectory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            // `refresh_after_set = false`: a private device database without the verifying Get after a Set.
            let configPath =
                zwave.refreshAfterSet
                ? zwave.configPath
                : try DeviceDatabaseOverlay(source: zwave.configPath, stateDirectory: zwave.stateDirectory).prepare()
            // The key is read here (checked like `check-config` does) and handed to OpenZWave; it is never logged.
            let networkKey = try zwave.networkKeyFile.map { file throws(ZWaveNetworkKeyError) in
                try ZWaveNetworkKey(contentsOfFile: file)
            }
            var driverConfiguration = ZWaveDriverConfiguration(
                port: zwave.port, userPath: zwave.stateDirectory, configPath: configPath,
                openZWaveLogLevel: ZWaveLogLevel(rawValue: zwave.logLevel.openZWaveValue), networkKey: networkKey)
            driverConfiguration.libraryPatches = zwave.openZWavePatches
            let driver = OpenZWave(configuration: driverConfiguration, logger: logger)
            let backend = ZWaveBackend(
                driver: driver, devices: zwave.devices, logger: logger,
                pingSilentAfter: zwave.pingSilentAfter > 0 ? .seconds(zwave.pingSilentAfter) : nil)
            backends.append(backend)
            requestHandlers.append(backend)
            hardware.append(backend.events)
            services.append(ZWaveService(driver: driver, backend: backend))
        }

        if let cec = configuration.cec {
            var driverConfiguration = CECDriverConfiguration(
                port: cec.port, osdName: cec.osdName, deviceType: cec.deviceType)
            // An unplugged adapter is noticed at once: its port vanishes (the driver watches the path) and libcec's
            // reads fail (CONNECTION_LOST). One that stays plugged in but stops answering is caught by libcec's own
            // keepalive ping (every 15 s; three failures raise CONNECTION_LOST) and, as a backstop, by the driver's
            // ping after 30 s without a sign of life. A replugged adapter is found again within ~10 s.
            driverConfiguration.pingInterval = .seconds(30)
            driverConfiguration.maximumBackoff = .seconds(10)
            let driver = LibCEC(configuration: driverConfiguration, logger: logger)
            let backend = CECBackend(driver: driver, devices: cec.devices, rxEvents: cec.rxEvents, logger: logger)
            backends.append(backend)
            hardware.append(backend.events)
            requestHandlers.append(backend)
            services.append(CECService(driver: driver, backend: backend, logger: logger))
        }

        let identity = BridgeIdentity(name: configuration.bridge.name, prefix: configuration.bridge.prefix)
        var frontEnds: [any BridgeFrontEnd] = []
        if configuration.homeAssistant.enabled {
            frontEnds.append(
                HomeAssistantDiscovery(
                    prefix: configuration.homeAssistant.prefix, bridge: identity, mqtt: mqtt, logger: logger))
        }
        var dashboard: (hub: DashboardHub, web: WebSection, access: DashboardAccess)?
        if let web = configuration.web {
            let access = try Self.dashboardAccess(web, logger: logger)
            DashboardServer.useSmallThreadPools()
            let hub = DashboardHub(
                identity: identity, scenes: configuration.zwave?.scenes ?? [], metrics: DashboardMetrics())
            frontEnds.append(hub)
            dashboard = (hub, web, access)
        }
        var homeKitUnavailable: BridgeEvent?
        let homeKit = try Self.homeKit(
            configuration, identity: identity, logger: logger, unavailable: &homeKitUnavailable)
        if let homeKit { frontEnds.append(homeKit.accessories) }
        if let homeKitUnavailable {
            // Published as a bridge event once the bridge runs (a stream of one event).
            let (stream, continuation) = AsyncStream.makeStream(of: HardwareEvent.self)
            continuation.yield(.event(homeKitUnavailable))
            continuation.finish()
            hardware.append(stream)
        }
        let bridge = Bridge(
            identity: identity, devices: Self.devices(configuration), scenes: configuration.zwave?.scenes ?? [],
            backends: backends, requestHandlers: requestHandlers, frontEnds: frontEnds, announcement: announcement,
            lowBattery: configuration.zwave?.lowBattery ?? ZWaveSection.defaultLowBattery,
            buttons: configuration.zwave?.buttons ?? [], mqtt: mqtt, logger: logger)
        if let dashboard {
            let server = DashboardServer(
                listen: dashboard.web.listen, access: dashboard.access, hub: dashboard.hub, bridge: bridge,
                mqttConnected: { await mqtt.isConnected }, logger: logger)
            services.append(server.application(onListening: onDashboardListening))
        }
        if let homeKit {
            services.append(
                HomeKitService(
                    server: HAPServer(
                        configuration: homeKit.configuration, store: homeKit.store, model: homeKit.accessories,
                        logger: logger),
                    name: homeKit.configuration.name, logger: logger, onListening: onHomeKitListening))
        }
        services.append(
            BridgeService(
                bridge: bridge, mqtt: mqtt, hardware: hardware))
        self.services = services
    }

    /// Who may use the dashboard: its tokens, read here (checked like `check-config` does; never logged), and a
    /// notice in the log when the admin token comes from the deprecated `auth_token` or `auth_token_file`.
    public static func dashboardAccess(_ web: WebSection, logger: Logger) throws(DashboardTokenError)
        -> DashboardAccess
    {
        if let notice = web.deprecationNotice { logger.notice("\(notice)") }
        return DashboardAccess(
            admin: try web.adminToken?.read(), control: try web.controlToken?.read(), secureCookie: web.secureCookie)
    }

    /// HomeKit's pairing store (created on the first start), its accessories and the server's configuration, when
    /// `[homekit]` is enabled. The setup code is read here (checked like `check-config` does) and never logged.
    /// A pairing file that cannot be used takes down HomeKit only: nil, with `unavailable` set to the event that says
    /// why (``pairingStore(_:logger:unavailable:)``).
    static func homeKit(
        _ configuration: BridgeConfiguration, identity: BridgeIdentity, logger: Logger, unavailable: inout BridgeEvent?
    ) throws -> (store: HomeKitStore, accessories: HomeKitAccessories, configuration: HAPServer.Configuration)? {
        guard let section = configuration.homeKit, section.enabled, let setting = section.setupCode else { return nil }
        let setupCode = try SetupCode(try setting.read())
        guard let store = pairingStore(section.pairingFile, logger: logger, unavailable: &unavailable) else {
            return nil
        }
        // A node whose scene activation devices.toml turns on (a profile's activation parameter, the FGD212's 28)
        // sends its clicks: every button of its scheme becomes a programmable switch.
        let activations = Set(DeviceProfile.all.compactMap { $0.buttons?.activation?.parameter })
        let sceneNodes = Set(
            (configuration.zwave?.devices ?? []).filter { device in
                device.config.contains { activations.contains($0.parameter) && $0.value != 0 }
            }.map(\.node))
        let accessories = HomeKitAccessories(
            name: section.name, identity: identity, scenes: configuration.zwave?.scenes ?? [], sceneNodes: sceneNodes,
            allocate: { store.accessoryID(for: $0) },
            memory: AccessoryMemory(
                recall: { store.rememberedKind(for: $0) }, remember: { store.rememberKind($1, for: $0) }),
            logger: logger)
        return (
            store, accessories,
            HAPServer.Configuration(name: section.name, port: section.port, setupCode: setupCode)
        )
    }

    /// The pairing store at `path`, or the `homekit_unavailable` event when the bridge must run without HomeKit this
    /// run, logged (error) with the file, what is wrong and what to do. The rest of the bridge serves either way.
    /// - A file that is not the pairing state (truncated, garbage): moved aside (``DamagedPairingFile``).
    /// - No file, but a damaged copy moved aside before: not made afresh, since a new identity would silently
    ///   break every pairing in the Home app; `thuis-bridge homekit reset` makes the new one.
    /// - Permissions for group or others, unreadable, or not writable: left as it is, with the fix in the log.
    static func pairingStore(_ path: String, logger: Logger, unavailable event: inout BridgeEvent?) -> HomeKitStore? {
        let repair =
            "run `thuis-bridge homekit reset` to make a new HomeKit identity, restart the bridge, then remove the "
            + "bridge from the Home app and add it again with the setup code"
        func unavailable(_ reason: String, movedTo: String? = nil, advice: String) -> BridgeEvent {
            var metadata: Logger.Metadata = ["file": "\(path)", "reason": "\(reason)", "fix": "\(advice)"]
            if let movedTo { metadata["moved_to"] = "\(movedTo)" }
            logger.error("HomeKit is off this run: its pairing file cannot be used", metadata: metadata)
            return .homeKitUnavailable(file: path, reason: reason, movedTo: movedTo)
        }
        if access(path, F_OK) != 0, let damaged = DamagedPairingFile.copies(of: path).last {
            event = unavailable(
                "the pairing file was damaged and moved aside to \(damaged)", movedTo: damaged, advice: repair)
            return nil
        }
        do throws(HomeKitStoreError) {
            return try HomeKitStore(path: path)
        } catch {
            switch error {
            case .malformed:
                switch DamagedPairingFile.moveAside(path, secondsSince1970: Date().timeIntervalSince1970) {
                case .success(let damaged):
                    event = unavailable(error.description, movedTo: damaged, advice: repair)
                case .failure(let failure):
                    event = unavailable(
                        "\(error.description); \(failure.reason)",
                        advice: "move it away by hand, then \(repair)")
                }
            case .exposed:
                event = unavailable(
                    error.description,
                    advice: "chmod 600 \(path) (owned by the bridge's user), then restart the bridge; the pairings stay"
                )
            case .unreadable, .unwritable:
                event = unavailable(
                    error.description, advice: "make \(path) readable and writable by the bridge's user, then restart")
            }
            return nil
        }
    }

    public static func mqttOptions(_ configuration: BridgeConfiguration) throws -> MQTTClientOptions {
        let section = configuration.mqtt
        var password: String?
        if let file = section.passwordFile {
            // The secret is read here and handed to libmosquitto; it is never logged.
            password = try MQTTSection.password(fromFile: file)
        }
        return MQTTClientOptions(
            clientID: "thuis-bridge-\(configuration.bridge.name)", host: section.host, port: section.port,
            username: section.username, password: password, caFile: section.caFile, certFile: section.certFile,
            keyFile: section.keyFile, will: MQTTWill(topic: configuration.topics.bridgeState, text: "offline"),
            // Commands are a few bytes and requests small JSON: a payload over 4 KiB is refused unread
            // (`command_rejected`, "too large"); a packet over 64 KiB is not even sent to us by the broker
            // (MQTT 5 Maximum Packet Size), so nobody can make the bridge buffer a large message.
            maxInboundPayloadBytes: 4 * 1024, maxInboundPacketBytes: 64 * 1024)
    }

    /// The configured devices. Z-Wave kinds are a first guess (an endpoint is a socket, a node a dimmer), marked
    /// as such, that the hardware corrects once the library reports the node's command classes.
    public static func devices(_ configuration: BridgeConfiguration) -> [DeviceDescriptor] {
        let zwave = (configuration.zwave?.devices ?? []).map { device in
            DeviceDescriptor(
                address: device.address, kind: device.instance == nil ? .dimmer : .socket, source: device.source,
                metered: true, kindKnown: false)
        }
        let cec = (configuration.cec?.devices ?? []).map { device in
            DeviceDescriptor(
                address: device.address, kind: .tv, source: device.source,
                inputs: device.inputs.mapValues(\.description))
        }
        return zwave + cec
    }

}
