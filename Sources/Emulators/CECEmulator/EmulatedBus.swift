/// The emulated CEC bus behind the adapter: a TV (LA 0), an audio system (LA 5) and a playback device
/// (LA 4). Pure state machine: `deliver` takes a frame seen on the bus and returns the frames the devices
/// send in reply (already processed by the other devices in turn).
struct EmulatedBus: Sendable {
    static let tv: UInt8 = 0
    static let audioSystem: UInt8 = 5
    static let playback: UInt8 = 4

    var devices: [UInt8: EmulatedDevice]
    var tvInput: UInt16 = 0
    var volume: Int
    var muted: Bool
    var systemAudioMode = false
    let volumeStep: Int
    /// Who last asked the audio system for its status or sent it a volume key: unsolicited reports go there.
    var audioStatusListener: UInt8?
    /// How many Give Device Power Status requests the TV leaves unanswered before it answers again (an answer
    /// lost on the way, as when libcec drops a frame's header).
    var tvPowerAnswersToDrop = 0

    init(configuration c: CECEmulatorConfiguration) {
        var devices: [UInt8: EmulatedDevice] = [:]
        devices[EmulatedBus.tv] = EmulatedDevice(
            role: .tv, logicalAddress: EmulatedBus.tv, physicalAddress: 0, deviceType: 0, vendorID: c.tvVendorID,
            osdName: c.tvOSDName, powered: c.tvPoweredOn, present: true)
        devices[EmulatedBus.audioSystem] = EmulatedDevice(
            role: .audioSystem, logicalAddress: EmulatedBus.audioSystem, physicalAddress: c.audioSystemPhysicalAddress,
            deviceType: 5, vendorID: c.audioSystemVendorID, osdName: c.audioSystemOSDName, powered: true,
            present: c.audioSystemPresent)
        devices[EmulatedBus.playback] = EmulatedDevice(
            role: .playback, logicalAddress: EmulatedBus.playback, physicalAddress: c.playbackPhysicalAddress,
            deviceType: 4, vendorID: c.playbackVendorID, osdName: c.playbackOSDName, powered: true,
            present: c.playbackPresent)
        self.devices = devices
        self.volume = min(100, max(0, c.volume))
        self.muted = c.muted
        self.volumeStep = max(1, c.volumeStep)
    }

    /// Whether a device with this logical address would acknowledge a frame.
    func acknowledges(_ address: UInt8) -> Bool {
        devices[address]?.present ?? false
    }

    /// The Report Audio Status operand.
    var audioStatusByte: UInt8 { UInt8(min(100, max(0, volume))) | (muted ? 0x80 : 0) }

    /// Processes a frame and everything the devices send because of it. Returns the device frames in order.
    mutating func deliver(_ frame: BusFrame) -> [BusFrame] {
        var queue = [frame]
        var produced: [BusFrame] = []
        var index = 0
        while index < queue.count && produced.count < 32 {
            let current = queue[index]
            index += 1
            for address in devices.keys.sorted() {
                let replies = handle(current, at: address)
                produced.append(contentsOf: replies)
                queue.append(contentsOf: replies)
            }
        }
        return produced
    }

    // MARK: Remote controls

    /// The TV's own remote switched it on or off. Off broadcasts Standby (which the other devices follow).
    mutating func tvRemotePower(on: Bool) -> [BusFrame] {
        devices[EmulatedBus.tv]?.powered = on
        guard !on else { return [] }
        let standby = BusFrame(initiator: EmulatedBus.tv, destination: BusFrame.broadcast, data: [CECOpcode.standby])
        return [standby] + deliver(standby)
    }

    /// The TV's own remote switched input: broadcasts Routing Change; the device there announces itself.
    mutating func tvRemoteSelectInput(_ address: UInt16) -> [BusFrame] {
        let old = tvInput
        tvInput = address
        devices[EmulatedBus.tv]?.powered = true
        let change = BusFrame(
            initiator: EmulatedBus.tv, destination: BusFrame.broadcast,
            data: [CECOpcode.routingChange] + Self.word(old) + Self.word(address))
        return [change] + deliver(change)
    }

    /// The audio system's own remote changed volume or mute: it reports the status unsolicited.
    mutating func avrRemote(volume newVolume: Int?, muted newMuted: Bool?) -> [BusFrame] {
        if let newVolume { volume = min(100, max(0, newVolume)) }
        if let newMuted { muted = newMuted }
        guard acknowledges(EmulatedBus.audioSystem) else { return [] }
        let report = BusFrame(
            initiator: EmulatedBus.audioSystem, destination: audioStatusListener ?? EmulatedBus.tv,
            data: [CECOpcode.reportAudioStatus, audioStatusByte])
        return [report]
    }

    // MARK: Per-device behaviour

    static func word(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }

    private mutating func handle(_ frame: BusFrame, at address: UInt8) -> [BusFrame] {
        guard let device = devices[address], device.present, frame.initiator != address else { return [] }
        guard frame.destination == address || frame.isBroadcast, let opcode = frame.opcode else { return [] }
        let me = address
        let to = frame.initiator
        func reply(_ data: [UInt8]) -> BusFrame { BusFrame(initiator: me, destination: to, data: data) }
        func broadcast(_ data: [UInt8]) -> BusFrame {
            BusFrame(initiator: me, destination: BusFrame.broadcast, data: data)
        }

        // Common requests.
        if !frame.isBroadcast {
            switch opcode {
            case CECOpcode.giveDevicePowerStatus:
                if address == Self.tv, tvPowerAnswersToDrop > 0 {
                    tvPowerAnswersToDrop -= 1
                    return []
                }
                return [reply([CECOpcode.reportPowerStatus, device.powerStatusByte])]
            case CECOpcode.givePhysicalAddress:
                return [
                    broadcast(
                        [CECOpcode.reportPhysicalAddress] + Self.word(device.physicalAddress) + [device.deviceType])
                ]
            case CECOpcode.giveOSDName:
                return [reply([CECOpcode.setOSDName] + Array(device.osdName.utf8.prefix(14)))]
            case CECOpcode.giveDeviceVendorID:
                let v = device.vendorID
                return [
                    broadcast([
                        CECOpcode.deviceVendorID, UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF),
                    ])
                ]
            case CECOpcode.getCECVersion:
                return [reply([CECOpcode.cecVersion, 0x05])]
            default:
                break
            }
        }
        if opcode == CECOpcode.standby {
            devices[me]?.powered = false
            return []
        }
        let handled: [BusFrame]?
        switch device.role {
        case .tv: handled = handleTV(frame, opcode: opcode, reply: reply, broadcast: broadcast)
        case .audioSystem: handled = handleAudioSystem(frame, opcode: opcode, reply: reply, broadcast: broadcast)
        case .playback: handled = handlePlayback(frame, opcode: opcode, device: device, broadcast: broadcast)
        }
        if let handled { return handled }
        if frame.isBroadcast || CECOpcode.informational.contains(opcode) || frame.initiator == BusFrame.broadcast {
            return []
        }
        return [reply([CECOpcode.featureAbort, opcode, 0x00])]
    }

    private mutating func handleTV(
        _ frame: BusFrame, opcode: UInt8, reply: ([UInt8]) -> BusFrame,
        broadcast: ([UInt8]) -> BusFrame
    ) -> [BusFrame]? {
        switch opcode {
        case CECOpcode.imageViewOn, CECOpcode.textViewOn:
            devices[EmulatedBus.tv]?.powered = true
            return []
        case CECOpcode.activeSource, CECOpcode.setStreamPath, CECOpcode.routingInformation:
            if let address = frame.parameterWord(at: 0) { tvInput = address }
            return []
        case CECOpcode.routingChange:
            if let address = frame.parameterWord(at: 2) { tvInput = address }
            return []
        case CECOpcode.inactiveSource, CECOpcode.menuStatus, CECOpcode.requestActiveSource:
            return []
        case CECOpcode.getMenuLanguage:
            return frame.isBroadcast ? [] : [broadcast([CECOpcode.setMenuLanguage] + Array("eng".utf8))]
        case CECOpcode.userControlPressed:
            switch frame.parameters.first {
            case CECOpcode.keyPowerOn: devices[EmulatedBus.tv]?.powered = true
            case CECOpcode.keyPowerOff: devices[EmulatedBus.tv]?.powered = false
            case CECOpcode.keyPower, CECOpcode.keyPowerToggle:
                let wasOn = devices[EmulatedBus.tv]?.powered ?? false
                devices[EmulatedBus.tv]?.powered = !wasOn
            default: break
            }
            return []
        case CECOpcode.userControlReleased:
            return []
        default:
            return nil
        }
    }

    private mutating func handleAudioSystem(
        _ frame: BusFrame, opcode: UInt8, reply: ([UInt8]) -> BusFrame,
        broadcast: ([UInt8]) -> BusFrame
    ) -> [BusFrame]? {
        switch opcode {
        case CECOpcode.giveAudioStatus where !frame.isBroadcast:
            audioStatusListener = frame.initiator
            return [reply([CECOpcode.reportAudioStatus, audioStatusByte])]
        case CECOpcode.userControlPressed where !frame.isBroadcast:
            audioStatusListener = frame.initiator
            switch frame.parameters.first {
            case CECOpcode.keyVolumeUp: volume = min(100, volume + volumeStep)
            case CECOpcode.keyVolumeDown: volume = max(0, volume - volumeStep)
            case CECOpcode.keyMute: muted.toggle()
            case CECOpcode.keyMuteFunction: muted = true
            case CECOpcode.keyRestoreVolume: muted = false
            case CECOpcode.keyPowerOn: devices[EmulatedBus.audioSystem]?.powered = true
            case CECOpcode.keyPowerOff: devices[EmulatedBus.audioSystem]?.powered = false
            default: return []
            }
            devices[EmulatedBus.audioSystem]?.powered = true
            return [reply([CECOpcode.reportAudioStatus, audioStatusByte])]
        case CECOpcode.userControlReleased:
            return []
        case CECOpcode.systemAudioModeRequest where !frame.isBroadcast:
            systemAudioMode = frame.parameters.count >= 2
            if systemAudioMode { devices[EmulatedBus.audioSystem]?.powered = true }
            return [broadcast([CECOpcode.setSystemAudioMode, systemAudioMode ? 1 : 0])]
        case CECOpcode.giveSystemAudioModeStatus where !frame.isBroadcast:
            return [reply([CECOpcode.systemAudioModeStatus, systemAudioMode ? 1 : 0])]
        case CECOpcode.imageViewOn, CECOpcode.textViewOn:
            return frame.isBroadcast ? [] : nil
        default:
            return frame.isBroadcast ? [] : nil
        }
    }

    private mutating func handlePlayback(
        _ frame: BusFrame, opcode: UInt8, device: EmulatedDevice,
        broadcast: ([UInt8]) -> BusFrame
    ) -> [BusFrame]? {
        let mine = device.physicalAddress
        let announce = broadcast([CECOpcode.activeSource] + Self.word(mine))
        switch opcode {
        case CECOpcode.setStreamPath:
            guard frame.parameterWord(at: 0) == mine else { return [] }
            devices[device.logicalAddress]?.powered = true
            return [announce]
        case CECOpcode.routingChange:
            guard frame.parameterWord(at: 2) == mine else { return [] }
            devices[device.logicalAddress]?.powered = true
            return [announce]
        case CECOpcode.requestActiveSource:
            return tvInput == mine && device.powered ? [announce] : []
        case CECOpcode.userControlPressed, CECOpcode.userControlReleased:
            return []
        default:
            return frame.isBroadcast ? [] : nil
        }
    }
}

/// One emulated CEC device on the bus.
struct EmulatedDevice: Sendable {
    enum Role: Sendable { case tv, audioSystem, playback }

    let role: Role
    let logicalAddress: UInt8
    let physicalAddress: UInt16
    let deviceType: UInt8
    let vendorID: UInt32
    let osdName: String
    var powered: Bool
    var present: Bool

    /// The Report Power Status operand: 0 on, 1 standby.
    var powerStatusByte: UInt8 { powered ? 0x00 : 0x01 }
}
