import Testing

@testable import HomeKit

@Suite struct TLV8Tests {
    @Test func roundTripWithFragmentsAndSeparators() throws {
        let long = (0..<600).map { UInt8($0 % 251) }
        var tlv = TLV8([(.state, [1]), (.publicKey, long)])
        tlv.append(.identifier, Array("a".utf8))
        tlv.append(.identifier, Array("b".utf8))
        let bytes = tlv.encoded
        // 600 bytes: fragments of 255, 255 and 90 bytes, each with its own type and length.
        #expect(Array(bytes[3...4]) == [0x03, 255])
        #expect(Array(bytes[(3 + 257)...(3 + 258)]) == [0x03, 255])
        #expect(Array(bytes[(3 + 514)...(3 + 515)]) == [0x03, 90])
        // Two identifiers in a row: kept apart by a separator.
        #expect(bytes.suffix(8) == [0x01, 1, 0x61, 0xFF, 0, 0x01, 1, 0x62])
        let decoded = try TLV8(decoding: bytes)
        #expect(decoded[.publicKey] == long)
        #expect(decoded.byte(.state) == 1)
        #expect(decoded.items.filter { $0.type == TLV8.Tag.identifier.rawValue }.map(\.value) == [[0x61], [0x62]])
    }

    @Test(arguments: [[0x06], [0x06, 2, 1], [0x03, 255] + [UInt8](repeating: 0, count: 254)])
    func truncatedInputIsAnError(bytes: [UInt8]) {
        #expect(throws: TLV8.DecodingError.self) { try TLV8(decoding: bytes) }
    }

    @Test func exactly255BytesThenAnotherItemOfTheSameTypeAfterASeparator() throws {
        var tlv = TLV8()
        tlv.append(.signature, [UInt8](repeating: 7, count: 255))
        tlv.append(.signature, [8])
        let decoded = try TLV8(decoding: tlv.encoded)
        #expect(decoded.items.map(\.value.count) == [255, 1])
    }
}

@Suite struct SetupCodeTests {
    @Test(arguments: ["031-45-154", "101-48-005"])
    func valid(text: String) throws {
        #expect(try SetupCode(text).description == text)
    }

    @Test(arguments: [
        "000-00-000", "111-11-111", "999-99-999", "123-45-678", "876-54-321", "03145154", "031-45-15", "031-45-15a",
        "031 45 154", "",
    ])
    func refused(text: String) {
        #expect(throws: SetupCode.Invalid.self) { try SetupCode(text) }
    }

    @Test func randomCodesAreValid() throws {
        for _ in 0..<50 { _ = try SetupCode(SetupCode.random().description) }
    }

    /// The setup payload of a bridge (category 2, over IP) with code 518-08-582 and setup id 7OSX, as the HAP
    /// specification's example QR codes encode it: 45 bits in nine base-36 digits, then the setup id.
    @Test func setupPayload() throws {
        let payload = SetupPayload(code: try SetupCode("518-08-582"), setupID: "7OSX")
        let uri = payload.uri
        #expect(uri.hasPrefix("X-HM://") && uri.hasSuffix("7OSX") && uri.count == 7 + 9 + 4)
        let digits = uri.dropFirst(7).prefix(9)
        let value = digits.reduce(UInt64(0)) { $0 * 36 + UInt64(String($1), radix: 36)! }
        #expect(value & 0x7FF_FFFF == 51_808_582)
        #expect((value >> 27) & 0xF == 2)  // IP
        #expect((value >> 31) & 0xFF == 2)  // bridge
        #expect(value >> 39 == 0)  // version and reserved bits
    }
}
