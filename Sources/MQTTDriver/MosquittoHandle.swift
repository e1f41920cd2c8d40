internal import CMosquitto
internal import FoundationEssentials
internal import Glibc

/// Owns one `mosquitto*` and the callback object behind its user-data pointer. Shared by the
/// `MQTTClient` actor and the `NetworkLoop` thread; destroyed (`mosquitto_destroy`) when the last of
/// them lets go, so the network thread never runs on a destroyed handle.
// @unchecked Sendable: libmosquitto is thread-safe with mosquitto_threaded_set(true); `pointer` never changes.
final class MosquittoHandle: @unchecked Sendable {
    let pointer: OpaquePointer
    let callbacks: MosquittoCallbacks
    /// +1 on `callbacks` for libmosquitto's user-data pointer: retained here for the handle's whole
    /// lifetime, released in `deinit` right after `mosquitto_destroy` (no callback can run after it).
    private let userData: Unmanaged<MosquittoCallbacks>

    init(options: MQTTClientOptions, callbacks: MosquittoCallbacks) throws(MQTTError) {
        try MQTTError.check(Mosquitto.initialise(), "mosquitto_lib_init")
        let userData = Unmanaged.passRetained(callbacks)
        guard let pointer = mosquitto_new(options.clientID, true, userData.toOpaque()) else {
            userData.release()
            let savedErrno = errno
            throw .library(
                function: "mosquitto_new", code: Int32(MOSQ_ERR_ERRNO.rawValue),
                message: String(cString: strerror(savedErrno)))
        }
        self.pointer = pointer
        self.callbacks = callbacks
        self.userData = userData
        try configure(options)
    }

    deinit {
        mosquitto_destroy(pointer)
        callbacks.finish()
        userData.release()
    }

    private func configure(_ options: MQTTClientOptions) throws(MQTTError) {
        guard (1...65535).contains(options.port) else { throw .invalidOption("port \(options.port) is not 1...65535") }
        guard !options.host.isEmpty else { throw .invalidOption("host is empty") }
        guard options.reconnectDelayMin > .zero, options.reconnectDelayMax >= options.reconnectDelayMin else {
            throw .invalidOption("reconnect delays must satisfy 0 < min <= max")
        }
        guard options.maxInboundPacketBytes >= 1024 else {
            throw .invalidOption("maxInboundPacketBytes must be at least 1024")
        }
        try MQTTError.check(mosquitto_threaded_set(pointer, true), "mosquitto_threaded_set")
        // MQTT 5: CONNECT carries our Maximum Packet Size (see `NetworkLoop`), so the broker never sends more.
        try MQTTError.check(
            mosquitto_int_option(pointer, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5),
            "mosquitto_int_option(MOSQ_OPT_PROTOCOL_VERSION)")
        try MQTTError.check(mosquitto_max_inflight_messages_set(pointer, 100), "mosquitto_max_inflight_messages_set")
        installCallbacks()
        if options.username != nil || options.password != nil {
            try MQTTError.check(
                mosquitto_username_pw_set(pointer, options.username ?? "", options.password),
                "mosquitto_username_pw_set")
        }
        if let will = options.will {
            try TopicValidator.validatePublish(will.topic)
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set(
                    pointer, will.topic, Int32(bytes.count), bytes.baseAddress,
                    will.qos.rawValue, will.retain)
            }
            try MQTTError.check(rc, "mosquitto_will_set")
        }
        if let caFile = options.caFile {
            if (options.certFile == nil) != (options.keyFile == nil) {
                throw .invalidOption("certFile and keyFile must be given together")
            }
            try MQTTError.check(
                mosquitto_tls_set(pointer, caFile, nil, options.certFile, options.keyFile, nil),
                "mosquitto_tls_set")
            // cert_reqs 1 = SSL_VERIFY_PEER: the broker certificate must chain to caFile.
            try MQTTError.check(mosquitto_tls_opts_set(pointer, 1, nil, nil), "mosquitto_tls_opts_set")
            try MQTTError.check(mosquitto_tls_insecure_set(pointer, false), "mosquitto_tls_insecure_set")
        } else if options.certFile != nil || options.keyFile != nil {
            throw .invalidOption("certFile/keyFile need caFile (TLS)")
        }
    }

    /// The C callbacks: each recovers `MosquittoCallbacks` from the user-data pointer without touching
    /// its retain count, copies the C data into Swift values and returns.
    private func installCallbacks() {
        mosquitto_connect_callback_set(pointer) { _, userData, code in
            guard let userData else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(userData).takeUnretainedValue().didConnect(code: code)
        }
        mosquitto_message_callback_set(pointer) { _, userData, message in
            guard let userData, let message = message?.pointee, let topic = message.topic else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(userData).takeUnretainedValue().didReceive(
                topic: String(cString: topic), payloadLength: Int(max(0, message.payloadlen)),
                payload: UnsafeRawPointer(message.payload), qos: message.qos, retained: message.retain)
        }
        mosquitto_publish_callback_set(pointer) { _, userData, mid in
            guard let userData else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(userData).takeUnretainedValue().acks.publishAcknowledged(mid)
        }
        mosquitto_subscribe_callback_set(pointer) { _, userData, mid, _, _ in
            guard let userData else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(userData).takeUnretainedValue().acks.subscribeAcknowledged(mid)
        }
        mosquitto_log_callback_set(pointer) { _, userData, level, line in
            guard let userData, let line else { return }
            let isError = level & Int32(MOSQ_LOG_ERR) != 0
            Unmanaged<MosquittoCallbacks>.fromOpaque(userData).takeUnretainedValue().didLog(
                level: level, line: String(cString: line), isError: isError)
        }
    }
}

/// Process-wide libmosquitto facts.
enum Mosquitto {
    static let success = Int32(MOSQ_ERR_SUCCESS.rawValue)
    static let noConnection = Int32(MOSQ_ERR_NO_CONN.rawValue)
    /// DISCONNECT reason codes (MQTT 5): a normal disconnection (the broker drops the will), and one that asks
    /// the broker to publish the will.
    static let disconnectNormally = Int32(MQTT_RC_NORMAL_DISCONNECTION.rawValue)
    static let disconnectWithWill = Int32(MQTT_RC_DISCONNECT_WITH_WILL_MSG.rawValue)

    /// `mosquitto_lib_init` runs exactly once per process: Swift initialises a global `static let`
    /// lazily and thread-safely (swift_once). Never cleaned up (the process owns it until exit).
    static let libraryInitialised: Int32 = mosquitto_lib_init()

    /// Ensures the library is initialised; returns the `mosquitto_lib_init` result code.
    @discardableResult
    static func initialise() -> Int32 { libraryInitialised }
}
