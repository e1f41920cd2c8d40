internal import CCEC

/// The C callback table handed to libcec. Each entry turns `cbparam` back into the `CECCallbackSink`
/// (passed unretained: the driver's `LibCECResources` keeps it alive as long as the libcec instance) and copies
/// the C data out before returning.
enum LibCECCallbacks {
    static func sink(_ param: UnsafeMutableRawPointer?) -> CECCallbackSink? {
        guard let param else { return nil }
        // Unmanaged: unretained; `LibCECResources` holds the sink as long as the libcec instance exists.
        return Unmanaged<CECCallbackSink>.fromOpaque(param).takeUnretainedValue()
    }

    static func make() -> ICECCallbacks {
        var callbacks = ICECCallbacks()
        callbacks.logMessage = { param, message in
            guard let sink = LibCECCallbacks.sink(param), let message else { return }
            let level = Int32(bitPattern: message.pointee.level.rawValue)
            guard sink.wantsLog(level: level) else { return }
            let text = message.pointee.message.map { String(cString: $0) } ?? ""
            sink.log(level: level, message: text)
        }
        callbacks.keyPress = { param, key in
            guard let sink = LibCECCallbacks.sink(param), let key else { return }
            sink.keyPress(
                code: UInt8(truncatingIfNeeded: key.pointee.keycode.rawValue),
                duration: Int(key.pointee.duration))
        }
        callbacks.commandReceived = { param, command in
            guard let sink = LibCECCallbacks.sink(param), let command else { return }
            sink.received(LibCECCallbacks.frame(from: command.pointee))
        }
        callbacks.alert = { param, alert, _ in
            guard let sink = LibCECCallbacks.sink(param) else { return }
            sink.alert(UInt32(alert.rawValue))
        }
        callbacks.sourceActivated = { param, address, activated in
            guard let sink = LibCECCallbacks.sink(param) else { return }
            sink.sourceActivated(LogicalAddress(UInt8(truncatingIfNeeded: address.rawValue)), active: activated != 0)
        }
        return callbacks
    }

    /// Copies a `cec_command` into a `CECFrame`.
    static func frame(from command: cec_command) -> CECFrame {
        let size = min(Int(command.parameters.size), CECFrame.maximumParameters + 50)
        let parameters = withUnsafeBytes(of: command.parameters.data) { raw in
            Array(raw.prefix(min(size, raw.count)))
        }
        return CECFrame(
            initiator: LogicalAddress(UInt8(truncatingIfNeeded: command.initiator.rawValue)),
            destination: LogicalAddress(UInt8(truncatingIfNeeded: command.destination.rawValue)),
            opcode: command.opcode_set != 0 ? UInt8(truncatingIfNeeded: command.opcode.rawValue) : nil,
            parameters: parameters)
    }

    /// Builds a `cec_command` from a frame.
    static func command(from frame: CECFrame) -> cec_command {
        var command = cec_command()
        command.initiator = cec_logical_address(rawValue: Int32(frame.initiator.rawValue))
        command.destination = cec_logical_address(rawValue: Int32(frame.destination.rawValue))
        command.ack = 0
        command.eom = 1
        command.transmit_timeout = 1000
        if let opcode = frame.opcode {
            command.opcode = cec_opcode(rawValue: UInt32(opcode))
            command.opcode_set = 1
            let count = min(frame.parameters.count, CECFrame.maximumParameters)
            withUnsafeMutableBytes(of: &command.parameters.data) { raw in
                for i in 0..<min(count, raw.count) { raw[i] = frame.parameters[i] }
            }
            command.parameters.size = UInt8(count)
        }
        return command
    }
}

/// The C resources of one driver: its libcec instance and the callback table it points at.
///
/// The instance is created once (`libcec_initialise`) and then opened and closed (`libcec_open`, `libcec_close`)
/// as often as the adapter comes and goes; it is never destroyed. libcec 6's `libcec_destroy` frees objects that
/// its own threads still use:
/// - a vendor command handler's helper thread: with a Philips TV, libcec's handler for the bridge's own device
///   starts a thread (`CImageViewOnCheck`) that asks the TV for its power every 5 s until the TV is on; the
///   handler's destructor wakes it and goes on, and the thread then asks the freed bus for the TV's power
///   (SIGSEGV, or "pure virtual method called" and an abort). A TV in standby that sets the stream path to the
///   bridge's address starts it (`CECDriverTests/philipsActiveSourceCheckThenClose` reproduces the crash);
/// - the client's callback thread, started by `libcec_initialise` without waiting for it: destroyed before that
///   thread first ran, the client is freed under it (the same abort, or a hang on a mutex the next instance
///   reuses).
/// `libcec_close` stops the adapter's threads and keeps those objects; the instance lives until the process ends.
/// So do the callback table and the sink, which libcec's threads may still call: they are released only when no
/// instance was ever created.
final class LibCECResources: @unchecked Sendable {
    // @unchecked Sendable: only the owning `LibCEC` actor touches `instance` and `isOpen` (on its queue); deinit
    // runs once nothing else references the object.

    /// The driver's libcec instance, once created.
    var instance: libcec_connection_t?
    /// Whether `instance` is open (between a successful `libcec_open` and `libcec_close`).
    var isOpen = false
    /// Allocated here; freed in deinit only when no libcec instance was created.
    let callbacks: UnsafeMutablePointer<ICECCallbacks>
    /// Held so that the sink (passed unretained as libcec's callbackParam) outlives the libcec instance.
    let sink: CECCallbackSink

    init(sink: CECCallbackSink) {
        self.sink = sink
        callbacks = UnsafeMutablePointer<ICECCallbacks>.allocate(capacity: 1)
        callbacks.initialize(to: LibCECCallbacks.make())
    }

    deinit {
        guard let instance else {
            callbacks.deinitialize(count: 1)
            callbacks.deallocate()
            return
        }
        if isOpen { libcec_close(instance) }
        // The instance stays (see above): its threads keep the callback table and the sink.
        _ = Unmanaged.passRetained(sink)
    }
}
