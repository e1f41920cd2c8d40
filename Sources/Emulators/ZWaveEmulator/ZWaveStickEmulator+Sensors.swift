internal import Dispatch

/// Control API of the battery and sensor kinds (sleeping nodes, sensors, buttons, the lock, the shutter). Every
/// method is thread-safe and returns false when `node` is not an included node of the right kind.
extension ZWaveStickEmulator {
    /// Runs `action` on the included node `id` if it is a `T`, and sends the reports it returns; false when there is
    /// no such node or `action` returns nil (the node lacks what it acts on).
    private func act<T>(_ id: UInt8, as type: T.Type, _ action: (T) -> [NodeReport]?) -> Bool {
        queue.sync {
            guard let node = nodes[id], node.included, let typed = node as? T, let reports = action(typed) else {
                return false
            }
            sendUnsolicited(reports, from: id)
            return true
        }
    }

    /// Motion starts or ends at a MultiSensor 6.
    @discardableResult
    public func setMotion(node: UInt8, _ motion: Bool) -> Bool {
        act(node, as: MultiSensor6Node.self) { $0.setMotion(motion) }
    }

    /// The door of a door/window sensor opens or closes.
    @discardableResult
    public func setDoor(node: UInt8, open: Bool) -> Bool {
        act(node, as: DoorWindowSensorNode.self) { $0.setOpen(open) }
    }

    /// The casing of a MultiSensor 6 or door/window sensor is opened.
    @discardableResult
    public func tamper(node: UInt8) -> Bool {
        act(node, as: EmulatedNode.self) {
            $0 is MultiSensor6Node || $0 is DoorWindowSensorNode ? [NodeReport(0, NotificationEvent.tamperReport)] : nil
        }
    }

    /// A WallMote Quad's button (1-4) is pressed 1-5 times, held or released.
    @discardableResult
    public func pressSceneButton(node: UInt8, button: UInt8, _ action: SceneAction) -> Bool {
        act(node, as: WallMoteQuadNode.self) { $0.press(button: button, action) }
    }

    /// A WallMote Quad sends its last Central Scene Notification again, with the same sequence number.
    @discardableResult
    public func repeatSceneNotification(node: UInt8) -> Bool {
        act(node, as: WallMoteQuadNode.self) { $0.repeatLast() }
    }

    /// A battery node's level changes (0-100 %): it reports the new level.
    @discardableResult
    public func setBattery(node: UInt8, level: UInt8) -> Bool {
        act(node, as: EmulatedNode.self) { $0.setBattery(level) }
    }

    /// A sensor's reading changes (`type`: a Sensor Multilevel type, 1 temperature °C, 3 luminance lux,
    /// 5 humidity %, 27 ultraviolet): the node reports it.
    @discardableResult
    public func setSensor(node: UInt8, type: UInt8, value: Double) -> Bool {
        act(node, as: (any MultilevelSensing).self) { $0.setReading(type: type, value) }
    }

    /// Wakes a sleeping node (as its button does): it sends a Wake Up Notification and stays awake until the
    /// controller sends Wake Up No More Information, or for 10 s without a frame.
    @discardableResult
    public func wake(node: UInt8) -> Bool {
        act(node, as: EmulatedNode.self) { $0.wake() }
    }

    /// Wakes each of `sleepers` (as its button does) whenever the host sends it a frame (Send Data, Request Node
    /// Info) while it sleeps, as a person would while the controller interviews it, until `frames` (from
    /// ``hostFrameStream()``, taken before the host starts) ends; returns how many times it woke one.
    public func wake(_ sleepers: Set<UInt8>, whenAddressedIn frames: AsyncStream<HostFrameEvent>) async -> Int {
        var wakes = 0
        for await event in frames {
            let frame = event.frame
            let addressed =
                frame.function == SerialFunction.sendData || frame.function == SerialFunction.requestNodeInfo
                ? frame.payload.first : nil
            guard let node = addressed, sleepers.contains(node), isAwake(node: node) == false else { continue }
            if wake(node: node) { wakes += 1 }
        }
        return wakes
    }

    /// A sleeping node's wake-up interval (seconds) and the node its notifications go to; nil without such a node.
    public func wakeUpSetting(node: UInt8) -> (interval: UInt32, target: UInt8)? {
        queue.sync { nodes[node]?.wakeUp.map { ($0.interval, $0.target) } }
    }

    /// Whether a node hears the radio now (false: a sleeping node that sleeps); nil without such a node.
    public func isAwake(node: UInt8) -> Bool? {
        queue.sync { nodes[node]?.isAwake }
    }

    /// A door lock is locked or unlocked by hand.
    @discardableResult
    public func setLocked(node: UInt8, _ locked: Bool) -> Bool {
        act(node, as: DoorLockNode.self) { $0.setLocked(locked) }
    }

    /// A door lock's bolt jams: it reports "lock jammed" until it is locked or unlocked again.
    @discardableResult
    public func jamLock(node: UInt8) -> Bool {
        act(node, as: DoorLockNode.self) { $0.jam() }
    }

    /// Executes the control lines of these kinds (see `execute(_:)`); nil for another verb.
    func executeSensorLine(_ verb: String, _ args: [String]) -> String? {
        func node(_ i: Int) -> UInt8? { i < args.count ? UInt8(args[i]) : nil }
        func word(_ i: Int) -> String { i < args.count ? args[i].lowercased() : "" }
        func result(_ ok: Bool, _ kind: String) -> String {
            ok ? "ok" : "error: node \(node(0).map(String.init) ?? "?") is not an included \(kind)"
        }
        switch verb {
        case "motion":
            guard let n = node(0), ["on", "off"].contains(word(1)) else { return "error: motion <node> on|off" }
            return result(setMotion(node: n, word(1) == "on"), "MultiSensor 6")
        case "door":
            guard let n = node(0), ["open", "close", "closed"].contains(word(1)) else {
                return "error: door <node> open|close"
            }
            return result(setDoor(node: n, open: word(1) == "open"), "door/window sensor")
        case "tamper":
            guard let n = node(0) else { return "error: tamper <node>" }
            return result(tamper(node: n), "sensor with a tamper switch")
        case "button":
            if let n = node(0), word(1) == "again" {
                return result(repeatSceneNotification(node: n), "WallMote Quad that sent a notification")
            }
            guard let n = node(0), let b = node(1), let action = SceneAction(word: word(2)) else {
                return "error: button <node> <1-4> 1x|2x|3x|4x|5x|held|released, or button <node> again"
            }
            return result(pressSceneButton(node: n, button: b, action), "WallMote Quad (buttons 1-4)")
        case "battery":
            guard let n = node(0), let level = node(1), level <= 100 else { return "error: battery <node> <0-100>" }
            return result(setBattery(node: n, level: level), "battery node")
        case "temperature":
            guard let n = node(0), args.count >= 2, let c = Double(args[1]), c.isFinite else {
                return "error: temperature <node> <°C>"
            }
            return result(setSensor(node: n, type: SensorReading.temperature, value: c), "temperature sensor")
        case "sensor":
            let types: [String: UInt8] = [
                "temperature": SensorReading.temperature, "luminance": SensorReading.luminance,
                "humidity": SensorReading.humidity, "uv": SensorReading.ultraviolet,
            ]
            guard let n = node(0), let type = types[word(1)], args.count >= 3, let v = Double(args[2]), v.isFinite
            else { return "error: sensor <node> temperature|humidity|luminance|uv <value>" }
            return result(setSensor(node: n, type: type, value: v), "sensor of \(word(1))")
        case "wake":
            guard let n = node(0) else { return "error: wake <node>" }
            return result(wake(node: n), "sleeping node")
        case "lock":
            guard let n = node(0), ["lock", "unlock", "jam"].contains(word(1)) else {
                return "error: lock <node> lock|unlock|jam"
            }
            let done = word(1) == "jam" ? jamLock(node: n) : setLocked(node: n, word(1) == "lock")
            return result(done, "door lock")
        default:
            return nil
        }
    }
}
