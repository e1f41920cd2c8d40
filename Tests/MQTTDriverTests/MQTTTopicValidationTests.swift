import Logging
import MQTTDriver
import Testing

@Suite("MQTT topic validation")
struct MQTTTopicValidationTests {
    private func makeClient() throws -> MQTTClient {
        try MQTTClient(options: MQTTClientOptions(clientID: "validation", port: 1), logger: Logger(label: "test"))
    }

    private func isInvalidTopic(_ error: MQTTError) -> Bool {
        if case .invalidTopic = error { true } else { false }
    }

    @Test(
        "publish rejects empty, wildcard, NUL and over-long topics with .invalidTopic",
        arguments: ["", "a/+/b", "a/#", "+", "#", "a\u{0}b", String(repeating: "x", count: 65536)])
    func publishRejectsInvalidTopics(topic: String) async throws {
        let client = try makeClient()
        let error = await #expect(throws: MQTTError.self) {
            try await client.publish(topic: topic, payload: [1], retain: true, qos: .atLeastOnce)
        }
        #expect(error.map(isInvalidTopic) == true)
        #expect(await client.retainedTopics.isEmpty)
        await client.shutdown()
    }

    @Test("publish accepts a 65535-byte topic and UTF-8 levels")
    func publishAcceptsValidTopics() async throws {
        let client = try makeClient()
        try await client.publish(
            topic: String(repeating: "x", count: 65535), payload: [1], retain: true, qos: .atMostOnce)
        try await client.publish(topic: "Thuis/device/wohnzimmer/lámpara", payload: [1], retain: true, qos: .atMostOnce)
        #expect(await client.retainedTopics.count == 2)
        await client.shutdown()
    }

    @Test(
        "subscribe accepts well-placed wildcards and rejects misplaced ones",
        arguments: [("Thuis/device/+/+/set", true), ("Thuis/#", true), ("a/#/b", false), ("a/b+", false), ("", false)])
    func subscribeValidatesFilters(filter: String, valid: Bool) async throws {
        let client = try makeClient()
        if valid {
            try await client.subscribe(filter, qos: .atLeastOnce)
        } else {
            let error = await #expect(throws: MQTTError.self) { try await client.subscribe(filter, qos: .atLeastOnce) }
            #expect(error.map(isInvalidTopic) == true)
        }
        await client.shutdown()
    }

    @Test("after shutdown publish throws .shutDown, run throws, and the streams finish")
    func publishAfterShutdownThrows() async throws {
        let client = try makeClient()
        await client.shutdown()
        await #expect(throws: MQTTError.shutDown) {
            try await client.publish(topic: "a", payload: [1], retain: false, qos: .atMostOnce)
        }
        await #expect(throws: MQTTError.shutDown) { try await client.run() }
        var iterator = client.inbound.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test("options never print the password")
    func optionsRedactPassword() {
        let options = MQTTClientOptions(clientID: "c", username: "bridge", password: "hunter2-secret")
        #expect(!options.description.contains("hunter2-secret"))
        #expect(options.description.contains("bridge"))
    }

    @Test("impossible options fail at init with .invalidOption")
    func invalidOptionsFail() {
        var badPort = MQTTClientOptions(clientID: "c")
        badPort.port = 70000
        var badDelays = MQTTClientOptions(clientID: "c")
        badDelays.reconnectDelayMax = .milliseconds(10)
        var certWithoutKey = MQTTClientOptions(clientID: "c")
        certWithoutKey.certFile = "/tmp/client.crt"
        for options in [badPort, badDelays, certWithoutKey] {
            let error = #expect(throws: MQTTError.self) {
                _ = try MQTTClient(options: options, logger: Logger(label: "t"))
            }
            if case .invalidOption = error {
            } else {
                Issue.record("expected invalidOption, got \(String(describing: error))")
            }
        }
    }

    @Test("a missing CA file fails at init with the libmosquitto function named")
    func missingCAFileFails() {
        let options = MQTTClientOptions(clientID: "c", caFile: "/nonexistent/ca.crt")
        let error = #expect(throws: MQTTError.self) { _ = try MQTTClient(options: options, logger: Logger(label: "t")) }
        #expect(error?.description.contains("mosquitto_tls_set") == true)
    }
}
