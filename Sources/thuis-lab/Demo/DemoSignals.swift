import Dispatch
import FoundationEssentials
internal import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP (the terminal closed) as a stream, installed before anything starts, so a Ctrl-C during start-up is not
/// lost and never kills the demo with its broker still running. SIGPIPE is ignored (a closed pipe on
/// stdout must not kill the demo before it has stopped its children).
final class DemoSignals: @unchecked Sendable {
    // @unchecked Sendable: `sources` is set once in init and only cancelled in deinit; `received` is Sendable.
    let received: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        signal(SIGPIPE, SIG_IGN)
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(4))
        received = stream
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    deinit {
        sources.forEach { $0.cancel() }
    }

    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT (Ctrl-C)"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP (terminal closed)"
        default: "signal \(number)"
        }
    }
}
