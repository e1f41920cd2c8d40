internal import CMosquitto
internal import COpenSSL
internal import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// The network thread of one `MQTTClient` (our own thread rather than `mosquitto_loop_start`, whose loop
/// gives up on TLS and auth errors): connects, runs `mosquitto_loop`, and reconnects with capped
/// exponential backoff forever (also when the very first attempt fails) until asked to stop. All blocking
/// libmosquitto calls (connect, TLS handshake, select) happen here, never on the cooperative pool.
final class NetworkLoop: Sendable {
    private let handle: MosquittoHandle
    private let host: String
    private let port: Int32
    private let keepAlive: Int32
    private let maxPacketBytes: UInt32
    private let delayMin: Double
    private let delayMax: Double
    /// `mosquitto_loop`'s timeout: the keepalive (libmosquitto wakes for the PINGREQ before it anyway).
    private let loopTimeoutMilliseconds: Int32

    /// The stop request and the thread's end, shared by the thread and its callers.
    private struct Control {
        var stopRequested = false
        var graceful = false
        var finished = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        /// The thread's kernel id once it runs (tests read its wake-ups from /proc).
        var threadID: Int32?
    }

    private let control = ConditionMutex(Control())

    init(handle: MosquittoHandle, options: MQTTClientOptions) {
        self.handle = handle
        host = options.host
        port = Int32(clamping: options.port)
        keepAlive = Int32(clamping: max(5, options.keepAlive.components.seconds))
        maxPacketBytes = UInt32(clamping: options.maxInboundPacketBytes)
        delayMin = max(0.01, options.reconnectDelayMin.seconds)
        delayMax = max(delayMin, options.reconnectDelayMax.seconds)
        loopTimeoutMilliseconds = keepAlive * 1000
    }

    /// Starts the thread.
    func start() {
        // Without a thread (the system has none to give) the loop ends at once, as after a stop.
        if !startThread(name: "mqtt-network", { [self] in self.main() }) { finish() }
    }

    /// Asks the thread to stop. `graceful`: DISCONNECT with reason "normal" (the broker drops the will);
    /// otherwise DISCONNECT with reason "with will message" (MQTT 5: the broker publishes the will, as for a lost
    /// connection). The DISCONNECT also wakes the thread out of `mosquitto_loop`: libmosquitto, switched to
    /// threaded mode here, queues it and signals the loop, which writes it and closes the socket.
    func requestStop(graceful: Bool) {
        let first = control.withLock {
            let first = !$0.stopRequested
            if first { $0.graceful = graceful }
            $0.stopRequested = true
            return first
        }
        control.broadcast()
        guard first else { return }
        let mosq = handle.pointer
        mosquitto_threaded_set(mosq, true)
        _ = mosquitto_disconnect_v5(
            mosq, graceful ? Mosquitto.disconnectNormally : Mosquitto.disconnectWithWill, nil)
    }

    /// Returns once the thread has exited (immediately if it has).
    func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = control.withLock {
                if $0.finished { return true }
                $0.finishWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private var shouldStop: Bool { control.withLock { $0.stopRequested } }

    /// The network thread's kernel id, once it runs.
    var threadID: Int32? { control.withLock { $0.threadID } }

    /// Sleeps up to `seconds`; returns true when a stop was requested.
    private func sleepUnlessStopped(_ seconds: Double) -> Bool {
        control.wait(timeout: seconds) { $0.stopRequested ? true : nil } ?? false
    }

    /// The first connect (`mosquitto_connect_bind_v5`) with our Maximum Packet Size; libmosquitto keeps a
    /// copy of the properties and sends them again on every `mosquitto_reconnect`.
    private func connect(_ mosq: OpaquePointer) -> Int32 {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        let added = mosquitto_property_add_int32(
            &properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), maxPacketBytes)
        guard added == Mosquitto.success else { return added }
        return mosquitto_connect_bind_v5(mosq, host, port, keepAlive, nil, properties)
    }

    private func main() {
        let id = currentThreadID()
        control.withLock { $0.threadID = id }
        let mosq = handle.pointer
        let callbacks = handle.callbacks
        var delay = delayMin
        var firstAttempt = true
        while !shouldStop {
            callbacks.beginAttempt()
            let rc = firstAttempt ? connect(mosq) : mosquitto_reconnect(mosq)
            let savedErrno = errno
            let connectFunction = firstAttempt ? "mosquitto_connect" : "mosquitto_reconnect"
            firstAttempt = false
            var event: LoopEvent
            let retryIn = Duration.milliseconds(Int64(delay * 1000))
            if rc == Mosquitto.success {
                var loopRC = Mosquitto.success
                var savedLoopErrno: Int32 = 0
                while !shouldStop {
                    // No timeout of its own: libmosquitto shortens it to the next keepalive PINGREQ, and wakes
                    // from its select when a message is queued from another thread or a stop is requested.
                    loopRC = mosquitto_loop(mosq, loopTimeoutMilliseconds, 1)
                    savedLoopErrno = errno
                    if loopRC != Mosquitto.success { break }
                    if delay != delayMin, callbacks.sessionEstablished { delay = delayMin }
                }
                if shouldStop { break }
                if callbacks.sessionEstablished {
                    let reason =
                        MQTTError.fromReturnCode(
                            loopRC, function: "mosquitto_loop",
                            savedErrno: savedLoopErrno,
                            detail: callbacks.lastError)?.description ?? "connection closed"
                    event = .disconnected(reason: reason, retryIn: .milliseconds(Int64(delayMin * 1000)))
                    delay = delayMin
                } else if let refused = callbacks.connectionRefusedCode {
                    event = .connectFailed(MQTTError.refused(refused), retryIn: retryIn)
                } else {
                    let error =
                        MQTTError.fromReturnCode(
                            loopRC, function: "mosquitto_loop", savedErrno: savedLoopErrno,
                            detail: callbacks.lastError)
                        ?? .library(
                            function: "mosquitto_loop", code: loopRC, message: "connection closed before CONNACK")
                    event = .connectFailed(error, retryIn: retryIn)
                }
            } else {
                let error =
                    MQTTError.fromReturnCode(
                        rc, function: connectFunction,
                        savedErrno: savedErrno, detail: callbacks.lastError)
                    ?? .library(function: connectFunction, code: rc, message: "unknown")
                event = .connectFailed(error, retryIn: retryIn)
            }
            let waitSeconds: Double
            if case .disconnected = event { waitSeconds = delayMin } else { waitSeconds = delay }
            callbacks.events.yield(event)
            if sleepUnlessStopped(waitSeconds) { break }
            if case .connectFailed = event { delay = min(delay * 2, delayMax) }
        }
        let disconnectGracefully = control.withLock { $0.graceful }
        if disconnectGracefully, callbacks.sessionEstablished {
            if mosquitto_disconnect(mosq) == Mosquitto.success {
                // Pump the loop so the DISCONNECT is written; it returns an error once the socket is closed.
                let deadline = ContinuousClock.now + .seconds(1)
                while ContinuousClock.now < deadline, mosquitto_loop(mosq, 50, 1) == Mosquitto.success {}
            }
        }
        // A TLS connection made OpenSSL keep random generators for this thread. OpenSSL frees them when the thread
        // ends, but only while the library is up: once `finish()` lets the process exit, its exit-time cleanup can
        // come first, and they are never freed (LeakSanitizer reported them in a bridge that stopped). This thread
        // makes no more OpenSSL calls (libmosquitto's), so it frees them now. A no-op without TLS.
        OPENSSL_thread_stop()
        finish()
    }

    /// Marks the loop finished: resumes `waitUntilFinished` and ends the event stream.
    private func finish() {
        let waiters = control.withLock {
            $0.finished = true
            let waiters = $0.finishWaiters
            $0.finishWaiters = []
            return waiters
        }
        handle.callbacks.events.yield(.finished)
        // Also end the stream, so `run()` stops even if `.finished` found the buffer full.
        handle.callbacks.events.finish()
        for waiter in waiters { waiter.resume() }
    }
}

/// What the network thread tells the `MQTTClient` actor (through a bounded AsyncStream).
enum LoopEvent: Sendable {
    /// CONNACK 0 arrived.
    case connected
    /// An established connection ended.
    case disconnected(reason: String, retryIn: Duration)
    /// An attempt failed before CONNACK 0.
    case connectFailed(MQTTError, retryIn: Duration)
    /// The network thread has exited; it makes no more libmosquitto calls.
    case finished
}

extension Duration {
    /// The duration in seconds as a Double.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
