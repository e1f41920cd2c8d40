public import BridgeCore
public import HomeKit
public import Logging
internal import Synchronization

/// The bridge's devices as HomeKit accessories: the ``AccessoryModel`` the HAP server serves, and a front end of the
/// bridge that follows what it publishes (``bridgePublished(topic:payload:retain:)``) to know every device's state.
///
/// Aid 1 is the bridge; each configured device whose kind the hardware reported is one accessory (see
/// ``AccessoryLayout`` for the services and their fixed instance ids): a dimmer a Lightbulb, a switch or socket an
/// Outlet, a cover a Window Covering, a lock a Lock Mechanism, a TV a Television with its inputs (and a Television
/// Speaker once its audio system reported), and each FGD212 button a `[[zwave.scene]]` names a Stateless
/// Programmable Switch; a device with sensors gets a sensor service per sensor HomeKit knows and a Battery Service (a
/// `sensor` device has only these). Writes become `/set` commands that go through ``Bridge/receive(_:)``, the path
/// every MQTT and dashboard command takes.
public final class HomeKitAccessories: AccessoryModel, BridgeFrontEnd, Sendable {
    let identity: BridgeIdentity
    let name: String
    let scenes: [ZWaveSceneConfig]
    let sceneNodes: Set<Int>
    let allocate: @Sendable (String) -> Int
    let memory: AccessoryMemory
    let logger: Logger
    public let changes: AsyncStream<AccessoryModelChange>
    let continuation: AsyncStream<AccessoryModelChange>.Continuation
    let state: Mutex<State>

    struct State {
        var layout: AccessoryLayout
        var entries: [CharacteristicID: Entry] = [:]
        var mirrors: [DeviceAddress: DeviceMirror] = [:]
        var inventory: [BridgeInventory.Device] = []
        /// Whether an inventory arrived: the first one is the structure controllers first see, not a change.
        var hasInventory = false
        /// The database without values: a change of it is a change of structure.
        var signature = ""
        /// Weak: the bridge holds this front end (a strong reference both ways would keep both for ever).
        weak var bridge: Bridge?
    }

    /// One characteristic: its device (nil for the bridge), its type and what it shows.
    struct Entry: Sendable {
        let device: DeviceDescriptor?
        let type: CharacteristicType
        let binding: Binding
    }

    /// - Parameters:
    ///   - name: the bridge accessory's name (`[homekit] name`).
    ///   - scenes: `[[zwave.scene]]`: the FGD212 buttons that become programmable switches.
    ///   - sceneNodes: the nodes whose scene activation devices.toml turns on (FGD212 parameter 28): both of their
    ///     buttons become programmable switches, named by a scene or not.
    ///   - allocate: the aid of a device by its hardware address (``AccessoryLayout/allocationKey(_:)``): the
    ///     same key must always get the same aid, never 1, and two keys never one aid.
    ///   - memory: what each device was at the last start (the pairing store keeps it), for the devices whose
    ///     interview has not told yet.
    public init(
        name: String, identity: BridgeIdentity, scenes: [ZWaveSceneConfig], sceneNodes: Set<Int> = [],
        allocate: @escaping @Sendable (String) -> Int, memory: AccessoryMemory = .none, logger: Logger
    ) {
        self.name = name
        self.identity = identity
        self.scenes = scenes
        self.sceneNodes = sceneNodes
        self.allocate = allocate
        self.memory = memory
        self.logger = logger
        (changes, continuation) = AsyncStream.makeStream(of: AccessoryModelChange.self, bufferingPolicy: .unbounded)
        let layout = AccessoryLayout(
            bridgeName: name, bridgeSerial: identity.name, inventory: [], scenes: scenes, sceneNodes: sceneNodes,
            withAudio: [],
            allocate: allocate)
        var initial = State(layout: layout)
        Self.index(&initial)
        state = Mutex(initial)
    }

    /// The key the allocator gets for a device at `source`.
    public static func allocationKey(_ source: DeviceSource) -> String { AccessoryLayout.allocationKey(source) }

    // MARK: Structure

    /// Rebuilds the accessories from the inventory and the mirrored states; `.structure` when they changed.
    private func rebuild(_ state: inout State) {
        let audio = Set(
            state.inventory.filter {
                $0.descriptor.kind == .tv && state.mirrors[$0.descriptor.address]?.hasAudio == true
            }
            .map(\.descriptor.address))
        state.layout = AccessoryLayout(
            bridgeName: name, bridgeSerial: identity.name, inventory: state.inventory, scenes: scenes,
            sceneNodes: sceneNodes, withAudio: audio, allocate: allocate)
        let before = state.signature
        Self.index(&state)
        if state.hasInventory, before != state.signature { continuation.yield(.structure) }
    }

    /// The characteristic index and the structure's signature of `state.layout`.
    private static func index(_ state: inout State) {
        var entries: [CharacteristicID: Entry] = [:]
        for accessory in state.layout.accessories {
            for service in accessory.services {
                for characteristic in service.characteristics {
                    entries[CharacteristicID(aid: accessory.aid, iid: characteristic.iid)] = Entry(
                        device: accessory.device, type: characteristic.type, binding: characteristic.binding)
                }
            }
        }
        state.entries = entries
        state.signature = database(state, values: false).serialized
    }

    // MARK: BridgeFrontEnd

    public var subscriptions: [String] { [] }
    public func owns(_ topic: String) -> Bool { false }
    public func receive(_ message: InboundMessage) async {}

    public func inventoryChanged(_ inventory: BridgeInventory) async {
        // Devices in devices.toml whose kind the hardware told (like Home Assistant discovery: a guessed kind would
        // show the wrong accessory until the interview corrects it), or, until it tells, what it told at an earlier
        // start: a start without OpenZWave's cache must not take an accessory, with its room, scenes and
        // automations, out of the Home app. A device leaves only when devices.toml drops it.
        // A device's sensors (each a service) are found one by one as its interview goes; until it is complete, those
        // remembered of the same kind stay, so a sleeping sensor's services do not leave and come back.
        let devices = inventory.devices.compactMap { device -> BridgeInventory.Device? in
            let descriptor = device.descriptor
            guard descriptor.configured else { return nil }
            let key = AccessoryLayout.allocationKey(descriptor.source)
            let remembered = memory.recall(key).flatMap(RememberedKind.init(text:))
            if descriptor.kindKnown {
                let interviewed = descriptor.source.adapter != .zwave || device.facts["interview_stage"] == "Complete"
                let keeps = !interviewed && remembered?.kind == descriptor.kind
                let kept = keeps ? remembered?.sensors ?? [:] : [:]
                let keptButtons = keeps ? remembered?.buttons ?? [:] : [:]
                let shown = descriptor.adding(sensors: kept.filter { descriptor.sensors[$0.key] == nil })
                    .adding(buttons: keptButtons.filter { descriptor.buttons[$0.key] == nil })
                memory.remember(key, RememberedKind(shown).text)
                return BridgeInventory.Device(descriptor: shown, facts: device.facts)
            }
            guard let remembered else { return nil }
            return BridgeInventory.Device(
                descriptor: DeviceDescriptor(
                    address: descriptor.address, kind: remembered.kind, source: descriptor.source,
                    metered: remembered.metered, inputs: descriptor.inputs, configured: true, kindKnown: false,
                    sensors: remembered.sensors
                ).adding(buttons: remembered.buttons),
                facts: device.facts)
        }
        state.withLock { state in
            state.inventory = devices
            rebuild(&state)
            state.hasInventory = true
        }
    }

    public func run(serving bridge: Bridge) async {
        state.withLock { $0.bridge = bridge }
    }

    public var observesPublications: Bool { true }

    public func bridgePublished(topic: String, payload: [UInt8], retain: Bool) {
        guard let (address, publication) = DeviceMirror.parse(topic: topic, payload: payload, prefix: identity.prefix)
        else { return }
        state.withLock { state in
            let accessory = state.layout.accessories.first { $0.device?.address == address }
            let pressed: (button: Int, event: Int)?
            switch publication {
            case .scene(let scene):
                guard case .zwave(let node, _) = accessory?.device?.source else { return }
                pressed = state.layout.press(scene, ofNode: node)
            case .button(let button, let action):
                pressed = AccessoryLayout.switchEvent(action).map { (button, $0) }
            default:
                pressed = nil
            }
            if publication.isEvent {
                guard let accessory, let (button, press) = pressed else { return }
                let switchEvent = accessory.services.flatMap(\.characteristics).first {
                    if case .switchEvent(button) = $0.binding { true } else { false }
                }
                if let switchEvent {
                    continuation.yield(
                        .values([(CharacteristicID(aid: accessory.aid, iid: switchEvent.iid), .int(press))]))
                }
                return
            }
            let before = state.mirrors[address] ?? DeviceMirror()
            var after = before
            after.apply(publication)
            state.mirrors[address] = after
            guard let accessory, let device = accessory.device else { return }
            if device.kind == .tv, before.hasAudio != after.hasAudio {
                rebuild(&state)
                return
            }
            let changed = accessory.services.flatMap(\.characteristics).compactMap {
                characteristic -> (CharacteristicID, JSONValue)? in
                guard characteristic.type.notifies else { return nil }
                let old = before.value(characteristic.binding, device: device)
                let new = after.value(characteristic.binding, device: device)
                return old == new ? nil : (CharacteristicID(aid: accessory.aid, iid: characteristic.iid), new)
            }
            if !changed.isEmpty { continuation.yield(.values(changed)) }
        }
    }

    // MARK: AccessoryModel

    public func database() async -> JSONValue {
        state.withLock { Self.database($0, values: true) }
    }

    public func read(_ ids: [CharacteristicID]) async -> [CharacteristicID: Result<JSONValue, HAPStatus>] {
        state.withLock { state in
            var results: [CharacteristicID: Result<JSONValue, HAPStatus>] = [:]
            for id in ids {
                guard let entry = state.entries[id] else {
                    results[id] = .failure(.resourceDoesNotExist)
                    continue
                }
                guard entry.type.readable else {
                    results[id] = .failure(.writeOnly)
                    continue
                }
                let mirror = entry.device.flatMap { state.mirrors[$0.address] } ?? DeviceMirror()
                if entry.device != nil, !entry.binding.isFixed, !mirror.online {
                    results[id] = .failure(.serviceCommunicationFailure)
                    continue
                }
                results[id] = .success(Self.value(entry, state))
            }
            return results
        }
    }

    public func eventStatus(_ id: CharacteristicID) async -> HAPStatus {
        state.withLock { state in
            guard let entry = state.entries[id] else { return .resourceDoesNotExist }
            return entry.type.notifies ? .success : .notificationNotSupported
        }
    }

    /// The value of `entry` now.
    static func value(_ entry: Entry, _ state: State) -> JSONValue {
        guard let device = entry.device else {
            if case .fixed(let value) = entry.binding { return value }
            return .null
        }
        return (state.mirrors[device.address] ?? DeviceMirror()).value(entry.binding, device: device)
    }

    /// `{"accessories": [...]}`; without `values` (the structure only) for the signature.
    static func database(_ state: State, values: Bool) -> JSONValue {
        .object([
            (
                "accessories",
                .array(
                    state.layout.accessories.map { accessory in
                        .object([
                            ("aid", .int(accessory.aid)),
                            (
                                "services",
                                .array(
                                    accessory.services.map { service in
                                        serviceJSON(service, aid: accessory.aid, state, values: values)
                                    })
                            ),
                        ])
                    })
            )
        ])
    }

    private static func serviceJSON(_ service: LayoutService, aid: Int, _ state: State, values: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("iid", .int(service.iid)), ("type", .string(service.type)), ("primary", .bool(service.primary)),
            ("hidden", false),
        ]
        if !service.linked.isEmpty { members.append(("linked", .array(service.linked.map { .int($0) }))) }
        let characteristics = service.characteristics.map { characteristic -> JSONValue in
            var fields: [(String, JSONValue)] = [
                ("iid", .int(characteristic.iid)), ("type", .string(characteristic.type.type)),
                ("perms", .array(characteristic.type.perms.map { .string($0) })),
                ("format", .string(characteristic.type.format)),
            ]
            fields += characteristic.type.metadata
            let id = CharacteristicID(aid: aid, iid: characteristic.iid)
            if characteristic.type.readable, let entry = state.entries[id] {
                // The structure keeps fixed values (names, models): a renamed device is a changed structure.
                if values || entry.binding.isFixed { fields.append(("value", value(entry, state))) }
            }
            return .object(fields)
        }
        members.append(("characteristics", .array(characteristics)))
        return .object(members)
    }
}

extension Binding {
    var isFixed: Bool {
        if case .fixed = self { return true }
        return false
    }
}

/// What the accessory layout keeps of each device across starts (in the pairing store): its kind as text, by the
/// aid allocator's key.
public struct AccessoryMemory: Sendable {
    public let recall: @Sendable (String) -> String?
    public let remember: @Sendable (String, String) -> Void

    public init(recall: @escaping @Sendable (String) -> String?, remember: @escaping @Sendable (String, String) -> Void)
    {
        self.recall = recall
        self.remember = remember
    }

    /// Remembers nothing.
    public static let none = AccessoryMemory(recall: { _ in nil }, remember: { _, _ in })
}

/// A device's kind, whether it is metered and its sensors with their units, as remembered: `dimmer`,
/// `socket+metered`, `sensor+sensors:battery=%,motion,temperature=°C` (a unit with `+`, `,` or `=` is left out).
struct RememberedKind: Equatable {
    let kind: DeviceKind
    let metered: Bool
    let sensors: [Sensor: String]
    /// The scene buttons (their actions are not remembered: a switch's services do not depend on them; each
    /// comes back with all of them until the interview tells).
    let buttons: [Int: [ButtonAction]]

    init(_ descriptor: DeviceDescriptor) {
        kind = descriptor.kind
        metered = descriptor.metered
        sensors = descriptor.sensors
        buttons = descriptor.buttons.mapValues { _ in ButtonAction.allCases }
    }

    /// `<kind>[+metered][+sensors:<sensor>[=<unit>],...][+buttons:<n>,...]`.
    init?(text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard let first = parts.first, let kind = DeviceKind(rawValue: String(first)) else { return nil }
        var metered = false
        var sensors: [Sensor: String] = [:]
        var buttons: [Int: [ButtonAction]] = [:]
        for part in parts.dropFirst() {
            if part == "metered", !metered, sensors.isEmpty, buttons.isEmpty {
                metered = true
            } else if part.hasPrefix("sensors:"), sensors.isEmpty, buttons.isEmpty {
                for item in part.dropFirst("sensors:".count).split(separator: ",") {
                    let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    guard let sensor = Sensor(rawValue: String(pair[0])) else { return nil }
                    sensors[sensor] = pair.count == 2 ? String(pair[1]) : ""
                }
            } else if part.hasPrefix("buttons:"), buttons.isEmpty {
                for item in part.dropFirst("buttons:".count).split(separator: ",") {
                    guard let button = Int(item), (1...255).contains(button) else { return nil }
                    buttons[button] = ButtonAction.allCases
                }
            } else {
                return nil
            }
        }
        self.kind = kind
        self.metered = metered
        self.sensors = sensors
        self.buttons = buttons
    }

    var text: String {
        let sensors = self.sensors.sorted { $0.key.rawValue < $1.key.rawValue }.map { sensor, unit in
            unit.isEmpty || unit.contains(where: { "+,=".contains($0) })
                ? sensor.rawValue : "\(sensor.rawValue)=\(unit)"
        }
        let buttons = self.buttons.keys.sorted().map(String.init)
        return kind.rawValue + (metered ? "+metered" : "")
            + (sensors.isEmpty ? "" : "+sensors:" + sensors.joined(separator: ","))
            + (buttons.isEmpty ? "" : "+buttons:" + buttons.joined(separator: ","))
    }
}
