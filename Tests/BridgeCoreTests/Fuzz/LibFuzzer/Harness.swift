// libFuzzer entry point for BridgeCore's parsers (not part of the package build: Package.swift excludes
// this directory). Build and run with build.sh in this directory; the first input byte picks the target.
import BridgeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 4 {
    case 0:
        _ = try? TopicScheme(prefix: "Thuis", bridge: "attic").parseInbound(String(decoding: bytes, as: UTF8.self))
        _ = try? TopicScheme(prefix: "home/Thuis", bridge: "attic").parseInbound(String(decoding: bytes, as: UTF8.self))
    case 1:
        for kind in [DeviceKind.dimmer, .binarySwitch, .socket, .tv] {
            _ = try? PayloadParser.deviceCommand(bytes, kind: kind)
        }
        _ = try? PayloadParser.volumeCommand(bytes)
        _ = try? PayloadParser.muteCommand(bytes)
        _ = try? PayloadParser.inputCommand(bytes, inputs: ["HDMI1": "1.0.0.0", "Chromecast": "2.0.0.0"])
    case 2:
        if let value = try? JSONValue.parse(bytes) { _ = try? JSONValue.parse(Array(value.serialized.utf8)) }
    default:
        _ = try? ConfigurationLoader.parse(text: String(decoding: bytes, as: UTF8.self))
    }
    return 0
}
