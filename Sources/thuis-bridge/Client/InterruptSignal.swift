import Dispatch
import FoundationEssentials
internal import Glibc

/// SIGINT as an async stream (the default handler is replaced while this exists), so a command can undo
/// its effect on the bridge before it exits.
final class InterruptSignal: @unchecked Sendable {  // `source` is only touched in init and deinit
    let interrupts: AsyncStream<Void>
    private let source: any DispatchSourceSignal

    init() {
        signal(SIGINT, SIG_IGN)
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        interrupts = stream
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { continuation.yield() }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// Returns when SIGINT arrives (or the task is cancelled).
    func wait() async {
        for await _ in interrupts { return }
    }
}
