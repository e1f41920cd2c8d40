import BridgeCore
import Testing
import WebDashboard

/// The WebSocket protocol's codec: what a dashboard may send, and how each publication of the bridge looks to it.
@Suite struct DashboardProtocolTests {
    func parse(_ text: String) throws(DashboardProtocol.ProtocolError) -> DashboardProtocol.ClientMessage {
        try DashboardProtocol.parse(Array(text.utf8))
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func commandsRequestsAndScenes() throws {
        #expect(
            try parse(#"{"type":"set","topic":"Thuis/device/bedroom/light/set","payload":"40"}"#)
                == .set(topic: "Thuis/device/bedroom/light/set", payload: Array("40".utf8)))
        // A slider's number is taken as its text, as MQTT would carry it.
        #expect(
            try parse(#"{"type":"set","topic":"Thuis/device/living/tv/volume/set","payload":35}"#)
                == .set(topic: "Thuis/device/living/tv/volume/set", payload: Array("35".utf8)))
        #expect(
            try parse(#"{"type":"request","verb":"include","payload":{"transaction":"7","timeout_s":30}}"#)
                == .request(verb: "include", payload: Array(#"{"transaction":"7","timeout_s":30}"#.utf8)))
        #expect(try parse(#"{"type":"request","verb":"devices"}"#) == .request(verb: "devices", payload: []))
        #expect(
            try parse(#"{"type":"scene","topic":"Thuis/scene/movie","payload":"on"}"#)
                == .scene(topic: "Thuis/scene/movie", payload: "on"))
    }

    @Test(arguments: [
        ("{", "malformed JSON at byte 1"), ("[1,2]", "must be a JSON object"), (#"{"topic":"x"}"#, "needs a \"type\""),
        (#"{"type":"publish","topic":"x"}"#, "unknown type \"publish\""),
        (#"{"type":"set","payload":"on"}"#, "missing \"topic\""),
        (#"{"type":"set","topic":"Thuis/device/a/b/set","payload":true}"#, "must be a string or a number"),
        (#"{"type":"set","topic":"t","payload":"on","retain":true}"#, "unknown key \"retain\""),
        (#"{"type":"request","verb":"a/b"}"#, "one topic level"),
        (#"{"type":"request","verb":"include","payload":"{}"}"#, "must be a JSON object"),
        (#"{"type":"scene","topic":"Thuis/scene/movie"}"#, "missing \"payload\""),
    ])
    func badMessagesAreRefusedWithAReason(text: String, reason: String) {
        let found = error(text)
        #expect(found?.contains(reason) == true, "\(text): \(found ?? "accepted")")
    }

    @Test func anOversizedMessageIsRefusedUnread() {
        let big = #"{"type":"set","topic":"t","payload":""# + String(repeating: "x", count: 5000) + #""}"#
        #expect(error(big)?.hasPrefix("message too large (") == true)
    }

    @Test func eachPublicationOfTheBridgeHasItsOwnMessage() {
        let topics = TopicScheme(prefix: "Thuis", bridge: "living")
        func outbound(_ topic: String, _ payload: String, retain: Bool) -> String {
            DashboardProtocol.outbound(topic: topic, payload: Array(payload.utf8), retain: retain, topics: topics).text
        }
        #expect(
            outbound("Thuis/device/bedroom/light", "40", retain: true)
                == #"{"type":"state","topic":"Thuis/device/bedroom/light","payload":"40"}"#)
        #expect(outbound("Thuis/bridge/living/state", "online", retain: true) == #"{"type":"bridge","state":"online"}"#)
        #expect(outbound("Thuis/bridge/living/devices", "[]", retain: true) == #"{"type":"devices","devices":[]}"#)
        #expect(
            outbound("Thuis/bridge/living/event", #"{"type":"adapter_lost"}"#, retain: false)
                == #"{"type":"event","event":{"type":"adapter_lost"}}"#)
        #expect(
            outbound("Thuis/bridge/living/response/include", #"{"transaction":"7","status":"ok"}"#, retain: false)
                == #"{"type":"response","verb":"include","response":{"transaction":"7","status":"ok"}}"#)
        #expect(
            outbound("Thuis/scene/movie", "on", retain: false)
                == #"{"type":"message","topic":"Thuis/scene/movie","payload":"on"}"#)
        #expect(
            outbound("Thuis/device/bedroom/light/scene", "26", retain: false)
                == #"{"type":"message","topic":"Thuis/device/bedroom/light/scene","payload":"26"}"#)
        // Whatever the payload holds, the message stays JSON.
        #expect(
            outbound("Thuis/bridge/living/event", "not \"json\"", retain: false)
                == #"{"type":"event","event":"not \"json\""}"#)
    }
}
