// libFuzzer target `json`: the JSON parser every request and dashboard message goes through. An accepted value
// must serialize to JSON that parses back to the same value.
import BridgeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let value = try? JSONValue.parse(bytes) else { return 0 }
    let text = value.serialized
    guard let again = try? JSONValue.parse(Array(text.utf8)), again.serialized == text else {
        preconditionFailure("accepted JSON does not round-trip: \(text.prefix(200))")
    }
    return 0
}
