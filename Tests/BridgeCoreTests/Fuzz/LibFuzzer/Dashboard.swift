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
        _ = DashboardPolicy.refusal(ofSet: topic, topics: topics, registry: DeviceRegistry())
        for kind in DeviceKind.allCases { _ = try? PayloadParser.deviceCommand(payload, kind: kind) }
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
