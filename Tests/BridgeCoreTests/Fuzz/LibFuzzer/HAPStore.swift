// libFuzzer target `hap-store`: the HomeKit pairing file as the bridge reads it back (a file cut short, damaged or
// written by someone else). Accepted state encodes to a file that decodes to the same state.
@testable import HomeKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let state = try? HomeKitStore.decode(bytes, path: "fuzz.json") else { return 0 }
    let encoded = HomeKitStore.encode(state)
    guard let again = try? HomeKitStore.decode(encoded, path: "fuzz.json"), HomeKitStore.encode(again) == encoded else {
        preconditionFailure("an accepted pairing file does not survive a write and a read")
    }
    return 0
}
