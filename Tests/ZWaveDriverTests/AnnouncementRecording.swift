import BridgeCore

@testable import ZWaveDriver

/// What a `DeviceAnnouncements` of `configured` announces while `body` feeds it, one line per event (devices
/// discovered and identified, sensors and buttons found, button actions).
@ZWaveBackendActor
func announcements(
    configured: [ZWaveDeviceConfig], _ body: @ZWaveBackendActor (DeviceAnnouncements) -> Void
) async -> [String] {
    let (stream, continuation) = AsyncStream.makeStream(of: HardwareEvent.self)
    let announced = DeviceAnnouncements(configured: configured, router: EventRouter(stream: continuation))
    body(announced)
    continuation.finish()
    var seen: [String] = []
    for await event in stream {
        switch event {
        case .discovered(let device): seen.append("discovered \(device.address) \(device.kind.rawValue)")
        case .identified(let source, let kind, _): seen.append("identified \(source) \(kind.rawValue)")
        case .sensorsFound(let source, let sensors):
            seen.append("sensors \(source) \(sensors.keys.map(\.rawValue).sorted())")
        case .buttonsFound(let source, let buttons): seen.append("buttons \(source) \(buttons.keys.sorted())")
        case .button(_, let button, let action): seen.append("button \(button) \(action.rawValue)")
        default: break
        }
    }
    return seen
}
