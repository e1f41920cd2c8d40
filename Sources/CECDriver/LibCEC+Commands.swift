internal import BridgeCore
internal import CCEC

extension LibCEC {
    /// Wakes a device (`libcec_power_on_devices`; for the TV this sends Image View On).
    public func powerOn(_ address: LogicalAddress = .tv) throws(CECDriverError) {
        let h = try handle(for: "powerOn")
        try check(libcec_power_on_devices(h, Self.cAddress(address)), "libcec_power_on_devices", "address \(address)")
    }

    /// Puts a device in standby (`libcec_standby_devices`, sends Standby).
    public func standby(_ address: LogicalAddress = .tv) throws(CECDriverError) {
        let h = try handle(for: "standby")
        try check(libcec_standby_devices(h, Self.cAddress(address)), "libcec_standby_devices", "address \(address)")
    }

    /// The device's power status.
    ///
    /// With `refresh` (the default) the device is asked: a raw Give Device Power Status (`libcec_transmit`
    /// of `<own><la>:8F`) and the Report Power Status that answers it. The question goes out twice at most:
    /// again when no answer came within `retryAfter` (at once when the first was not acknowledged), and the
    /// answer is waited for until `replyTimeout` in all. (libcec loses the header of a frame that arrives
    /// while its ping to the adapter is pending, because it takes the frame start for the ping's reply, so an
    /// answer can vanish; CEC devices answer within a second.) Without `refresh`, or when no answer comes,
    /// libcec's view (`libcec_get_device_power_status`), which libcec caches for up to 30 s: right after
    /// `standby` it may still say `on`.
    public func powerStatus(
        _ address: LogicalAddress = .tv, refresh: Bool = true,
        replyTimeout: Duration = .seconds(1),
        retryAfter: Duration = .milliseconds(400)
    ) async throws(CECDriverError) -> PowerStatus {
        if refresh {
            repliesAwaited += 1
            defer { repliesAwaited -= 1 }
            let mark = sink.latestPowerSequence
            let deadline = ContinuousClock.now + replyTimeout
            var asked = false
            for attempt in 0..<2 {
                let h = try handle(for: "powerStatus")
                var command = LibCECCallbacks.command(
                    from: CECFrame(initiator: ownAddress, destination: address, opcode: 0x8F))
                // libcec_transmit also fails on a busy line or an adapter timeout, so a question that was not
                // acknowledged is asked again at once, without waiting for an answer to it.
                if libcec_transmit(h, &command) != 0 {
                    lastAcknowledged = .now
                    asked = true
                }
                let wait = attempt == 0 ? min(deadline, ContinuousClock.now + retryAfter) : deadline
                if asked, let status = await powerReport(from: address, after: mark, until: wait) { return status }
            }
        }
        let current = try self.handle(for: "powerStatus")
        return PowerStatus(cecValue: UInt32(libcec_get_device_power_status(current, Self.cAddress(address)).rawValue))
    }

    /// Waits until `deadline` for a Report Power Status from `address` newer than `sequence`.
    private func powerReport(
        from address: LogicalAddress, after sequence: Int,
        until deadline: ContinuousClock.Instant
    ) async -> PowerStatus? {
        while ContinuousClock.now < deadline {
            if let status = sink.powerReport(from: address, after: sequence) { return status }
            do { try await Task.sleep(for: .milliseconds(5)) } catch { break }
        }
        return sink.powerReport(from: address, after: sequence)
    }

    /// Polls a device (`libcec_poll_device`): whether it acknowledged. Makes libcec consider it present.
    public func pollDevice(_ address: LogicalAddress) throws(CECDriverError) -> Bool {
        let h = try handle(for: "pollDevice")
        return libcec_poll_device(h, Self.cAddress(address)) != 0
    }

    /// Volume up (`libcec_volume_up` with key release): libcec's cached audio status after it.
    public func volumeUp() throws(CECDriverError) -> AudioStatus {
        let h = try handle(for: "volumeUp")
        return try audio(libcec_volume_up(h, 1), "libcec_volume_up")
    }

    /// Volume down (`libcec_volume_down` with key release).
    public func volumeDown() throws(CECDriverError) -> AudioStatus {
        let h = try handle(for: "volumeDown")
        return try audio(libcec_volume_down(h, 1), "libcec_volume_down")
    }

    /// Toggles mute (`libcec_audio_toggle_mute`).
    public func toggleMute() throws(CECDriverError) -> AudioStatus {
        let h = try handle(for: "toggleMute")
        return try audio(Int32(libcec_audio_toggle_mute(h)), "libcec_audio_toggle_mute")
    }

    /// Mutes (`libcec_audio_mute`).
    public func mute() throws(CECDriverError) -> AudioStatus {
        let h = try handle(for: "mute")
        return try audio(Int32(libcec_audio_mute(h)), "libcec_audio_mute")
    }

    /// Unmutes (`libcec_audio_unmute`).
    public func unmute() throws(CECDriverError) -> AudioStatus {
        let h = try handle(for: "unmute")
        return try audio(Int32(libcec_audio_unmute(h)), "libcec_audio_unmute")
    }

    /// Asks the audio system for its status (raw `<own>5:71`); the answer arrives as `.audioStatus`.
    public func requestAudioStatus() throws(CECDriverError) {
        try transmit(CECFrame(initiator: ownAddress, destination: .audioSystem, opcode: 0x71))
    }

    /// Sends a raw frame (`libcec_transmit`). An initiator of 15 is replaced by our own address.
    public func transmit(_ frame: CECFrame) throws(CECDriverError) {
        let h = try handle(for: "transmit")
        var frame = frame
        if frame.initiator == .broadcast { frame.initiator = ownAddress }
        var command = LibCECCallbacks.command(from: frame)
        try check(libcec_transmit(h, &command), "libcec_transmit", "frame \(frame) not acknowledged")
    }

    /// Pings the adapter (`libcec_ping_adapters`): whether it answered.
    public func ping() -> Bool {
        guard let connection else { return false }
        let answered = libcec_ping_adapters(connection) != 0
        if answered { lastAcknowledged = .now }
        return answered
    }

    /// Our primary logical address (valid while connected).
    public var logicalAddress: LogicalAddress { ownAddress }

    /// What libcec returns for an audio key: its cached Report Audio Status byte (0 can be "volume 0" but also a
    /// failure without an AVR). Not an event: the audio system's own reports arrive as `.audioStatus` frames.
    private func audio(_ result: Int32, _ function: String) throws(CECDriverError) -> AudioStatus {
        guard (0...0xFF).contains(result) else { throw .libcec(function: function, detail: "returned \(result)") }
        return AudioStatus(cecByte: UInt8(result))
    }

    static func cAddress(_ address: LogicalAddress) -> cec_logical_address {
        cec_logical_address(rawValue: Int32(address.rawValue))
    }
}
