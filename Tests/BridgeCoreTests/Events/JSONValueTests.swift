import BridgeCore
import Testing

@Suite struct JSONValueTests {
    @Test func serializesInOrderWithEscapes() {
        let value: JSONValue = .object([("type", "x"), ("text", .string("a\"b\\c\n\u{01}")), ("n", 3), ("ok", true)])
        #expect(value.serialized == #"{"type":"x","text":"a\"b\\c\n\u0001","n":3,"ok":true}"#)
    }

    @Test func parsesWhatItSerializes() throws {
        let text = #"{"transaction":"t1","node":2,"list":[1,2.5,null,false],"s":"\u00e9\ud83d\ude00"}"#
        let value = try JSONValue.parse(Array(text.utf8))
        #expect(value["transaction"] == "t1")
        #expect(value["node"] == 2)
        #expect(value["s"] == .string("é😀"))
        #expect(try JSONValue.parse(Array(value.serialized.utf8)) == value)
    }

    @Test(arguments: ["", "{", "{\"a\":}", "[1,]", "nul", "\"\\x\"", "{\"a\":1}x", "1e999", "\"\u{01}\""])
    func rejectsMalformed(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(text.utf8)) }
    }

    @Test func rejectsDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(deep.utf8)) }
    }
}
