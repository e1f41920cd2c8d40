import HomeKit
import Logging
import ServiceAdvertising
import ServiceLifecycle
import Synchronization

/// Serves Apple Home: the HAP server on `[homekit] port` and its `_hap._tcp` advertisement through the machine's
/// avahi-daemon, published once the port is bound and updated whenever the TXT records change (paired or not,
/// the configuration number). On graceful shutdown the server closes every connection and the advertisement is
/// withdrawn.
struct HomeKitService: Service {
    let server: HAPServer
    let name: String
    let logger: Logger
    let onListening: @Sendable (Int) -> Void

    func run() async throws {
        let advertisement = Advertisement(name: name, logger: logger)
        defer { advertisement.stop() }
        let onListening = self.onListening
        do {
            try await cancelWhenGracefulShutdown {
                try await server.run(
                    onListening: { port in
                        advertisement.listening(on: port)
                        onListening(port)
                    },
                    advertise: { txt in advertisement.update(txt: txt) })
            }
        } catch is CancellationError {
            // The graceful shutdown: the server closed its connections.
        }
    }
}

/// The advertisement of the HAP server: its TXT records arrive before the port is bound, so it starts when it
/// has both.
private final class Advertisement: Sendable {
    private struct State {
        var port: Int?
        var txt: [(String, String)]?
        var advertiser: ServiceAdvertiser?
    }

    private let name: String
    private let logger: Logger
    private let state = Mutex(State())

    init(name: String, logger: Logger) {
        self.name = name
        self.logger = logger
    }

    func listening(on port: Int) {
        state.withLock { $0.port = port }
        startIfReady()
    }

    func update(txt: [(String, String)]) {
        let running = state.withLock { state -> ServiceAdvertiser? in
            state.txt = txt
            return state.advertiser
        }
        if let running { running.update(txt: txt) } else { startIfReady() }
    }

    private func startIfReady() {
        let started = state.withLock { state -> ServiceAdvertiser? in
            guard state.advertiser == nil, let port = state.port, let txt = state.txt, let bound = UInt16(exactly: port)
            else { return nil }
            let advertiser = ServiceAdvertiser(name: name, type: "_hap._tcp", port: bound, txt: txt, logger: logger)
            state.advertiser = advertiser
            return advertiser
        }
        started?.start()
    }

    func stop() {
        state.withLock { $0.advertiser }?.stop()
    }
}
