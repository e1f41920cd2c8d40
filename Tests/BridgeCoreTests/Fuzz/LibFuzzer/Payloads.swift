// libFuzzer target `payloads`: an MQTT payload on a device command topic, parsed into a command for each kind.
import BridgeCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    for kind in DeviceKind.allCases {
        _ = try? PayloadParser.deviceCommand(bytes, kind: kind)
    }
    _ = try? PayloadParser.volumeCommand(bytes)
    _ = try? PayloadParser.muteCommand(bytes)
    _ = try? PayloadParser.inputCommand(bytes, inputs: ["HDMI1": "1.0.0.0", "Chromecast": "2.0.0.0"])
    return 0
}
