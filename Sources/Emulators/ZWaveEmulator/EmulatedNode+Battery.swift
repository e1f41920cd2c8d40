/// What a battery node has besides its functional command classes: a level (Battery CC) and, if it sleeps, a
/// sleep cycle (Wake Up CC; nil for a FLiRS node, which hears every frame).
struct BatteryState {
    var level: UInt8
    var wakeUp: WakeUpState?
}

/// The sleeping behaviour of a battery node (Wake Up CC, 0x84), shared by every sleeping kind: asleep, the node
/// hears nothing (the stick's SEND_DATA gets no ACK); it wakes on its interval's timer or on request (its button),
/// sends a Wake Up Notification, stays awake while the controller talks to it and goes back to sleep on Wake Up
/// No More Information or after `awakeWindow` real seconds without a frame.
struct WakeUpState {
    /// Seconds between timed wake-ups (emulated time); 0: no timed wake-ups.
    var interval: UInt32
    /// Wake Up Interval Capabilities (v2): minimum, maximum, default, step (seconds).
    var minimum: UInt32
    var maximum: UInt32
    var defaultInterval: UInt32
    var step: UInt32
    /// The node the notification goes to (Wake Up Interval Set).
    var target: UInt8 = 1
    var awake = false
    /// Emulated seconds since the last wake-up (for the interval timer).
    var sinceWakeUp = 0.0
    /// Real seconds since the controller last spoke to the node while awake.
    var idle = 0.0
    /// How long an awake node waits for the controller (real seconds) before it sleeps again.
    static let awakeWindow = 10.0

    init(interval: UInt32, minimum: UInt32, maximum: UInt32, step: UInt32) {
        self.interval = interval
        self.minimum = minimum
        self.maximum = maximum
        self.defaultInterval = interval
        self.step = step
    }

    static let notification: [UInt8] = [0x84, 0x07]

    /// Wakes the node up (again): the awake window starts over.
    mutating func wake() {
        awake = true
        idle = 0
        sinceWakeUp = 0
    }

    /// Time passes; returns whether the interval timer woke the node.
    mutating func advance(emulated: Double, real: Double) -> Bool {
        if awake {
            idle += real
            if idle >= Self.awakeWindow { awake = false }
        }
        sinceWakeUp += emulated
        guard interval > 0, sinceWakeUp >= Double(interval) else { return false }
        wake()
        return true
    }

    /// Answers a Wake Up command (the node is awake, or it would not have heard it).
    mutating func handle(_ c: [UInt8]) -> [UInt8]? {
        idle = 0
        switch c[1] {
        case 0x04 where c.count >= 6:  // Interval Set: seconds (3 bytes), target node
            interval = UInt32(c[2]) << 16 | UInt32(c[3]) << 8 | UInt32(c[4])
            target = c[5]
            return nil
        case 0x05:  // Interval Get
            return [0x84, 0x06] + Self.be24(interval) + [target]
        case 0x08:  // No More Information: back to sleep
            awake = false
            return nil
        case 0x09:  // Interval Capabilities Get (v2)
            return [0x84, 0x0A] + Self.be24(minimum) + Self.be24(maximum) + Self.be24(defaultInterval)
                + Self.be24(step)
        default:
            return nil
        }
    }

    static func be24(_ v: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}

/// A Sensor Multilevel (0x31) reading: type, scale, and value shown with `precision` decimals.
struct SensorReading {
    var type: UInt8
    var scale: UInt8
    var precision: UInt8
    var value: Double

    /// `31 05 <type> <precision | scale | size 2> <value BE>` (size 4 when it does not fit in 2 bytes).
    var report: [UInt8] {
        var factor = 1.0
        for _ in 0..<precision { factor *= 10 }
        let scaled = (value * factor).rounded()
        let raw = Int32(scaled.isFinite ? min(max(scaled, Double(Int32.min)), Double(Int32.max)) : 0)
        let size: UInt8 = raw >= Int32(Int16.min) && raw <= Int32(Int16.max) ? 2 : 4
        let word = UInt32(bitPattern: raw)
        let bytes: [UInt8] =
            size == 2
            ? [UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
            : [
                UInt8(truncatingIfNeeded: word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ]
        return [0x31, 0x05, type, (precision << 5) | ((scale & 0x03) << 3) | size] + bytes
    }

    /// Answers the Sensor Multilevel commands of a node with `readings`: Supported Sensor Get, Supported Scale
    /// Get, and Get (the requested type, v5+, or the first sensor).
    static func answer(_ c: [UInt8], readings: [SensorReading]) -> [UInt8]? {
        switch c[1] {
        case 0x01:  // Supported Sensor Get
            return [0x31, 0x02] + NotificationEvent.bitmask(readings.map { $0.type - 1 })
        case 0x03 where c.count >= 3:  // Supported Scale Get
            let scale = readings.first { $0.type == c[2] }?.scale ?? 0
            return [0x31, 0x06, c[2], 1 << scale]
        case 0x04:  // Get [type, scale]
            let reading = c.count >= 3 ? readings.first { $0.type == c[2] } ?? readings.first : readings.first
            return reading?.report
        default:
            return nil
        }
    }

    /// An air temperature in °C shown with `precision` decimals.
    static func celsius(_ value: Double, precision: UInt8) -> SensorReading {
        SensorReading(type: temperature, scale: 0, precision: precision, value: value)
    }

    /// Sensor Multilevel Types (SDS13812).
    static let temperature: UInt8 = 0x01
    static let luminance: UInt8 = 0x03
    static let humidity: UInt8 = 0x05
    static let ultraviolet: UInt8 = 0x1B
}

/// Notification CC (0x71, v3+) reports and the supported-events bitmasks.
enum NotificationEvent {
    static let accessControl: UInt8 = 0x06
    static let homeSecurity: UInt8 = 0x07
    static let idle: UInt8 = 0x00
    static let tamper: UInt8 = 0x03
    static let motion: UInt8 = 0x08
    static let doorOpen: UInt8 = 0x16
    static let doorClosed: UInt8 = 0x17

    /// `71 05 00 00 00 FF <type> <event> <params length> <params>` (v1 alarm fields zero, status on).
    static func report(type: UInt8, event: UInt8, parameters: [UInt8] = []) -> [UInt8] {
        [0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, type, event, UInt8(parameters.count)] + parameters
    }

    /// Tampering (the casing opened): Notification home security, tampering.
    static let tamperReport = report(type: homeSecurity, event: tamper)

    /// A bitmask with bit n set for each n in `bits` (as the Supported Reports carry them).
    static func bitmask(_ bits: [UInt8]) -> [UInt8] {
        let count = Int((bits.max() ?? 0) / 8) + 1
        var mask = [UInt8](repeating: 0, count: count)
        for b in bits { mask[Int(b / 8)] |= 1 << (b % 8) }
        return mask
    }

    /// Answers the Notification commands of a node supporting `events` (per type): Supported Get, Event
    /// Supported Get, and Get (the last event of the type, from `state`).
    static func answer(_ c: [UInt8], events: [UInt8: [UInt8]], state: [UInt8: UInt8]) -> [UInt8]? {
        switch c[1] {
        case 0x07:  // Notification Supported Get
            let mask = bitmask(events.keys.sorted())
            return [0x71, 0x08, UInt8(mask.count)] + mask
        case 0x01 where c.count >= 3:  // Event Supported Get
            let mask = bitmask(events[c[2]] ?? [])
            return [0x71, 0x02, c[2], UInt8(mask.count)] + mask
        case 0x04:  // Get: v1 type, (v2+) notification type, event
            let type = c.count >= 4 ? c[3] : (events.keys.min() ?? 0)
            guard events[type] != nil else { return report(type: type, event: 0xFE) }
            return report(type: type, event: state[type] ?? idle)
        default:
            return nil
        }
    }
}

/// A node with Sensor Multilevel readings.
protocol MultilevelSensing: EmulatedNode {
    var readings: [SensorReading] { get set }
}

extension MultilevelSensing {
    /// A new value of one sensor (type as in `SensorReading`): the node reports it; nil for a sensor it lacks.
    func setReading(type: UInt8, _ value: Double) -> [NodeReport]? {
        guard let i = readings.firstIndex(where: { $0.type == type }), value.isFinite else { return nil }
        readings[i].value = value
        return [NodeReport(0, readings[i].report)]
    }
}

extension EmulatedNode {
    /// The Battery and Wake Up commands every battery kind shares; nil when `c` is not one of them.
    func handleBattery(_ c: [UInt8]) -> [UInt8]? {
        switch (c[0], c[1]) {
        case (0x80, 0x02):  // Battery Get
            return batteryLevel.map { [0x80, 0x03, $0] }
        case (0x84, _):
            return wakeUp?.handle(c)
        default:
            return nil
        }
    }

    /// A new battery level (0-100 %; 0xFF is "low battery"): the node reports it; nil for a mains-powered node.
    func setBattery(_ level: UInt8) -> [NodeReport]? {
        guard battery != nil else { return nil }
        battery?.level = level
        return [NodeReport(0, [0x80, 0x03, level])]
    }

    /// Wakes a sleeping node (its button): it sends a Wake Up Notification; nil for a listening node.
    func wake() -> [NodeReport]? {
        guard wakeUp != nil else { return nil }
        wakeUp?.wake()
        return [NodeReport(0, WakeUpState.notification)]
    }

    /// How a node listens: always (mains), sleeping (Wake Up), or frequently (FLiRS, woken by a beam every 1000 ms).
    enum Listening { case always, sleeping, frequent }

    /// Sets a node's identity: Manufacturer Specific ids, device class, protocol info (listening or not, FLiRS),
    /// and its command classes (NIF order) with their versions.
    func identify(
        _ ids: (id: UInt16, type: UInt16, product: UInt16), generic: UInt8, specific: UInt8, listening: Listening,
        classes: KeyValuePairs<UInt8, UInt8>
    ) {
        manufacturer = ids
        self.generic = generic
        self.specific = specific
        protocolInfo = [
            listening == .always ? 0xD3 : 0x53, listening == .frequent ? 0xDC : 0x9C, 0x01, 0x04, generic, specific,
        ]
        commandClasses = classes.map(\.key)
        versions = Dictionary(classes.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
