// libFuzzer target `dashboard`: one WebSocket text frame from a dashboard, decoded as the server does on each frame,
// then taken as far as the server takes it without a bridge: the role policy, and for a request its payload into the
// typed request.
import BridgeCore
import WebDashboard

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let topics = TopicScheme(prefix: "Thuis", bridge: "attic")
    switch try? DashboardProtocol.parse(bytes) {
    case .set(let topic, let payload)?:
        _ = DashboardPolicy.target(ofSet: topic, topics: topics, registry: DeviceRegistry())
        for kind in DeviceKind.allCases {
            let device = DeviceDescriptor(
                address: DeviceAddress(room: "room", name: "device"), kind: kind, source: .cec(logicalAddress: 0),
                inputs: ["appletv": "1.0.0.0"])
            let a = device.address
            for route in [TopicScheme.Inbound.deviceSet(a), .deviceGet(a), .volumeSet(a), .muteSet(a), .inputSet(a)] {
                // The oracle: a command that parses fits its device, and its MQTT form parses back into it.
                guard let command = try? PayloadParser.command(for: route, payload: payload, device: device) else {
                    continue
                }
                precondition(command.refusal(for: device) == nil, "\(command) does not fit the \(kind) it parsed for")
                let wire = command.wire(topics.device(device.address))
                guard case .success(let back) = topics.route(wire.topic),
                    (try? PayloadParser.command(for: back, payload: Array(wire.payload.utf8), device: device))
                        == command
                else { preconditionFailure("\(command)'s MQTT form \(wire) does not parse back") }
            }
        }
    case .request(let verb, let payload)?:
        _ = DashboardPolicy.refusal(ofRequest: verb, role: .control)
        if let verb = BridgeRequest.Verb(rawValue: verb) {
            if let arguments = try? payload.isEmpty ? JSONValue.object([]) : JSONValue.parse(payload) {
                _ = try? BridgeRequest.parse(verb: verb, arguments: arguments)
            }
        }
    case .scene(let topic, _)?:
        _ = topics.route(topic)
    case nil:
        break
    }
    return 0
}
