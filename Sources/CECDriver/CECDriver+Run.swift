internal import Logging

extension CECDriver {
    /// The supervising loop, until the surrounding task is cancelled: open (emits `.connected`), ping every
    /// `pingInterval` and watch CONNECTION_LOST alerts; on loss emit `.connectionLost` and `.disconnected`,
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

    /// Watches the alert flag and pings the adapter when it has shown no sign of life (an acknowledged
    /// transmission, a frame from the bus, an answered ping) for `pingInterval`, and never while a request
    /// waits for a device's answer: libcec takes a frame start whose header byte equals a pending ping's code
    /// (0x01, the TV talking to Recorder 1) for the ping's reply and drops it. Returns why the connection
    /// is lost, or nil when cancelled.
    private func watchHealth() async -> String? {
        let step = min(Duration.milliseconds(200), configuration.pingInterval)
        var lastPing = ContinuousClock.now
        var failures = 0
        while !Task.isCancelled {
            do { try await Task.sleep(for: step) } catch { return nil }
            if connection == nil { return "closed" }
            if sink.connectionLost { return "libcec reported CONNECTION_LOST" }
            let now = ContinuousClock.now
            let alive = [lastAcknowledged, sink.lastFrameReceived].compactMap { $0 }.max() ?? lastPing
            if alive > lastPing { failures = 0 }
            guard now - max(lastPing, alive) >= configuration.pingInterval, repliesAwaited == 0 else { continue }
            lastPing = now
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
        return nil
    }
}
