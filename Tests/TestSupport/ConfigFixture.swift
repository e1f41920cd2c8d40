public import BridgeCore
public import Logging

/// A devices.toml for tests, built from values: a test names what it is about and the rest is left out, so the
/// loader's defaults apply (every optional key is `nil` or empty until set). Broken or unusual TOML goes in
/// verbatim with ``appending(_:)``.
///
/// The sections mirror the core's (`MQTTSection`, `ZWaveSection`, ...) but describe the text, not the validated
/// result: a key is either written or not, and a value the loader refuses (node 300, a prefix with `#`) can be.
///
/// ``text`` writes one key per line, always in the same order, so line numbers can be counted:
///
///     [bridge]                  name, then prefix and log_level when set
///     [mqtt]                    when set: host, port, username, password_file, ca_file, cert_file, key_file
///     [zwave]                   when set: port, config_path, state_dir, log_level, refresh_after_set, openzwave_patches,
///                                 network_key_file,
///     [[zwave.device]] ...        then each device (node, instance, room, name, config)
///     [[zwave.scene]] ...         and each scene (node, instance, scene, topic, payload)
///     [cec]                     when set: port, osd_name, device_type, cec_rx_events,
///     [[cec.device]] ...          then each device (address, room, name, inputs)
///     [web]                     when set: listen, auth_token, auth_token_file
///     the appended lines
///
/// `ConfigFixture(name: "living").text` is the smallest valid file, two lines: `[bridge]` and `name = "living"`.
/// Strings are TOML basic strings (quotes, backslashes and control characters escaped); a device's `config` and
/// `inputs` are inline tables on one line.
public struct ConfigFixture: Sendable {
    /// `[bridge] name`.
    public var name: String
    /// `[bridge] prefix`.
    public var prefix: String?
    /// `[bridge] log_level`.
    public var logLevel: Logger.Level?
    /// `[mqtt]`, or no such section.
    public var mqtt: MQTT?
    /// `[zwave]`, or no such section.
    public var zwave: ZWave?
    /// `[cec]`, or no such section.
    public var cec: CEC?
    /// `[web]`, or no such section.
    public var web: Web?
    /// Lines written verbatim at the end, inside the last table written.
    public var appendedLines: [String] = []

    public init(
        name: String = "living", prefix: String? = nil, logLevel: Logger.Level? = nil, mqtt: MQTT? = nil,
        zwave: ZWave? = nil, cec: CEC? = nil, web: Web? = nil
    ) {
        self.name = name
        self.prefix = prefix
        self.logLevel = logLevel
        self.mqtt = mqtt
        self.zwave = zwave
        self.cec = cec
        self.web = web
    }

    /// `[web]`: the dashboard.
    public struct Web: Sendable {
        public var listen: String?
        /// `auth_token`.
        public var authToken: String?
        /// `auth_token_file`.
        public var authTokenFile: String?
        /// `admin_token`, `admin_token_file`, `control_token`, `control_token_file`.
        public var adminToken: String?
        public var adminTokenFile: String?
        public var controlToken: String?
        public var controlTokenFile: String?
        /// `secure_cookie`.
        public var secureCookie: Bool?

        public init(
            listen: String? = nil, authToken: String? = nil, authTokenFile: String? = nil, adminToken: String? = nil,
            adminTokenFile: String? = nil, controlToken: String? = nil, controlTokenFile: String? = nil,
            secureCookie: Bool? = nil
        ) {
            self.listen = listen
            self.authToken = authToken
            self.authTokenFile = authTokenFile
            self.adminToken = adminToken
            self.adminTokenFile = adminTokenFile
            self.controlToken = controlToken
            self.controlTokenFile = controlTokenFile
            self.secureCookie = secureCookie
        }
    }

    /// `[mqtt]`: the broker, credentials and TLS files.
    public struct MQTT: Sendable {
        public var host: String?
        public var port: Int?
        public var username: String?
        public var passwordFile: String?
        public var caFile: String?
        public var certFile: String?
        public var keyFile: String?

        public init(
            host: String? = nil, port: Int? = nil, username: String? = nil, passwordFile: String? = nil,
            caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.passwordFile = passwordFile
            self.caFile = caFile
            self.certFile = certFile
            self.keyFile = keyFile
        }

        /// A broker on this machine at `port` (host `127.0.0.1`).
        public static func local(port: Int) -> MQTT { MQTT(host: "127.0.0.1", port: port) }
    }

    /// `[zwave]`: the stick, OpenZWave's files, the mapped nodes and scenes.
    public struct ZWave: Sendable {
        public var port: String
        public var configPath: String?
        /// `state_dir`.
        public var stateDirectory: String?
        public var logLevel: OpenZWaveLogLevel?
        public var refreshAfterSet: Bool?
        /// `openzwave_patches`.
        public var openZWavePatches: Bool?
        /// `network_key_file`.
        public var networkKeyFile: String?
        /// `ping_silent_after` (seconds).
        public var pingSilentAfter: Int?
        public var devices: [ZWaveDevice]
        public var scenes: [ZWaveScene]
        /// `[[zwave.button]]`, written after the scenes.
        public var buttons: [ZWaveButtonConfig] = []

        public init(
            port: String = "/dev/zwave", configPath: String? = nil, stateDirectory: String? = nil,
            logLevel: OpenZWaveLogLevel? = nil, refreshAfterSet: Bool? = nil, networkKeyFile: String? = nil,
            devices: [ZWaveDevice] = [], scenes: [ZWaveScene] = []
        ) {
            self.port = port
            self.configPath = configPath
            self.stateDirectory = stateDirectory
            self.logLevel = logLevel
            self.refreshAfterSet = refreshAfterSet
            self.networkKeyFile = networkKeyFile
            self.devices = devices
            self.scenes = scenes
        }
    }

    /// `[[zwave.device]]`.
    public struct ZWaveDevice: Sendable {
        public var node: Int
        public var instance: Int?
        public var room: String
        public var name: String
        /// `config`: parameter = value, written in this order.
        public var config: KeyValuePairs<Int, Int>
        /// `associations`, written as given (an inline table like `{ 2 = [3], 3 = ["3:1"] }`).
        public var associations: String?
        /// `wake_up_interval` (seconds).
        public var wakeUpInterval: Int?

        public init(
            node: Int, instance: Int? = nil, room: String, name: String, config: KeyValuePairs<Int, Int> = [:],
            associations: String? = nil, wakeUpInterval: Int? = nil
        ) {
            self.wakeUpInterval = wakeUpInterval
            self.node = node
            self.instance = instance
            self.room = room
            self.name = name
            self.config = config
            self.associations = associations
        }
    }

    /// `[[zwave.scene]]`.
    public struct ZWaveScene: Sendable {
        public var node: Int
        public var instance: Int?
        public var scene: Int
        public var topic: String
        public var payload: String

        public init(node: Int, instance: Int? = nil, scene: Int, topic: String, payload: String) {
            self.node = node
            self.instance = instance
            self.scene = scene
            self.topic = topic
            self.payload = payload
        }
    }

    /// `[cec]`: the adapter, how the bridge presents itself, the mapped devices.
    public struct CEC: Sendable {
        public var port: String?
        public var osdName: String?
        public var deviceType: CECDeviceType?
        /// `cec_rx_events`.
        public var rxEvents: Bool?
        public var devices: [CECDevice]

        public init(
            port: String? = nil, osdName: String? = nil, deviceType: CECDeviceType? = nil, rxEvents: Bool? = nil,
            devices: [CECDevice] = []
        ) {
            self.port = port
            self.osdName = osdName
            self.deviceType = deviceType
            self.rxEvents = rxEvents
            self.devices = devices
        }
    }

    /// `[[cec.device]]`.
    public struct CECDevice: Sendable {
        /// `address`: the logical address.
        public var address: Int
        public var room: String
        public var name: String
        /// `inputs`: name = physical address, written in this order.
        public var inputs: KeyValuePairs<String, String>

        public init(address: Int, room: String, name: String, inputs: KeyValuePairs<String, String> = [:]) {
            self.address = address
            self.room = room
            self.name = name
            self.inputs = inputs
        }
    }

    /// This fixture with `lines` written verbatim at the end (a broken value, a syntax error, an unknown key).
    public func appending(_ lines: String...) -> ConfigFixture {
        var copy = self
        copy.appendedLines += lines
        return copy
    }

    /// The devices.toml text, every line ending in a newline.
    public var text: String {
        var lines = Lines()
        lines.table("[bridge]")
        lines.add("name", string: name)
        lines.add("prefix", string: prefix)
        lines.add("log_level", string: logLevel?.rawValue)
        if let mqtt {
            lines.table("[mqtt]")
            lines.add("host", string: mqtt.host)
            lines.add("port", mqtt.port.map(String.init))
            lines.add("username", string: mqtt.username)
            lines.add("password_file", string: mqtt.passwordFile)
            lines.add("ca_file", string: mqtt.caFile)
            lines.add("cert_file", string: mqtt.certFile)
            lines.add("key_file", string: mqtt.keyFile)
        }
        if let zwave {
            lines.table("[zwave]")
            lines.add("port", string: zwave.port)
            lines.add("config_path", string: zwave.configPath)
            lines.add("state_dir", string: zwave.stateDirectory)
            lines.add("log_level", string: zwave.logLevel?.rawValue)
            lines.add("refresh_after_set", zwave.refreshAfterSet.map(String.init))
            lines.add("openzwave_patches", zwave.openZWavePatches.map(String.init))
            lines.add("network_key_file", string: zwave.networkKeyFile)
            lines.add("ping_silent_after", zwave.pingSilentAfter.map(String.init))
            for device in zwave.devices {
                lines.table("[[zwave.device]]")
                lines.add("node", String(device.node))
                lines.add("instance", device.instance.map(String.init))
                lines.add("room", string: device.room)
                lines.add("name", string: device.name)
                lines.add("config", Self.inlineTable(device.config.map { (String($0.key), String($0.value)) }))
                lines.add("associations", device.associations)
                lines.add("wake_up_interval", device.wakeUpInterval.map(String.init))
            }
            for scene in zwave.scenes {
                lines.table("[[zwave.scene]]")
                lines.add("node", String(scene.node))
                lines.add("instance", scene.instance.map(String.init))
                lines.add("scene", String(scene.scene))
                lines.add("topic", string: scene.topic)
                lines.add("payload", string: scene.payload)
            }
            for button in zwave.buttons {
                lines.table("[[zwave.button]]")
                lines.add("node", String(button.node))
                lines.add("instance", button.instance.map(String.init))
                lines.add("button", String(button.button))
                lines.add("action", string: button.action.rawValue)
                lines.add("topic", string: button.topic)
                lines.add("payload", string: button.payload)
            }
        }
        if let cec {
            lines.table("[cec]")
            lines.add("port", string: cec.port)
            lines.add("osd_name", string: cec.osdName)
            lines.add("device_type", string: cec.deviceType?.rawValue)
            lines.add("cec_rx_events", cec.rxEvents.map(String.init))
            for device in cec.devices {
                lines.table("[[cec.device]]")
                lines.add("address", String(device.address))
                lines.add("room", string: device.room)
                lines.add("name", string: device.name)
                lines.add("inputs", Self.inlineTable(device.inputs.map { (Self.key($0.key), Self.string($0.value)) }))
            }
        }
        if let web {
            lines.table("[web]")
            lines.add("listen", string: web.listen)
            lines.add("auth_token", string: web.authToken)
            lines.add("auth_token_file", string: web.authTokenFile)
            lines.add("admin_token", string: web.adminToken)
            lines.add("admin_token_file", string: web.adminTokenFile)
            lines.add("control_token", string: web.controlToken)
            lines.add("control_token_file", string: web.controlTokenFile)
            lines.add("secure_cookie", web.secureCookie.map { String($0) })
        }
        lines.text += appendedLines.map { $0 + "\n" }.joined()
        return lines.text
    }

    /// `text` as a TOML basic string: `"..."` with quotes, backslashes and control characters escaped. TOML
    /// writes these escapes as JSON does (`\"`, `\\`, `\n`, `\u0001`...), so the bridge's JSON writer serves; TOML
    /// also wants DEL escaped.
    private static func string(_ text: String) -> String {
        JSONValue.string(text).serialized.unicodeScalars.map { $0 == "\u{7F}" ? "\\u007F" : String($0) }.joined()
    }

    /// `text` as a TOML key: bare when it can be, quoted otherwise.
    private static func key(_ text: String) -> String {
        let bare = !text.isEmpty && text.unicodeScalars.allSatisfy(bareKeyCharacters.contains)
        return bare ? text : string(text)
    }

    /// What a bare TOML key is made of.
    private static let bareKeyCharacters = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-".unicodeScalars)

    /// `{ key = value, ... }`, or nil for no pairs.
    private static func inlineTable(_ pairs: [(key: String, value: String)]) -> String? {
        pairs.isEmpty ? nil : "{ " + pairs.map { "\($0.key) = \($0.value)" }.joined(separator: ", ") + " }"
    }

    /// The text being written, a line at a time.
    private struct Lines {
        var text = ""

        mutating func table(_ header: String) { text += header + "\n" }

        /// `key = value`, nothing when `value` is nil.
        mutating func add(_ key: String, _ value: String?) {
            if let value { text += "\(key) = \(value)\n" }
        }

        /// `key = "value"`, nothing when `value` is nil.
        mutating func add(_ key: String, string value: String?) {
            add(key, value.map(ConfigFixture.string))
        }
    }
}
