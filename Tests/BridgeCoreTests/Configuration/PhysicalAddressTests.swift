import BridgeCore
import Testing

@Suite struct PhysicalAddressTests {
    @Test(arguments: [
        ("0.0.0.0", 0x0000), ("1.0.0.0", 0x1000), ("2.0.0.0", 0x2000), ("1.2.0.0", 0x1200), ("1.2.3.4", 0x1234),
        ("15.0.0.0", 0xF000), ("f.0.0.0", 0xF000), ("A.b.0.0", 0xAB00), ("10.15.14.0", 0xAFE0),
    ])
    func parsesDottedNibbles(text: String, raw: Int) throws {
        #expect(try PhysicalAddress(parsing: text).rawValue == UInt16(raw))
    }

    @Test func printsLikeLibcec() {
        #expect(PhysicalAddress(rawValue: 0x1000).description == "1.0.0.0")
        #expect(PhysicalAddress(rawValue: 0xAFE0).description == "a.f.e.0")
        #expect(PhysicalAddress(rawValue: 0x1234).nibbles == [1, 2, 3, 4])
    }

    @Test(arguments: [
        "", "1", "1.0.0", "1.0.0.0.0", "16.0.0.0", "-1.0.0.0", "+1.0.0.0", "1..0.0", "1.0.0.0 ",
        "x.0.0.0", "1.0.2.0", "0.1.0.0", "f.f.f.f", "01.0.0.0.", "１.0.0.0", "100.0.0.0",
    ])
    func refusesMalformedAddresses(text: String) {
        #expect(throws: PhysicalAddress.ParseError.self) { try PhysicalAddress(parsing: text) }
    }
}
