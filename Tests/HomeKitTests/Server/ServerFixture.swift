import BridgeCore
import Crypto
import HomeKitClient
import Logging
import Synchronization
import TestSupport
import Testing

@testable import HomeKit

/// A running HAP server on 127.0.0.1 (a port the system chose) over a fake model, its store in a temporary
/// directory, its log captured, and the TXT records it advertised, in order.
struct ServerFixture: Sendable {
    static let code = "031-45-154"

    let port: Int
    let store: HomeKitStore
    let model: FakeAccessoryModel
    let log: LogCapture
    /// The same lines, to wait for one.
    let watch: LogWatch
    let server: HAPServer
    let advertisements: AsyncStream<[(String, String)]>

    /// Runs `body` against a server that stops (its task cancelled) after it; the whole run is bounded so that a
    /// hang fails the test instead of stalling the suite.
    static func run(
        storePath: String? = nil, backoff: @escaping @Sendable (Int) -> Duration = { _ in .zero },
        unverifiedLimit: Duration = .seconds(30),
        configure: @escaping @Sendable (inout HAPServer.Configuration) -> Void = { _ in },
        _ body: @escaping @Sendable (ServerFixture) async throws -> Void
    ) async throws {
        let finished = try await finishing(within: .seconds(300)) {
            let directory = try TemporaryDirectory(prefix: "hap-server")
            let store = try HomeKitStore(path: storePath ?? directory.file("state/homekit.json"))
            let model = FakeAccessoryModel()
            let log = LogCapture()
            let watch = LogWatch()
            let captured = log.logger(label: "hap")
            var logger = Logger(label: "hap") { _ in
                MultiplexLogHandler([captured.handler, watch.handler()])
            }
            logger.logLevel = .trace
            var configuration = HAPServer.Configuration(
                name: "Thuis", host: "127.0.0.1", setupCode: try SetupCode(code), backoff: backoff,
                unverifiedLimit: unverifiedLimit)
            configure(&configuration)
            let server = HAPServer(configuration: configuration, store: store, model: model, logger: logger)
            let (ports, portSink) = AsyncStream<Int>.makeStream()
            let (advertisements, advertisementSink) = AsyncStream<[(String, String)]>.makeStream()
            let task = Task {
                try await server.run(
                    onListening: { portSink.yield($0) }, advertise: { advertisementSink.yield($0) })
            }
            var portIterator = ports.makeAsyncIterator()
            guard let port = await portIterator.next() else { throw HAPClient.Failure("the server did not listen") }
            let fixture = ServerFixture(
                port: port, store: store, model: model, log: log, watch: watch, server: server,
                advertisements: advertisements)
            do {
                try await body(fixture)
            } catch {
                task.cancel()
                throw error
            }
            task.cancel()
            _ = await task.result
            #expect(!log.lines.contains { $0.contains(code) }, "the setup code is never logged")
            withExtendedLifetime(directory) {}
            return true
        }
        #expect(finished == true, "the scenario did not finish in time")
    }

    func connect<T>(_ body: (HAPClient) async throws -> T) async throws -> T {
        try await HAPClient.connect(port: port, body)
    }

    /// Pairs `identifier` on a connection of its own (Pair Setup with the right code).
    func pair(_ identifier: String, key: Curve25519.Signing.PrivateKey) async throws {
        let m6 = try await connect { try await $0.pairSetup(code: Self.code, identifier: identifier, key: key) }
        guard m6.byte(.state) == 6, m6[.error] == nil else { throw HAPClient.Failure("pairing failed: \(m6)") }
    }

    /// Pairs `identifier`, then runs `body` on a connection it verified (encrypted).
    func session<T>(
        _ identifier: String, key: Curve25519.Signing.PrivateKey, _ body: (HAPClient) async throws -> T
    ) async throws -> T {
        try await pair(identifier, key: key)
        return try await connect { client in
            let m4 = try await client.pairVerify(identifier: identifier, key: key)
            guard m4[.error] == nil else { throw HAPClient.Failure("Pair Verify failed: \(m4)") }
            return try await body(client)
        }
    }
}
