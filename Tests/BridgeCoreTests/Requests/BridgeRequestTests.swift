import BridgeCore
import Logging
import TestSupport
import Testing

/// Bridge requests are parsed and validated in the core: a handler sees only well-formed requests, and every
/// request gets exactly one response.
@Suite struct BridgeRequestTests: RequestParsing {
    @Test func argumentsBecomeTypedRequestsWithTheirDefaults() throws {
        #expect(
            try parse(.include, #"{"transaction":"1"}"#)
                == .include(timeoutSeconds: 60, secure: false, interviewTimeoutSeconds: 60))
        #expect(
            try parse(.include, #"{"timeout_s":30,"secure":true,"interview_timeout_s":"90"}"#)
                == .include(timeoutSeconds: 30, secure: true, interviewTimeoutSeconds: 90))
        #expect(try parse(.exclude, #"{"timeout_s":5}"#) == .exclude(timeoutSeconds: 5))
        #expect(try parse(.heal, "{}") == .heal(node: nil))
        #expect(try parse(.heal, #"{"node":7}"#) == .heal(node: 7))
        #expect(try parse(.nodeStatistics, "{}") == .nodeStatistics(node: nil))
        #expect(try parse(.nodeStatistics, #"{"node":3}"#) == .nodeStatistics(node: 3))
        #expect(try parse(.configList, #"{"node":2}"#) == .configList(node: 2))
        #expect(try parse(.values, #"{"node":6}"#) == .nodeValues(node: 6))
        #expect(try parse(.refresh, #"{"node":2}"#) == .refresh(node: 2, interviewTimeoutSeconds: 60))
        #expect(
            try parse(.setConfig, #"{"node":2,"parameter":28,"value":-1,"size":2}"#)
                == .setConfig(node: 2, parameter: 28, value: -1, size: 2))
        #expect(try parse(.cecTransmit, #"{"frame":"10:44:41"}"#) == .cecTransmit(bytes: [0x10, 0x44, 0x41]))
    }

    @Test func unknownKeysWrongTypesAndRangesAreRefusedWithTheirName() throws {
        // `timeout` is not `timeout_s`: a typo must not silently run the 60 s default.
        let typo = try failure(.include, #"{"transaction":"1","timeout":30}"#)
        #expect(typo?.contains(#"unknown argument "timeout" for include"#) == true, "\(typo ?? "")")
        #expect(typo?.contains(#""timeout_s""#) == true)
        #expect(try failure(.cancel, #"{"node":2}"#)?.contains(#"unknown argument "node""#) == true)
        #expect(try failure(.include, #"{"secure":"yes"}"#)?.contains("must be true or false") == true)
        #expect(try failure(.exclude, #"{"timeout_s":601}"#)?.contains("within 1...600") == true)
        #expect(try failure(.removeFailed, "{}")?.contains(#"missing argument "node""#) == true)
        #expect(try failure(.getConfig, #"{"node":233,"parameter":1}"#)?.contains("within 1...232") == true)
        #expect(try failure(.setConfig, #"{"node":2,"parameter":1,"value":1,"size":3}"#)?.contains("1, 2 or 4") == true)
        #expect(try failure(.cecTransmit, #"{"frame":"1g:04"}"#)?.contains("not hex bytes") == true)
        #expect(try failure(.cecTransmit, "{}")?.contains(#"missing argument "frame""#) == true)
        #expect(try failure(.configList, "{}")?.contains(#"missing argument "node""#) == true)
        #expect(try failure(.nodeStatistics, #"{"node":0}"#)?.contains("within 1...232") == true)
        #expect(try failure(.include, "[1]")?.contains("must be a JSON object") == true)
        #expect(try failure(.include, #""on""#)?.contains("must be a JSON object") == true)
    }

    /// A bridge whose Z-Wave requests go to a recording handler.
    func withBridge(_ body: (Bridge, FakeMQTTPort, FakeRequestHandler) async throws -> Void) async throws {
        let mqtt = FakeMQTTPort()
        let handler = FakeRequestHandler(verbs: [.include, .exclude, .cancel, .getConfig])
        let bridge = Bridge(
            identity: BridgeIdentity(name: "living"), devices: [], backends: [], requestHandlers: [handler], mqtt: mqtt,
            logger: Logger(label: "test"))
        try await body(bridge, mqtt, handler)
    }

    func request(_ bridge: Bridge, _ verb: String, _ payload: String, retained: Bool = false) async {
        await bridge.receive(
            InboundMessage(
                topic: "Thuis/bridge/living/request/\(verb)", payload: Array(payload.utf8), retained: retained))
    }

    func lastResponse(_ mqtt: FakeMQTTPort, _ verb: String) async -> JSONValue? {
        await mqtt.events(on: "Thuis/bridge/living/response/\(verb)").last
    }

    @Test func anEmptyPayloadNeverChangesTheNetwork() async throws {
        try await withBridge { bridge, mqtt, handler in
            // `mosquitto_pub -r -n` (clearing a retained request) reaches live subscribers as an empty message.
            await request(bridge, "include", "")
            let response = await lastResponse(mqtt, "include")
            #expect(response?["status"] == "error")
            if case .string(let reason)? = response?["error"] {
                #expect(reason.contains("empty request"), "\(reason)")
            } else {
                Issue.record("no error reason in \(String(describing: response))")
            }
            await request(bridge, "exclude", "")
            #expect(await lastResponse(mqtt, "exclude")?["status"] == "error")
            #expect(await handler.handled.isEmpty)
            // A read-only request may be empty.
            await request(bridge, "devices", "")
            #expect(await lastResponse(mqtt, "devices")?["status"] == "ok")
        }
    }

    @Test func aRetainedRequestGetsAnErrorResponseAndRunsNothing() async throws {
        try await withBridge { bridge, mqtt, handler in
            await request(bridge, "include", #"{"transaction":"r1"}"#, retained: true)
            let response = await lastResponse(mqtt, "include")
            #expect(response?["transaction"] == "r1")
            #expect(response?["status"] == "error")
            #expect(response?["error"] == "retained request ignored: requests must not be retained")
            #expect(await handler.handled.isEmpty)
        }
    }

    @Test func eachRequestGetsOneResponseWithItsTransaction() async throws {
        try await withBridge { bridge, mqtt, handler in
            await request(bridge, "include", #"{"transaction":"t1","timeout_s":30}"#)
            #expect(await handler.handled == [.include(timeoutSeconds: 30, secure: false, interviewTimeoutSeconds: 60)])
            let ok = await mqtt.events(on: "Thuis/bridge/living/response/include")
            #expect(ok.count == 1)
            #expect(ok.first?["transaction"] == "t1")
            #expect(ok.first?["status"] == "ok")

            await request(bridge, "include", #"{"transaction":"t2","timeout":30}"#)
            #expect(await lastResponse(mqtt, "include")?["transaction"] == "t2")
            #expect(await lastResponse(mqtt, "include")?["status"] == "error")

            await request(bridge, "frobnicate", #"{"transaction":"t3"}"#)
            let unknown = await lastResponse(mqtt, "frobnicate")
            #expect(unknown?["transaction"] == "t3")
            let served = "this bridge serves: devices, cancel, exclude, get_config, include"
            #expect(unknown?["error"] == .string(#"unknown command "frobnicate"; "# + served))

            // A verb the core knows that no adapter of this bridge serves.
            await request(bridge, "cec_tx", #"{"transaction":"t4","frame":"10:04"}"#)
            #expect(
                await lastResponse(mqtt, "cec_tx")?["error"]
                    == .string("cec_tx needs a CEC adapter, which this bridge has not; " + served))

            await request(bridge, "get_config", #"{"transaction":"t5","node":2,"parameter":"#)
            #expect(await lastResponse(mqtt, "get_config")?["status"] == "error")
            #expect(await handler.handled.count == 1)
        }
    }
}
