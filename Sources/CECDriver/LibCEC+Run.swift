internal import FoundationEssentials
internal import Logging
internal import SystemSupport

extension LibCEC {
    /// The supervising loop, until the surrounding task is cancelled: open (emits `.connected`), watch the
    /// connection (`watchHealth`); on loss emit `.connectionLost` and `.disconnected`,
    /// close, and reopen with doubling backoff capped at `maximumBackoff`. Closes the connection on exit.
    public func run() async {
        var backoff = configuration.initialBackoff
        while !Task.isCancelled {
            do {
                try open()
                backoff = configuration.initialBackoff
            } catch {
                logger.warning("CEC adapter open failed", metadata: ["error": "\(error)", "retry_in": "\(backoff)"])
                sink.yield(.disconnected(reason: "\(error)", retryIn: backoff))
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, configuration.maximumBackoff)
                continue
            }
            let reason = await watchHealth()
            guard let reason else { break }
            logger.warning("CEC adapter lost", metadata: ["reason": "\(reason)"])
            sink.yield(.connectionLost)
            closeConnection()
            sink.yield(.disconnected(reason: reason, retryIn: backoff))
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, configuration.maximumBackoff)
        }
        closeConnection()
    }

    /// Watches the connection until it is lost, without polling: it wakes when libcec raises CONNECTION_LOST, when
    /// the adapter's port path changes (an unplugged adapter's device node and udev link vanish: `PathWatcher`), when
    /// the last request waiting for a device's answer ends, and when a ping is due. It pings the adapter when it has
    /// shown no sign of life (an acknowledged transmission, a frame from the bus, an answered ping) for
    /// `pingInterval`, and never while a request waits for a device's answer: libcec takes a frame start whose
    /// header byte equals a pending ping's code (0x01, the TV talking to Recorder 1) for the ping's reply and drops
    /// it. Returns why the connection is lost, or nil when cancelled.
    private func watchHealth() async -> String? {
        let wakeups = Wakeups()
        let port = connectedPort.flatMap { $0.hasPrefix("/") ? $0 : nil }
        let watcher = port.flatMap { PathWatcher(path: $0) { wakeups.wake() } }
        sink.setWakeups(wakeups)
        healthWakeups = wakeups
        defer {
            watcher?.cancel()
            wakeups.finish()
            sink.setWakeups(nil)
            healthWakeups = nil
        }
        var lastPing = ContinuousClock.now
        var failures = 0
        for await _ in wakeups.stream {
            if connection == nil { return "closed" }
            if sink.connectionLost { return "libcec reported CONNECTION_LOST" }
            if let port, !FileManager.default.fileExists(atPath: port) {
                return "the port \(port) disappeared (adapter unplugged?)"
            }
            let alive = [lastAcknowledged, sink.lastFrameReceived].compactMap { $0 }.max() ?? lastPing
            if alive > lastPing { failures = 0 }
            if ContinuousClock.now - max(lastPing, alive) >= configuration.pingInterval, repliesAwaited == 0 {
                lastPing = .now
                if ping() {
                    failures = 0
                } else {
                    failures += 1
                    logger.notice("CEC adapter ping failed", metadata: ["failures": "\(failures)"])
                    if failures >= max(1, configuration.maximumPingFailures) {
                        return "\(failures) pings unanswered (libcec_ping_adapters)"
                    }
                }
            }
            // A request waiting for an answer ends with a wake-up of its own (`repliesAwaited`).
            let latest = [lastAcknowledged, sink.lastFrameReceived, lastPing].compactMap { $0 }.max() ?? lastPing
            wakeups.wake(at: latest + configuration.pingInterval)
        }
        return nil
    }
}
