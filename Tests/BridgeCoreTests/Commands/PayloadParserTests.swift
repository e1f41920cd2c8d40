import BridgeCore
import Testing

@Suite struct PayloadParserTests {
    func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func dimmerAcceptsLevelsAndWordsCaseInsensitively() throws {
        #expect(try PayloadParser.deviceCommand(bytes("40"), kind: .dimmer) == .level(40))
        #expect(try PayloadParser.deviceCommand(bytes(" 0\n"), kind: .dimmer) == .level(0))
        #expect(try PayloadParser.deviceCommand(bytes("100"), kind: .dimmer) == .level(99))
        #expect(try PayloadParser.deviceCommand(bytes("ON"), kind: .dimmer) == .on)
        #expect(try PayloadParser.deviceCommand(bytes("Toggle"), kind: .dimmer) == .toggle)
    }

    @Test(arguments: [
        ("abc", "unknown command"), ("-5", "out of range"), ("1e9", "unknown command"), ("", "empty payload"),
        ("101", "out of range"), ("40.5", "unknown command"), ("  ", "empty payload"),
    ])
    func dimmerRejectsMalformedPayloads(payload: String, reason: String) {
        #expect(throws: PayloadError.self) { try PayloadParser.deviceCommand(Array(payload.utf8), kind: .dimmer) }
        do {
            _ = try PayloadParser.deviceCommand(Array(payload.utf8), kind: .dimmer)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    /// A cover takes open, close, stop and a position in % open (100 and 99 are the level 99); not on, off, toggle,
    /// a word it does not know or a position out of range.
    @Test func coverTakesOpenCloseStopAndAPosition() throws {
        #expect(try PayloadParser.deviceCommand(bytes("open"), kind: .cover) == .level(99))
        #expect(try PayloadParser.deviceCommand(bytes("CLOSE"), kind: .cover) == .level(0))
        #expect(try PayloadParser.deviceCommand(bytes(" stop\n"), kind: .cover) == .stop)
        #expect(try PayloadParser.deviceCommand(bytes("100"), kind: .cover) == .level(99))
        #expect(try PayloadParser.deviceCommand(bytes("35"), kind: .cover) == .level(35))
        #expect(try PayloadParser.deviceCommand(bytes("0"), kind: .cover) == .level(0))
        for (payload, reason) in [
            ("on", "unknown command \"on\"; a cover takes open, close, stop or a position 0..100 (% open)"),
            ("toggle", "unknown command \"toggle\"; a cover takes open, close, stop or a position 0..100 (% open)"),
            ("101", "position 101 is out of range; a cover takes open, close, stop or a position 0..100 (% open)"),
            ("-1", "position -1 is out of range; a cover takes open, close, stop or a position 0..100 (% open)"),
        ] {
            #expect(throws: PayloadError(reason)) { try PayloadParser.deviceCommand(Array(payload.utf8), kind: .cover) }
        }
        // Only a cover stops.
        #expect(throws: PayloadError.self) { try PayloadParser.deviceCommand(bytes("stop"), kind: .dimmer) }
    }

    /// A lock takes lock and unlock (any case), nothing else.
    @Test func lockTakesLockAndUnlock() throws {
        #expect(try PayloadParser.deviceCommand(bytes("lock"), kind: .lock) == .setLocked(true))
        #expect(try PayloadParser.deviceCommand(bytes(" Unlock\n"), kind: .lock) == .setLocked(false))
        for payload in ["on", "off", "toggle", "open", "1", "locked"] {
            #expect(throws: PayloadError("unknown command \"\(payload)\"; a lock takes lock or unlock")) {
                try PayloadParser.deviceCommand(Array(payload.utf8), kind: .lock)
            }
        }
    }

    @Test func oversizedPayloadIsRefusedBeforeDecoding() {
        let megabyte = [UInt8](repeating: 0x31, count: 1 << 20)
        #expect(throws: PayloadError("payload too long (1048576 bytes; at most 64)")) {
            try PayloadParser.deviceCommand(megabyte, kind: .dimmer)
        }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: PayloadError("payload is not valid UTF-8")) {
            try PayloadParser.deviceCommand([0x6F, 0xFF, 0x6E], kind: .socket)
        }
    }

    @Test func switchesTakeOnlyWords() throws {
        #expect(try PayloadParser.deviceCommand(bytes("off"), kind: .socket) == .off)
        #expect(throws: PayloadError.self) { try PayloadParser.deviceCommand(self.bytes("40"), kind: .binarySwitch) }
        #expect(throws: PayloadError.self) { try PayloadParser.deviceCommand(self.bytes("standby"), kind: .socket) }
    }

    @Test func tvTakesStandby() throws {
        #expect(try PayloadParser.deviceCommand(bytes("standby"), kind: .tv) == .off)
        #expect(try PayloadParser.deviceCommand(bytes("on"), kind: .tv) == .on)
    }

    @Test func volumeMuteAndInput() throws {
        #expect(try PayloadParser.volumeCommand(bytes("up")) == .up)
        #expect(try PayloadParser.volumeCommand(bytes("30")) == .level(30))
        #expect(throws: PayloadError.self) { try PayloadParser.volumeCommand(self.bytes("101")) }
        #expect(try PayloadParser.muteCommand(bytes("toggle")) == .toggle)
        let inputs = ["appletv": "1.0.0.0", "chromecast": "2.0.0.0"]
        #expect(try PayloadParser.inputCommand(bytes("AppleTV"), inputs: inputs) == ("appletv", "1.0.0.0"))
        #expect(try PayloadParser.inputCommand(bytes("2.0.0.0"), inputs: inputs) == ("chromecast", "2.0.0.0"))
        #expect(try PayloadParser.inputCommand(bytes("3.1.0.0"), inputs: inputs) == (nil, "3.1.0.0"))
        do {
            _ = try PayloadParser.inputCommand(bytes("netflix"), inputs: inputs)
            Issue.record("an unknown input was accepted")
        } catch {
            #expect(error.reason.contains("appletv, chromecast"))
        }
    }
}
