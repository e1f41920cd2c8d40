import BridgeCore
internal import CCEC
import FoundationEssentials
internal import Glibc
public import Logging
internal import SystemSupport

/// The HDMI-CEC driver: an actor that owns one libcec instance (`libcec_connection_t`), opened and closed as the
/// adapter comes and goes (never destroyed: see ``LibCECResources``).
///
/// All libcec calls run on the actor's private dispatch queue (its custom executor), never on the cooperative
/// pool; `libcec_open` blocks that queue for a second or more. libcec's callbacks arrive on libcec's own
/// thread and are copied into `events` at once (an unbounded stream: a CEC bus carries a few frames a second). `run()` is the supervising loop: open,
/// verify, ping, reconnect with capped backoff; the command methods need an open connection.
public actor LibCEC {
    /// Everything the driver observes, across reconnects; libcec's events are yielded from libcec's callback
    /// thread, the rest from the driver's queue. Nothing is dropped (a CEC bus carries a few frames a second).
    /// Finishes after `close()`.
    public nonisolated let events: AsyncStream<CECEvent>

    let configuration: CECDriverConfiguration
    let logger: Logger
    let sink: CECCallbackSink
    /// The libcec instance and the C callback table.
    let resources: LibCECResources
    /// The libcec instance while the adapter is open.
    var connection: libcec_connection_t? { resources.isOpen ? resources.instance : nil }
    var connectedPort: String?
    var ownAddress = LogicalAddress.recordingDevice1
    /// When the adapter last acknowledged a transmission or answered a ping (the health check's proof of life).
    var lastAcknowledged: ContinuousClock.Instant?
    /// How many requests are waiting for a device's answer right now; the health ping waits until none is.
    var repliesAwaited = 0 { didSet { if repliesAwaited == 0 { healthWakeups?.wake() } } }
    /// The health watch's wake-ups while it runs (`watchHealth`).
    var healthWakeups: Wakeups?
    private nonisolated let executor: DispatchQueueExecutor

    /// How often the actor has woken up so far (jobs given to its queue); tests read it.
    nonisolated var executorJobs: Int { executor.jobsEnqueued }

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Creates the driver; nothing is opened until `open()` or `run()`.
    public init(configuration: CECDriverConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        let (stream, continuation) = AsyncStream.makeStream(
            of: CECEvent.self, bufferingPolicy: .unbounded)
        self.events = stream
        self.sink = CECCallbackSink(continuation: continuation, logLevels: configuration.libcecLogLevels)
        self.resources = LibCECResources(sink: sink)
        self.executor = DispatchQueueExecutor(label: "thuis.cec.libcec")
    }

    deinit {
        sink.finish()
    }

    /// Whether a connection is open.
    public var isConnected: Bool { connection != nil }

    // MARK: Open / close

    /// Opens the adapter: (the first time) `libcec_initialise`, (for `auto`) `libcec_detect_adapters`,
    /// `libcec_open`, then verifies with `libcec_ping_adapters` (libcec_open reports success after ~33 s even when
    /// nothing answers) and, if configured, `libcec_poll_device(5)`. Emits `.connected`. Blocks the driver's queue.
    @discardableResult
    public func open() throws(CECDriverError) -> CECConnectionInfo {
        if connection != nil { closeConnection() }
        sink.resetLost()
        guard configuration.osdName.utf8.count <= 14, !configuration.osdName.isEmpty else {
            throw .invalidConfiguration("osd_name must be 1-14 characters")
        }
        // libcec 6 retries opening a serial port "every 250 ms" until its timeout, but the wait between attempts
        // (P8PLATFORM's CThread::Sleep, which returns at once once the adapter thread is flagged to stop) does not
        // wait here: libcec tries a missing device thousands of times a second, a whole core for the timeout of
        // every attempt. An unplugged adapter is therefore not handed to libcec at all.
        if configuration.port.hasPrefix("/"), !FileManager.default.fileExists(atPath: configuration.port) {
            throw .portMissing(port: configuration.port)
        }
        let handle = try instance()
        let port = try resolvePort(handle)
        let started = ContinuousClock.now
        let timeout = UInt32(clamping: configuration.openTimeout.components.seconds * 1000)
        guard withCurrentThreadName("libcec", { libcec_open(handle, port, timeout) }) != 0 else {
            libcec_close(handle)
            throw .libcec(function: "libcec_open", detail: "could not open \(port)")
        }
        let openDuration = ContinuousClock.now - started
        guard !sink.connectionLost, libcec_ping_adapters(handle) != 0 else {
            libcec_close(handle)
            throw .adapterNotResponding(port: port)
        }
        resources.isOpen = true
        connectedPort = port
        let addresses = libcec_get_logical_addresses(handle)
        ownAddress = LogicalAddress(UInt8(truncatingIfNeeded: addresses.primary.rawValue))
        var current = libcec_configuration()
        libcec_clear_configuration(&current)
        let firmware = libcec_get_current_configuration(handle, &current) != 0 ? Int(current.iFirmwareVersion) : 0
        let physical = PhysicalAddress(rawValue: current.iPhysicalAddress)
        var audio = false
        if configuration.pollAudioSystemOnOpen {
            audio = libcec_poll_device(handle, CECDEVICE_AUDIOSYSTEM) != 0
        }
        let info = CECConnectionInfo(
            port: port, logicalAddress: ownAddress, physicalAddress: physical,
            firmwareVersion: firmware, openDuration: openDuration, audioSystemPresent: audio)
        logger.info(
            "CEC adapter open",
            metadata: [
                "port": "\(port)", "la": "\(ownAddress)", "pa": "\(physical)", "firmware": "\(firmware)",
                "open_ms":
                    "\(openDuration.components.seconds * 1000 + openDuration.components.attoseconds / 1_000_000_000_000_000)",
                "audio_system": "\(audio)",
            ])
        sink.yield(.connected(info))
        return info
    }

    /// Closes the connection (`libcec_close`). The event stream stays open.
    public func disconnect() {
        closeConnection()
    }

    /// Closes the connection and finishes `events`.
    public func close() {
        closeConnection()
        sink.finish()
    }

    /// `libcec_close`; the libcec instance stays for the next `open()` (see ``LibCECResources``).
    func closeConnection() {
        guard resources.isOpen, let handle = resources.instance else { return }
        resources.isOpen = false
        connectedPort = nil
        libcec_close(handle)
    }

    /// The driver's one libcec instance (`libcec_initialise` the first time), configured with the OSD name, the
    /// device type, the physical address and the callbacks; it is opened and closed as often as the adapter comes
    /// and goes, and never destroyed (see ``LibCECResources``).
    private func instance() throws(CECDriverError) -> libcec_connection_t {
        if let instance = resources.instance { return instance }
        var config = libcec_configuration()
        libcec_clear_configuration(&config)
        config.clientVersion = UInt32(LIBCEC_VERSION_CURRENT.rawValue)
        withUnsafeMutableBytes(of: &config.strDeviceName) { raw in
            let name = Array(configuration.osdName.utf8.prefix(raw.count - 1))
            for i in 0..<raw.count { raw[i] = i < name.count ? name[i] : 0 }
        }
        config.deviceTypes.types.0 =
            configuration.deviceType == .playback
            ? CEC_DEVICE_TYPE_PLAYBACK_DEVICE : CEC_DEVICE_TYPE_RECORDING_DEVICE
        if let address = configuration.physicalAddress { config.iPhysicalAddress = address.rawValue }
        config.bActivateSource = 0
        // Unmanaged: unretained; `resources` keeps the sink alive as long as the libcec instance.
        config.callbackParam = Unmanaged.passUnretained(sink).toOpaque()
        config.callbacks = resources.callbacks
        // libcec's threads inherit the name of the thread that starts them: `libcec`, not the dispatch worker's.
        guard let handle = withCurrentThreadName("libcec", { libcec_initialise(&config) }) else {
            throw .libcec(function: "libcec_initialise", detail: "returned no connection")
        }
        resources.instance = handle
        return handle
    }

    private func resolvePort(_ handle: libcec_connection_t) throws(CECDriverError) -> String {
        guard configuration.port.lowercased() == "auto" else { return configuration.port }
        guard let first = Self.detect(handle).first else { throw .noAdapterFound }
        return first.path
    }

    /// `libcec_detect_adapters` on an initialised connection.
    static func detect(_ handle: libcec_connection_t) -> [CECAdapterDescriptor] {
        let capacity = 10
        let list = UnsafeMutablePointer<cec_adapter_descriptor>.allocate(capacity: capacity)
        defer { list.deallocate() }
        let count = Int(libcec_detect_adapters(handle, list, UInt8(capacity), nil, 1))
        guard count > 0 else { return [] }
        return (0..<min(count, capacity)).map { i in
            let d = list[i]
            let path = withUnsafeBytes(of: d.strComPath) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            let name = withUnsafeBytes(of: d.strComName) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            return CECAdapterDescriptor(
                path: path.isEmpty ? name : path, name: name, vendorID: d.iVendorId,
                productID: d.iProductId, firmwareVersion: Int(d.iFirmwareVersion))
        }
    }

    /// Lists the CEC adapters libcec can find (`libcec_detect_adapters`), on the driver's queue, with the driver's
    /// libcec instance.
    public func detectAdapters() throws(CECDriverError) -> [CECAdapterDescriptor] {
        Self.detect(try instance())
    }

    /// The open handle, or `notConnected` naming the operation.
    func handle(for operation: String) throws(CECDriverError) -> libcec_connection_t {
        guard let connection else { throw .notConnected(operation: operation) }
        return connection
    }

    /// Turns a libcec `int` result (non-zero = success) into a typed error naming the function.
    func check(_ result: Int32, _ function: String, _ detail: @autoclosure () -> String) throws(CECDriverError) {
        guard result != 0 else { throw .libcec(function: function, detail: detail()) }
        lastAcknowledged = .now
    }
}

/// An adapter `libcec_detect_adapters` found.
public struct CECAdapterDescriptor: Sendable, Hashable {
    /// What to pass as `port` (the com path, e.g. /dev/ttyACM0, or "Linux").
    public let path: String
    public let name: String
    public let vendorID: UInt16
    public let productID: UInt16
    public let firmwareVersion: Int
}

/// Why a CEC driver operation failed. `libcec` names the C function that refused.
public enum CECDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A libcec call returned failure.
    case libcec(function: String, detail: String)
    /// The operation needs an open connection.
    case notConnected(operation: String)
    /// `port = "auto"` and `libcec_detect_adapters` found nothing.
    case noAdapterFound
    /// `libcec_open` claimed success but the adapter does not answer pings.
    case adapterNotResponding(port: String)
    /// The configured port (a device path) does not exist: the adapter is unplugged.
    case portMissing(port: String)
    /// A configuration value is unusable.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .libcec(let function, let detail): "\(function) failed: \(detail)"
        case .notConnected(let operation): "\(operation): the CEC adapter is not connected"
        case .noAdapterFound: "libcec_detect_adapters found no CEC adapter"
        case .adapterNotResponding(let port): "libcec_open(\(port)) returned, but the adapter does not answer pings"
        case .portMissing(let port): "\(port) does not exist (adapter unplugged?)"
        case .invalidConfiguration(let why): "invalid CEC configuration: \(why)"
        }
    }
}
