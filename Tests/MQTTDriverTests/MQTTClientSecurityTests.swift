import Foundation
import IntegrationSupport
import LabSupport
import Logging
import MQTTDriver
import TestSupport
import Testing

@Suite("MQTTClient credentials and TLS", .serialized)
struct MQTTClientSecurityTests {
    private func firstConnectFailure(_ client: MQTTTestClient) async throws -> MQTTError {
        var failure: MQTTError?
        try await MQTTTestClient.poll(timeout: .seconds(10), "a connect failure") {
            for event in await client.recorder.connectionEvents {
                if case .connectFailed(let error, _) = event { failure = error; return true }
            }
            return false
        }
        return try #require(failure)
    }

    @Test("the right password connects; a wrong one is refused with a clear error; the password is never logged")
    func passwordAuthentication() async throws {
        let broker = try await MosquittoBroker.start(.init(allowAnonymous: false, users: ["bridge": "s3cret-pw"]))
        let capture = LogCapture()
        let good = try MQTTTestClient(port: broker.port, logger: capture.logger()) {
            $0.username = "bridge"
            $0.password = "s3cret-pw"
        }
        let bad = try MQTTTestClient(port: broker.port, logger: capture.logger()) {
            $0.username = "bridge"
            $0.password = "wrong-pw-123"
        }
        do {
            try await good.waitUntilConnected()
            try await good.subscribe("auth/#")
            try await good.publish(topic: "auth/ok", text: "yes")
            try await good.waitForMessage(topic: "auth/ok", text: "yes")

            let error = try await firstConnectFailure(bad)
            guard case .connectionRefused(let code, let message) = error else {
                Issue.record("expected connectionRefused, got \(error)")
                throw error
            }
            #expect(code == 135)  // MQTT 5 "Not authorized"
            #expect(message.localizedCaseInsensitiveContains("not authori"))
            #expect(await bad.client.isConnected == false)
        } catch {
            Issue.record(error)
        }
        await bad.close()
        await good.close()
        await broker.stop()
        let lines = capture.lines
        #expect(!lines.isEmpty)
        #expect(!lines.contains { $0.contains("s3cret-pw") || $0.contains("wrong-pw-123") })
    }

    @Test("TLS: the right CA connects; a wrong CA fails certificate verification with a clear error")
    func tlsVerification() async throws {
        let directory = try TemporaryDirectory(prefix: "mqtt-tls")
        defer { directory.remove() }
        let authority = try await TestCertificateAuthority.make(in: directory, name: "right")
        let stranger = try await TestCertificateAuthority.make(in: directory, name: "wrong")
        let broker = try await MosquittoBroker.start(.init(tls: authority.brokerFiles))
        let trusted = try MQTTTestClient(port: broker.port) { $0.caFile = authority.caFile }
        let untrusted = try MQTTTestClient(port: broker.port) { $0.caFile = stranger.caFile }
        do {
            try await trusted.waitUntilConnected()
            try await trusted.subscribe("tls/#")
            try await trusted.publish(topic: "tls/ok", text: "secure")
            try await trusted.waitForMessage(topic: "tls/ok", text: "secure")

            let error = try await firstConnectFailure(untrusted)
            #expect(error.description.localizedCaseInsensitiveContains("certificate verify failed"), "\(error)")
            #expect(await untrusted.client.isConnected == false)
        } catch {
            Issue.record(error)
        }
        await untrusted.close()
        await trusted.close()
        await broker.stop()
    }

    @Test("a plain client against a TLS listener does not connect and reports failures")
    func plainClientAgainstTLSListener() async throws {
        let directory = try TemporaryDirectory(prefix: "mqtt-tls")
        defer { directory.remove() }
        let authority = try await TestCertificateAuthority.make(in: directory)
        let broker = try await MosquittoBroker.start(.init(tls: authority.brokerFiles))
        let plain = try MQTTTestClient(port: broker.port)
        do {
            _ = try await firstConnectFailure(plain)
            #expect(await plain.client.isConnected == false)
        } catch {
            Issue.record(error)
        }
        await plain.close()
        await broker.stop()
    }
}
