internal import CCEC

/// The C callback table handed to libcec. Each entry turns `cbparam` back into the `CECCallbackSink`
/// (passed unretained: the driver owns the sink and keeps it alive longer than any connection) and copies
/// the C data out before returning.
enum LibCECCallbacks {
    static func sink(_ param: UnsafeMutableRawPointer?) -> CECCallbackSink? {
        guard let param else { return nil }
        // Unmanaged: unretained; the driver holds the sink for its whole lifetime and destroys every
        // libcec connection (which stops callbacks) before releasing it.
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

/// The C resources of one driver: the libcec connection handle and the callback table it points at.
/// Its deinit closes and destroys a still-open connection before freeing the table.
final class LibCECResources: @unchecked Sendable {
    // @unchecked Sendable: only the owning `CECDriver` actor touches `connection` (on its queue); deinit runs
    // once nothing else references the object.

    var connection: libcec_connection_t?
    /// Allocated here, freed in deinit after the connection (the only user) is destroyed.
    let callbacks: UnsafeMutablePointer<ICECCallbacks>
    /// Held so that the sink (passed unretained as libcec's callbackParam) outlives the connection.
    let sink: CECCallbackSink

    init(sink: CECCallbackSink) {
        self.sink = sink
        callbacks = UnsafeMutablePointer<ICECCallbacks>.allocate(capacity: 1)
        callbacks.initialize(to: LibCECCallbacks.make())
    }

    deinit {
        if let connection {
            libcec_close(connection)
            libcec_destroy(connection)
        }
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
    }
}
