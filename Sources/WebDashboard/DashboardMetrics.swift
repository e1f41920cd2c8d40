public import BridgeCore
public import Prometheus
internal import Synchronization
internal import SystemSupport

/// `/metrics`: the bridge in Prometheus' text format, through swift-prometheus' own registry (not the process-wide
/// MetricsSystem). Device series carry a stable `id` (`zwave_3_1`, `cec_0`: where the device is, not what it is
/// called), so renaming a device in devices.toml keeps its series; room and name are on `thuis_device_info`, and on
/// the sensor readings (`thuis_device_sensor`, by room, name and kind, for graphs and alerts without a join).
///
/// Counters and the command histogram are fed as things happen (requests from the responses the bridge publishes,
/// command durations from the bridge's reports); the gauges are set from the bridge's current state at each scrape
/// (``refresh(_:)``), and the series of devices that left are removed.
public final class DashboardMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    private let inventory = Mutex<BridgeInventory?>(nil)
    /// The device and node gauges set at the last scrape, by name and labels, to remove those no longer there.
    private let scraped = Mutex<[String: Gauge]>([:])
    /// The library's counters at the last scrape, by series, so the Prometheus counters grow by the difference.
    let counted = Mutex<[String: Int]>([:])

    private let clients: Gauge
    private let dropped: Counter

    static func name(_ metric: String, _ unit: String = "", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "thuis", metricName: metric, unitName: unit, helpText: help)
    }

    static var buildInfo: MetricNameDescriptor { name("build", "info", "The version of thuis-bridge (always 1).") }
    static var mqttConnected: MetricNameDescriptor {
        name("mqtt_connected", "", "1 while the bridge is connected to its MQTT broker.")
    }
    static var zwaveReady: MetricNameDescriptor { name("zwave_ready", "", "1 while the Z-Wave stick is ready.") }
    static var cecConnected: MetricNameDescriptor { name("cec_connected", "", "1 while the CEC adapter is connected.") }
    static var deviceInfo: MetricNameDescriptor {
        name("device", "info", "Each device, by id, with its room, name, kind and adapter (1).")
    }
    static var available: MetricNameDescriptor {
        name(
            "device_available", "",
            "1 when the device is online (or asleep between wake-ups), 0 when dead or unreachable.")
    }
    static var lastSeen: MetricNameDescriptor {
        name(
            "device_last_seen", "timestamp_seconds",
            "When the device's node last reported (Z-Wave; a minute's resolution).")
    }
    static var power: MetricNameDescriptor { name("device_power", "watts", "The device's power reading.") }
    static var energy: MetricNameDescriptor { name("device_energy", "kilowatt_hours", "The device's energy meter.") }
    static var level: MetricNameDescriptor { name("device_level", "", "A dimmer's level, 0-99.") }
    static var on: MetricNameDescriptor {
        name("device_on", "", "1 when the device is on (a switch, socket, dimmer above 0, TV).")
    }
    static var locked: MetricNameDescriptor {
        name("device_locked", "", "A door lock: 1 when locked, 0 when unlocked or jammed.")
    }
    static var jammed: MetricNameDescriptor {
        name("device_jammed", "", "A door lock: 1 while it reports its bolt jammed, else 0.")
    }
    static var sensor: MetricNameDescriptor {
        name(
            "device_sensor", "",
            "A sensor's reading, by kind (temperature, humidity, battery...) in the unit of its unit label; binary "
                + "sensors (motion, contact...) 1 when active (open), else 0.")
    }
    static var setpoint: MetricNameDescriptor {
        name(
            "device_setpoint", "",
            "A thermostat's heating setpoint, in the unit of its unit label (°C or °F), by room and name.")
    }

    static var buttonActions: MetricNameDescriptor {
        name(
            "button_actions", "total",
            "Scene button actions (Z-Wave Central Scene) the bridge published, by device id, button and action.")
    }
    static var commandDuration: MetricNameDescriptor {
        name(
            "command_duration", "seconds",
            "From handing a device command to the hardware to its confirmation or failure.")
    }
    static var requests: MetricNameDescriptor {
        name("requests", "total", "Bridge requests answered, by verb and result (ok, error).")
    }
    static var dashboardClients: MetricNameDescriptor {
        name("dashboard_clients", "", "Dashboards connected (WebSocket).")
    }
    static var droppedClients: MetricNameDescriptor {
        name(
            "dashboard_clients_dropped", "total",
            "Dashboards disconnected because they did not keep up with the bridge.")
    }

    static let durationBuckets: [Duration] = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000].map {
        .milliseconds($0)
    }

    public init() {
        registry.makeGauge(descriptor: Self.buildInfo, labels: [("version", BuildInfo.version)]).set(to: 1.0)
        clients = registry.makeGauge(descriptor: Self.dashboardClients)
        dropped = registry.makeCounter(descriptor: Self.droppedClients)
    }

    // MARK: As things happen

    /// A publication of the bridge: responses count as requests.
    func observe(_ message: DashboardProtocol.Outbound) {
        if case .message(let topic, let payload) = message { return countButtonAction(topic: topic, payload: payload) }
        guard case .response(let verb, let json) = message else { return }
        let status = (try? JSONValue.parse(Array(json.utf8)))?["status"]
        let result = status == .string("ok") ? "ok" : "error"
        let known = BridgeRequest.Verb(rawValue: verb) != nil ? verb : "unknown"
        registry.makeCounter(descriptor: Self.requests, labels: [("verb", known), ("result", result)]).increment()
    }

    /// Counts an action published on a device's `<device>/button/<n>` (a device of the inventory; anything else on a
    /// `button` topic is not counted).
    func countButtonAction(topic: String, payload: String) {
        guard let action = ButtonAction(rawValue: payload) else { return }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count > 2, levels[levels.count - 2] == "button", let button = Int(levels[levels.count - 1]) else {
            return
        }
        let base = levels.dropLast(2).joined(separator: "/")
        let device = inventory.withLock { inventory in
            inventory?.devices.first { inventory?.identity.topics.device($0.descriptor.address).base == base }
        }
        guard let device else { return }
        registry.makeCounter(
            descriptor: Self.buttonActions,
            labels: [
                ("id", Self.id(device.descriptor.source)), ("button", String(button)), ("action", action.rawValue),
            ]
        ).increment()
    }

    func commandFinished(_ report: CommandReport) {
        commandDurations(report.adapter, failed: report.failure != nil).record(report.duration)
    }

    func commandDurations(_ adapter: Adapter, failed: Bool) -> DurationHistogram {
        registry.makeDurationHistogram(
            descriptor: Self.commandDuration,
            labels: [("adapter", adapter.rawValue), ("result", failed ? "failed" : "ok")],
            buckets: Self.durationBuckets)
    }

    func clientsChanged(_ count: Int) { clients.set(to: Double(count)) }
    func clientsDropped(_ count: Int) { dropped.increment(by: Int64(count)) }
    func inventoryChanged(_ inventory: BridgeInventory) { self.inventory.withLock { $0 = inventory } }

    // MARK: At each scrape

    /// The bridge's state at a scrape.
    public struct Scrape: Sendable {
        public var mqttConnected: Bool
        /// Each configured adapter: online or not.
        public var adapters: [Adapter: Bool]
        /// The retained device topics (topic → payload).
        public var retained: [String: String]
        /// The `network_stats` answer (`{"alive", "nodes": [{"node": 2, "sent": ...}], "driver": {...}}`), if any.
        public var networkStatistics: JSONValue?

        public init(
            mqttConnected: Bool, adapters: [Adapter: Bool], retained: [String: String], networkStatistics: JSONValue?
        ) {
            self.mqttConnected = mqttConnected
            self.adapters = adapters
            self.retained = retained
            self.networkStatistics = networkStatistics
        }
    }

    /// Sets every gauge from `scrape` and removes the device and node series that are gone.
    public func refresh(_ scrape: Scrape) {
        var current: [String: Gauge] = [:]
        func gauge(_ descriptor: MetricNameDescriptor, _ labels: [(String, String)], _ value: Double) {
            let gauge = registry.makeGauge(descriptor: descriptor, labels: labels)
            gauge.set(to: value)
            current[descriptor.name + labels.map { "|\($0.0)=\($0.1)" }.joined()] = gauge
        }
        func flag(_ value: Bool) -> Double { value ? 1 : 0 }
        gauge(Self.mqttConnected, [], flag(scrape.mqttConnected))
        if let zwave = scrape.adapters[.zwave] { gauge(Self.zwaveReady, [], flag(zwave)) }
        if let cec = scrape.adapters[.cec] { gauge(Self.cecConnected, [], flag(cec)) }
        for adapter in scrape.adapters.keys {
            // Every configured adapter's command histograms exist from the first scrape on, empty until a command.
            _ = commandDurations(adapter, failed: false)
            _ = commandDurations(adapter, failed: true)
        }

        let inventory = self.inventory.withLock { $0 }
        for device in inventory?.devices ?? [] {
            let descriptor = device.descriptor
            let id = [("id", Self.id(descriptor.source))]
            gauge(
                Self.deviceInfo,
                id + [
                    ("room", descriptor.address.room), ("name", descriptor.address.name),
                    ("kind", descriptor.kind.rawValue), ("adapter", descriptor.source.adapter.rawValue),
                ], 1)
            let topics = (inventory?.identity.topics ?? TopicScheme(prefix: "", bridge: "")).device(descriptor.address)
            if let availability = scrape.retained[topics.availability] {
                gauge(Self.available, id, flag(availability == "online" || availability == "asleep"))
            }
            if let seen = device.facts["last_seen"].flatMap({ Timestamp.secondsSince1970(iso8601: $0) }) {
                gauge(Self.lastSeen, id, Double(seen))
            }
            if let watts = scrape.retained[topics.power].flatMap(Double.init) { gauge(Self.power, id, watts) }
            if let kWh = scrape.retained[topics.energy].flatMap(Double.init) { gauge(Self.energy, id, kWh) }
            if let state = scrape.retained[topics.state] {
                if descriptor.kind == .dimmer, let level = Double(state) {
                    gauge(Self.level, id, level)
                    gauge(Self.on, id, flag(level > 0))
                } else if descriptor.kind == .lock, let lock = LockState(rawValue: state) {
                    gauge(Self.locked, id, flag(lock == .locked))
                    gauge(Self.jammed, id, flag(lock == .jammed))
                } else if state == "on" || state == "off" || state == "standby" {
                    gauge(Self.on, id, flag(state == "on"))
                }
            }
            let address = [("room", descriptor.address.room), ("name", descriptor.address.name)]
            for (sensor, unit) in descriptor.sensors {
                guard let value = scrape.retained[topics.sensor(sensor)].flatMap({ Self.reading(sensor, $0) }) else {
                    continue
                }
                gauge(Self.sensor, id + address + [("kind", sensor.rawValue), ("unit", unit)], value)
            }
            if let traits = descriptor.thermostat, let setpoint = scrape.retained[topics.setpoint].flatMap(Double.init)
            {
                gauge(Self.setpoint, id + address + [("unit", traits.temperatureUnit)], setpoint)
            }
        }
        if let statistics = scrape.networkStatistics {
            refreshZWave(statistics, inventory: inventory, gauge: gauge)
        }
        let gone = scraped.withLock { previous in
            defer { previous = current }
            return previous.filter { current[$0.key] == nil }.map(\.value)
        }
        for gauge in gone { registry.unregisterGauge(gauge) }
    }

    /// The exposition text.
    public func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    /// A sensor's published reading as a number: a measurement as it is, a binary sensor 1 when active (`on`,
    /// `open`) and 0 when not; nil for anything else.
    static func reading(_ sensor: Sensor, _ payload: String) -> Double? {
        guard sensor.isBinary else { return Double(payload) }
        if payload == sensor.payload(active: true) { return 1 }
        return payload == sensor.payload(active: false) ? 0 : nil
    }

    /// A device's stable id: `zwave_<node>`, `zwave_<node>_<instance>`, `cec_<logical address>`.
    static func id(_ source: DeviceSource) -> String {
        switch source {
        case .zwave(let node, nil): "zwave_\(node)"
        case .zwave(let node, let instance?): "zwave_\(node)_\(instance)"
        case .cec(let address): "cec_\(address)"
        }
    }
}
