// libFuzzer target `hap-characteristics`: what a verified controller sends to `/characteristics`: the `id=` list of
// a GET and the JSON body of a PUT. The input's first byte picks which. An accepted id list is never empty; an
// accepted PUT is a list of writes each with a value or an `ev`, and `r` only with a value.
@testable import HomeKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let first = bytes.first else { return 0 }
    let rest = Array(bytes.dropFirst())
    if first & 1 == 0 {
        if let ids = HAPServer.characteristicIDs(String(decoding: rest, as: UTF8.self)) {
            precondition(!ids.isEmpty, "an empty id list was accepted")
        }
    } else if case .success(let writes) = HAPServer.writes(rest) {
        for write in writes {
            precondition(write.value != nil || write.events != nil, "a write with neither a value nor ev")
            precondition(!write.respond || write.value != nil, "r without a value")
        }
    }
    return 0
}
