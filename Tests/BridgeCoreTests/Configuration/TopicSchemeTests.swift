import BridgeCore
import SystemSupport
import Testing

@Suite struct TopicSchemeTests {
    let names = TopicScheme(prefix: "Thuis", bridge: "living")

    @Test func deviceTopicsFollowTheContract() {
        let tv = names.device(room: "living", name: "tv")
        #expect(tv.state == "Thuis/device/living/tv")
        #expect(tv.set == "Thuis/device/living/tv/set")
        #expect(tv.get == "Thuis/device/living/tv/get")
        #expect(tv.power == "Thuis/device/living/tv/power")
        #expect(tv.energy == "Thuis/device/living/tv/energy")
        #expect(tv.availability == "Thuis/device/living/tv/availability")
        #expect(tv.scene == "Thuis/device/living/tv/scene")
        #expect(tv.volume == "Thuis/device/living/tv/volume")
        #expect(tv.volumeSet == "Thuis/device/living/tv/volume/set")
        #expect(tv.mute == "Thuis/device/living/tv/mute")
        #expect(tv.muteSet == "Thuis/device/living/tv/mute/set")
        #expect(tv.input == "Thuis/device/living/tv/input")
        #expect(tv.inputSet == "Thuis/device/living/tv/input/set")
        #expect(tv.retained.count == 11 && tv.retained.contains("Thuis/device/living/tv/movement"))
        #expect(
            tv.setpoint == "Thuis/device/living/tv/setpoint" && tv.setpointSet == "Thuis/device/living/tv/setpoint/set")
        #expect(tv.mode == "Thuis/device/living/tv/mode" && tv.modeSet == "Thuis/device/living/tv/mode/set")
        #expect(
            tv.retained.contains(tv.setpoint) && tv.retained.contains(tv.mode)
                && tv.retained.contains(tv.operatingState))
        #expect(!tv.retained.contains(tv.set) && !tv.retained.contains(tv.scene))
    }

    @Test func unassignedNodes() {
        #expect(names.unassigned(node: 7, instance: nil).state == "Thuis/device/unassigned/node7")
        #expect(names.unassigned(node: 3, instance: 4).state == "Thuis/device/unassigned/node3_4")
        #expect(
            TopicScheme.unassignedAddress(node: 3, instance: 4) == DeviceAddress(room: "unassigned", name: "node3_4"))
    }

    @Test func bridgeTopicsAndSubscriptions() {
        #expect(names.bridgeState == "Thuis/bridge/living/state")
        #expect(names.bridgeDevices == "Thuis/bridge/living/devices")
        #expect(names.bridgeEvent == "Thuis/bridge/living/event")
        #expect(names.request("include") == "Thuis/bridge/living/request/include")
        #expect(names.response("include") == "Thuis/bridge/living/response/include")
        #expect(
            names.subscriptions == [
                "Thuis/device/+/+/set", "Thuis/device/+/+/get", "Thuis/device/+/+/+/set",
                "Thuis/bridge/living/request/+",
            ])
        let nested = TopicScheme(prefix: "home/Thuis", bridge: "tv-pi")
        #expect(nested.subscriptions.first == "home/Thuis/device/+/+/set")
        #expect(nested.device(room: "a", name: "b").muteSet == "home/Thuis/device/a/b/mute/set")
    }

    @Test func everyBuiltCommandTopicParsesBackToItsMeaning() throws {
        let address = DeviceAddress(room: "living", name: "tv")
        let tv = names.device(address)
        #expect(try names.parseInbound(tv.set) == .deviceSet(address))
        #expect(try names.parseInbound(tv.get) == .deviceGet(address))
        #expect(try names.parseInbound(tv.volumeSet) == .volumeSet(address))
        #expect(try names.parseInbound(tv.muteSet) == .muteSet(address))
        #expect(try names.parseInbound(tv.inputSet) == .inputSet(address))
        #expect(try names.parseInbound(names.request("remove_failed")) == .bridgeRequest(command: "remove_failed"))
        let unassigned = names.unassigned(node: 3, instance: 4)
        #expect(
            try names.parseInbound(unassigned.set) == .deviceSet(TopicScheme.unassignedAddress(node: 3, instance: 4)))
        let nested = TopicScheme(prefix: "home/Thuis", bridge: "tv-pi")
        #expect(try nested.parseInbound("home/Thuis/device/a/b/set") == .deviceSet(DeviceAddress(room: "a", name: "b")))
    }

    @Test(arguments: [
        ("", TopicScheme.ParseError.Reason.empty),
        ("#", .wrongPrefix),
        ("+", .wrongPrefix),
        ("/", .wrongPrefix),
        ("Thuis", .wrongPrefix),
        ("thuis/device/living/tv/set", .wrongPrefix),
        ("Thuisx/device/living/tv/set", .wrongPrefix),
        ("Thuis/", .emptyLevel),
        ("Thuis/device", .tooFewLevels),
        ("Thuis/device/living", .tooFewLevels),
        ("Thuis/device/living/tv", .tooFewLevels),
        ("Thuis/device/living/tv/", .emptyLevel),
        ("Thuis/device//tv/set", .emptyLevel),
        ("Thuis/device/+/+/set", .invalidLevel("+")),
        ("Thuis/device/living/#", .invalidLevel("#")),
        ("Thuis/device/living room/tv/set", .invalidLevel("living room")),
        ("Thuis/device/woonkamer/tv\u{0}/set", .invalidLevel("tv\u{0}")),
        ("Thuis/device/living/tv/power", .unknownSuffix("power")),
        ("Thuis/device/living/tv/volume", .unknownSuffix("volume")),
        ("Thuis/device/living/tv/volume/get", .unknownSuffix("volume/get")),
        ("Thuis/device/living/tv/set/set", .unknownSuffix("set/set")),
        ("Thuis/device/living/tv/a/b/c", .tooManyLevels),
        ("Thuis/lights/living/tv/set", .unknownSection("lights")),
        ("Thuis/bridge/kitchen/request/include", .otherBridge("kitchen")),
        ("Thuis/bridge/living/response/include", .unknownSuffix("response")),
        ("Thuis/bridge/living/request", .tooFewLevels),
        ("Thuis/bridge/living/request/include/x", .tooManyLevels),
        ("Thuis/bridge/living/request/+", .invalidLevel("+")),
    ])
    func garbageTopicsAreRefusedWithTheirReason(topic: String, reason: TopicScheme.ParseError.Reason) throws {
        let error = try #require(throws: TopicScheme.ParseError.self) { try names.parseInbound(topic) }
        #expect(error.reason == reason)
        #expect(error.topic == topic)
    }

    /// The one parse also says whose device a malformed command topic is under (a bridge leaves another bridge's
    /// devices alone, also when the topic is wrong).
    @Test func aRefusedDeviceTopicNamesItsDevice() throws {
        let tv = DeviceAddress(room: "living", name: "tv")
        let underTheTV = [
            "Thuis/device/living/tv", "Thuis/device/living/tv/power", "Thuis/device/living/tv/+",
            "Thuis/device/living/tv/a/b/c",
        ]
        for topic in underTheTV {
            let error = try #require(throws: TopicScheme.ParseError.self) { try names.parseInbound(topic) }
            #expect(error.device == tv, "\(topic)")
        }
        let underNoDevice = [
            "Thuis/device/living", "Thuis/device/+/tv/set", "Thuis/device//tv/set", "Thuis/lights/living/tv/set",
            "Thuis/bridge/kitchen/request/include", "thuis/device/living/tv/set",
        ]
        for topic in underNoDevice {
            let error = try #require(throws: TopicScheme.ParseError.self) { try names.parseInbound(topic) }
            #expect(error.device == nil, "\(topic)")
        }
    }

    @Test func veryLongTopicsAreRefusedWithoutSplitting() throws {
        let long = "Thuis/device/" + String(repeating: "a", count: 70_000) + "/tv/set"
        #expect(throws: TopicScheme.ParseError(topic: long, reason: .tooLong(bytes: long.utf8.count))) {
            try names.parseInbound(long)
        }
        let deep = "Thuis/" + String(repeating: "a/", count: 30_000) + "set"
        #expect(throws: TopicScheme.ParseError(topic: deep, reason: .tooManyLevels)) { try names.parseInbound(deep) }
        let error = try #require(throws: TopicScheme.ParseError.self) { try names.parseInbound(long) }
        #expect(error.description.count < 200)
    }

    @Test func unicodeAndCombiningCharactersNeverCrash() {
        let topics = [
            "Thuis/\u{301}device/a/b/set", "Thuis/device/é/b/set", "Thuis/device/a/b/set\u{301}",
            "🏠/device/a/b/set", "Thuis/device/a/b/\u{FEFF}set", "\r\n", "Thuis\u{0}/device/a/b/set",
        ]
        for topic in topics {
            #expect(throws: TopicScheme.ParseError.self, "\(topic)") { try names.parseInbound(topic) }
        }
    }

    /// Random byte soups and random recombinations of topic pieces: the parser answers, never traps.
    @Test func randomTopicsNeverCrash() {
        var generator = SeededRandom(seed: 42)
        let pieces = [
            "Thuis", "device", "bridge", "living", "tv", "set", "get", "volume", "request", "", "+", "#",
            "/", "//", " ", "\u{0}", "é", "node3_4", "unassigned", "Thuis/device/living/tv/set",
        ]
        var accepted = 0
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 8)
            let topic = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
                .joined(separator: generator.next() % 3 == 0 ? "" : "/")
            if (try? names.parseInbound(topic)) != nil { accepted += 1 }
            let bytes = (0..<Int(generator.next() % 40)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            _ = try? names.parseInbound(String(decoding: bytes, as: UTF8.self))
        }
        #expect(accepted > 0)
    }

    @Test func levelAndPrefixValidation() {
        #expect(TopicScheme.isValidLevel("node3_4"))
        #expect(TopicScheme.isValidLevel("Living-Room"))
        for bad in ["", "a b", "a/b", "+", "#", "é", "a\u{0}", "$SYS"] {
            #expect(!TopicScheme.isValidLevel(bad), "\(bad)")
        }
        #expect(TopicScheme.isValidPrefix("Thuis"))
        #expect(TopicScheme.isValidPrefix("home/Thuis"))
        for bad in ["", "/Thuis", "Thuis/", "a//b", "Thuis/#", "Thuis/+"] {
            #expect(!TopicScheme.isValidPrefix(bad), "\(bad)")
        }
    }
}
