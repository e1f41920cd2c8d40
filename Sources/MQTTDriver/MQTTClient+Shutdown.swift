internal import CMosquitto
internal import Logging

/// Stopping the client: the final messages, DISCONNECT, the network thread, the handle.
extension MQTTClient {
    /// Publishes `final` with QoS 1 (e.g. the bridge's retained `offline`), waits up to `timeout` for their
    /// PUBACKs, sends DISCONNECT (so the broker does not publish the will), stops the network thread and
    /// destroys the handle. Safe to call when never run, never connected, or twice. `run()` returns after it.
    public func shutdown(final: [MQTTPublication] = [], timeout: Duration = .seconds(2)) async {
        switch phase {
        case .stopped, .stopping:
            return
        case .idle:
            teardown()
            return
        case .running:
            break
        }
        phase = .stopping
        if connection.isConnected, let handle, !final.isEmpty {
            var mids: Set<Int32> = []
            for message in final {
                guard (try? TopicValidator.validatePublish(message.topic)) != nil else { continue }
                if message.retain {
                    outbound.retained[message.topic] =
                        message.payload.isEmpty
                        ? nil : OutboundStore.StoredState(payload: message.payload, qos: .atLeastOnce)
                }
                var mid: Int32 = 0
                if send(
                    topic: message.topic, payload: message.payload, retain: message.retain,
                    qos: .atLeastOnce, mid: &mid) == nil
                {
                    mids.insert(mid)
                }
            }
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            while !mids.isEmpty, clock.now < deadline {
                mids.subtract(handle.callbacks.acks.acknowledgedPublishes(among: mids))
                if mids.isEmpty { break }
                try? await Task.sleep(for: .milliseconds(5))
            }
            if !mids.isEmpty {
                logger.warning("MQTT final messages not acknowledged in time", metadata: ["missing": "\(mids.count)"])
            }
        }
        if let loop {
            loop.requestStop(graceful: true)
            await loop.waitUntilFinished()
        }
        teardown()
        logger.info("MQTT client shut down")
    }

    /// Drops the actor's reference to the handle (destroyed once the network thread has exited too) and
    /// finishes the public streams. Idempotent.
    func teardown() {
        phase = .stopped
        connection.disconnected()
        handle?.callbacks.acks.connectionEnded()
        handle?.callbacks.finish()
        handle = nil
        loop = nil
        connection.finish()
    }
}
