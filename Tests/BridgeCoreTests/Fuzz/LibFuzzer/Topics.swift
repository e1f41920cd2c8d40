// libFuzzer target `topics`: an inbound MQTT topic, parsed and routed as the bridge does on every message.
import BridgeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let topic = String(decoding: UnsafeBufferPointer(start: data, count: data == nil ? 0 : size), as: UTF8.self)
    for topics in [TopicScheme(prefix: "Thuis", bridge: "attic"), TopicScheme(prefix: "home/Thuis", bridge: "attic")] {
        if let parsed = try? topics.parseInbound(topic) { _ = "\(parsed)" }
        _ = topics.route(topic)
    }
    return 0
}
