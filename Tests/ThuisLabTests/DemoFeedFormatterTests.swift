import Testing

@testable import thuis_lab

/// How the demo's feed renders MQTT messages.
@Suite struct DemoFeedFormatterTests {
    let formatter = DemoFeedFormatter(prefix: "Thuis")

    @Test func statesAreAlignedAndRetainedIsMarked() {
        let line = formatter.format(topic: "Thuis/device/living/tv", payload: Array("standby".utf8), retained: true)
        #expect(line.kind == .bridge)
        #expect(line.text == "Thuis/device/living/tv" + String(repeating: " ", count: 24) + "standby  (retained)")
    }

    @Test func commandsAreMarked() {
        for topic in [
            "Thuis/device/bedroom/light/set", "Thuis/device/living/tv/input/set", "Thuis/device/office/light/get",
            "Thuis/bridge/living/request/include",
        ] {
            #expect(
                formatter.format(topic: topic, payload: Array("40".utf8), retained: false).kind == .command, "\(topic)")
        }
        #expect(
            formatter.format(topic: "Thuis/bridge/living/response/include", payload: [], retained: false).kind
                == .bridge)
    }

    @Test func eventsBecomeTypeAndScalars() {
        let json =
            #"{"type":"command_rejected","topic":"Thuis/device/attic/lamp/set","reason":"unknown device attic/lamp","detail":{"a":1}}"#
        var wide = formatter
        wide.payloadLimit = 200
        let text = wide.summary(topic: "Thuis/bridge/living/event", text: json)
        #expect(text == #"command_rejected reason="unknown device attic/lamp" topic=Thuis/device/attic/lamp/set"#)
    }

    @Test func theInventoryIsCounted() {
        let json =
            #"[{"adapter":"zwave","interview_stage":"Complete"},{"adapter":"zwave","interview_stage":"Probe"},{"adapter":"cec"}]"#
        #expect(
            formatter.summary(topic: "Thuis/bridge/living/devices", text: json)
                == "inventory: 3 devices, Z-Wave 2 (1 interviewed), CEC 1")
        // Shown again only when its size changes or every interview is done.
        let complete = #"[{"adapter":"zwave","interview_stage":"Complete"},{"adapter":"cec"}]"#
        #expect(
            DemoFeedFormatter.inventoryKey(Array(json.utf8)) != DemoFeedFormatter.inventoryKey(Array(complete.utf8)))
        #expect(!DemoFeedFormatter.allInterviewed(Array(json.utf8)))
        #expect(DemoFeedFormatter.allInterviewed(Array(complete.utf8)))
    }

    @Test func longPayloadsAreShortenedAndEmptyOnesNamed() {
        let long = String(repeating: "x", count: 200)
        let text = formatter.summary(topic: "Thuis/x", text: long)
        #expect(text.count == formatter.payloadLimit && text.hasSuffix("…"))
        #expect(formatter.format(topic: "Thuis/x", payload: [], retained: false).text.hasSuffix("(empty)"))
        #expect(formatter.summary(topic: "Thuis/x", text: "{not json") == "{not json")
    }
}
