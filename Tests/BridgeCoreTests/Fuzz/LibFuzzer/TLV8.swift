// libFuzzer target `tlv8`: HomeKit's TLV8 decoding (fragments joined, separators dropped). A buffer that decodes
// encodes to one that decodes to the same items.
import HomeKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let decoded = try? TLV8(decoding: bytes) else { return 0 }
    guard let again = try? TLV8(decoding: decoded.encoded) else {
        preconditionFailure("an encoded TLV8 does not decode")
    }
    guard again.items.map({ "\($0.type):\($0.value)" }) == decoded.items.map({ "\($0.type):\($0.value)" }) else {
        preconditionFailure("TLV8 items do not survive encoding")
    }
    return 0
}
