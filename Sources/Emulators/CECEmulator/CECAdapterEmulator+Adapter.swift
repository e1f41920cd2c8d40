internal import SerialPTY

/// The adapter's side of the host traffic: its state, and its answer to each message from the host.
extension CECAdapterEmulator {
    /// A waiter to resume with the frame it waited for, once the lock is released.
    typealias Resume = (CheckedContinuation<TransmittedFrame?, Never>, TransmittedFrame)

    /// Everything mutable: owned by `adapter`, so only reachable with its lock held.
    struct Adapter {
        let configuration: CECEmulatorConfiguration
        /// Whether `trace` is set: the lines for it are only made then.
        let tracing: Bool

        var terminal: PseudoTerminal?
        var link: String?
        var stopped = false
        var bus: EmulatedBus

        // Adapter state (reset on replug, except the "EEPROM" settings).
        var decoder = AdapterFrameDecoder()
        var ackMask: UInt16 = 0
        var controlled = false
        var transmitBuffer: [UInt8] = []
        var settings = AdapterSettings()
        /// Whether the adapter answers the host (`setAnswering`); a hung one reads and ignores every message.
        var answering = true

        // Recording.
        var transmitted: [TransmittedFrame] = []
        /// Host messages received, per message code (the low six bits of the code byte).
        var hostMessages: [UInt8: Int] = [:]
        var waiters: [Int: Waiter] = [:]
        var expiredWaiters: Set<Int> = []
        var nextWaiterID = 0

        init(configuration: CECEmulatorConfiguration, tracing: Bool) {
            self.configuration = configuration
            self.tracing = tracing
            bus = EmulatedBus(configuration: configuration)
        }

        /// Handles one host message; returns the bytes to answer.
        mutating func handle(_ message: AdapterMessage, lines: inout [String], resumes: inout [Resume]) -> [UInt8] {
            let codeByte = message.codeByte & 0x3F
            guard let code = message.code else { return reject(codeByte) }
            let p = message.payload
            func byte(_ default: UInt8) -> UInt8 { p.first ?? `default` }
            func word(_ default: UInt16) -> UInt16 { p.count >= 2 ? UInt16(p[0]) << 8 | UInt16(p[1]) : `default` }
            switch code {
            case .ping, .transmitIdleTime, .transmitLineTimeout, .writeEEPROM, .setActiveSource:
                return accept(code)
            case .firmwareVersion:
                return reply(code, EmulatedBus.word(configuration.firmwareVersion))
            case .getBuildDate:
                let d = configuration.firmwareBuildDate
                return reply(code, [UInt8(d >> 24), UInt8((d >> 16) & 0xFF), UInt8((d >> 8) & 0xFF), UInt8(d & 0xFF)])
            case .getAdapterType: return reply(code, [1])
            case .setControlled:
                controlled = byte(0) != 0
                return accept(code)
            case .getAutoEnabled: return reply(code, [settings.autoEnabled])
            case .setAutoEnabled:
                settings.autoEnabled = byte(settings.autoEnabled)
                return accept(code)
            case .getDefaultLogicalAddress: return reply(code, [settings.defaultLogicalAddress])
            case .setDefaultLogicalAddress:
                settings.defaultLogicalAddress = byte(settings.defaultLogicalAddress)
                return accept(code)
            case .getLogicalAddressMask: return reply(code, EmulatedBus.word(settings.logicalAddressMask))
            case .setLogicalAddressMask:
                settings.logicalAddressMask = word(settings.logicalAddressMask)
                return accept(code)
            case .getPhysicalAddress: return reply(code, EmulatedBus.word(settings.physicalAddress))
            case .setPhysicalAddress:
                settings.physicalAddress = word(settings.physicalAddress)
                return accept(code)
            case .getDeviceType: return reply(code, [settings.deviceType])
            case .setDeviceType:
                settings.deviceType = byte(settings.deviceType)
                return accept(code)
            case .getHDMIVersion: return reply(code, [settings.hdmiVersion])
            case .setHDMIVersion:
                settings.hdmiVersion = byte(settings.hdmiVersion)
                return accept(code)
            case .getOSDName: return reply(code, settings.osdName)
            case .setOSDName:
                settings.osdName = Array(p.prefix(14))
                return accept(code)
            case .getAutoPowerOn: return reply(code, [settings.autoPowerOn])
            case .setAutoPowerOn:
                settings.autoPowerOn = byte(settings.autoPowerOn)
                return accept(code)
            case .setAckMask:
                ackMask = word(ackMask)
                return accept(code)
            case .transmitAckPolarity:
                transmitBuffer = []
                return accept(code)
            case .transmit:
                if let b = p.first, transmitBuffer.count < 17 { transmitBuffer.append(b) }
                return accept(code)
            case .transmitEOM:
                if let b = p.first { transmitBuffer.append(b) }
                let bytes = transmitBuffer
                transmitBuffer = []
                return accept(code) + completeTransmission(bytes, lines: &lines, resumes: &resumes)
            default:
                return reject(codeByte)
            }
        }

        private func accept(_ code: AdapterCode) -> [UInt8] {
            AdapterMessage(.commandAccepted, [code.rawValue]).encoded
        }

        private func reject(_ codeByte: UInt8) -> [UInt8] {
            AdapterMessage(.commandRejected, [codeByte]).encoded
        }

        private func reply(_ code: AdapterCode, _ payload: [UInt8]) -> [UInt8] {
            AdapterMessage(code, payload).encoded
        }

        /// A full frame from the host: record it, answer the result, let the devices react.
        private mutating func completeTransmission(
            _ bytes: [UInt8], lines: inout [String],
            resumes: inout [Resume]
        ) -> [UInt8] {
            guard let frame = BusFrame(bytes: bytes) else {
                return AdapterMessage(.transmitFailedLine).encoded
            }
            let acknowledged = frame.isBroadcast || bus.acknowledges(frame.destination)
            let record = TransmittedFrame(
                frame: frame, time: .now, acknowledged: acknowledged,
                index: transmitted.count)
            transmitted.append(record)
            for (id, waiter) in waiters where record.index >= waiter.since && waiter.predicate(frame) {
                waiters.removeValue(forKey: id)
                resumes.append((waiter.continuation, record))
            }
            var out = AdapterMessage(acknowledged ? .transmitSucceeded : .transmitFailedAck).encoded
            if tracing { lines.append("host tx \(frame) → \(acknowledged ? "ack" : "nack")") }
            guard acknowledged else { return out }
            for reply in bus.deliver(frame) {
                if tracing { lines.append("bus \(reply)") }
                out += CECAdapterEmulator.encodeReceived(reply)
            }
            return out
        }

        /// Resets the adapter as after power-up (the "EEPROM" settings stay).
        mutating func reset() {
            decoder = AdapterFrameDecoder()
            ackMask = 0
            controlled = false
            transmitBuffer = []
            answering = true
        }
    }

    /// The adapter's persistent settings, as GET_*/SET_* see them.
    struct AdapterSettings {
        var autoEnabled: UInt8 = 0
        var defaultLogicalAddress: UInt8 = 1
        var logicalAddressMask: UInt16 = 0x0002
        var physicalAddress: UInt16 = 0x1000
        var deviceType: UInt8 = 1
        var hdmiVersion: UInt8 = 5
        var osdName: [UInt8] = Array("CECTester".utf8)
        var autoPowerOn: UInt8 = 0
    }
}
