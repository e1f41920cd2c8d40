// libFuzzer target `requests`: a bridge request as it arrives on `<prefix>/bridge/<bridge>/request/<verb>`. The
// first byte picks the verb (an index into BridgeRequest.Verb.allCases), the rest is the MQTT payload: parsed as
// JSON, then into the typed request with its arguments checked, as the bridge does.
import BridgeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let verbs = BridgeRequest.Verb.allCases
    let verb = verbs[Int(data[0]) % verbs.count]
    let payload = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let arguments: JSONValue
    if payload.isEmpty {
        arguments = .object([])
    } else {
        guard let parsed = try? JSONValue.parse(payload) else { return 0 }
        arguments = parsed
    }
    _ = arguments["transaction"]
    if let request = try? BridgeRequest.parse(verb: verb, arguments: arguments) { _ = "\(request)" }
    return 0
}
