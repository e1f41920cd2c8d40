internal import Synchronization

/// The control API: the emulated devices' own remotes, their presence and answers, and raw traffic to the host.
extension CECAdapterEmulator {
    // MARK: Remote controls

    /// The TV's own remote: on just wakes it; off puts it in standby and broadcasts `0F:36`.
    public func tvRemotePower(on: Bool) {
        sendFromBus { bus in bus.tvRemotePower(on: on) }
    }

    /// The TV's own remote switches input: broadcasts Routing Change `0F:80:<old>:<new>`, and the device at
    /// the new address (if emulated) answers Active Source.
    public func tvRemoteSelectInput(_ physicalAddress: UInt16) {
        sendFromBus { bus in bus.tvRemoteSelectInput(physicalAddress) }
    }

    /// The audio system's own remote sets the volume (clamped to 0-100); it reports Audio Status.
    public func avrRemoteSetVolume(_ volume: Int) {
        sendFromBus { bus in bus.avrRemote(volume: volume, muted: nil) }
    }

    /// The audio system's own remote mutes or unmutes; it reports Audio Status.
    public func avrRemoteMute(_ muted: Bool) {
        sendFromBus { bus in bus.avrRemote(volume: nil, muted: muted) }
    }

    /// Adds a device to or removes it from the bus (LA 4 playback, LA 5 audio system; the TV stays). An
    /// absent device does not acknowledge frames, so polls to it fail.
    public func setDevicePresent(logicalAddress: UInt8, _ present: Bool) {
        adapter.withLock {
            guard logicalAddress != EmulatedBus.tv else { return }
            $0.bus.devices[logicalAddress]?.present = present
        }
    }

    /// The TV leaves the next `count` Give Device Power Status requests unanswered.
    public func dropTVPowerAnswers(_ count: Int) {
        adapter.withLock { $0.bus.tvPowerAnswersToDrop = max(0, count) }
    }

    /// Hangs the adapter (false) or lets it answer again (true): a hung adapter stays plugged in, its link and pty
    /// stay, and it reads the host's messages (they are counted) but neither answers nor acts on them, pings
    /// included. A replug answers again, as after power-up.
    public func setAnswering(_ answering: Bool) {
        adapter.withLock { $0.answering = answering }
        emit([answering ? "adapter answers again" : "adapter hung: it ignores the host"])
    }

    // MARK: Injection

    /// Sends a frame to the host as if it appeared on the bus (FRAME_START/FRAME_DATA), without the
    /// emulated devices seeing it. An empty `bytes` sends nothing.
    public func injectBusFrame(bytes: [UInt8]) {
        guard let frame = BusFrame(bytes: bytes) else { return }
        let out = Self.encodeReceived(frame)
        writeToHost { _ in out }
        emit(["inject bus \(frame)"])
    }

    /// Writes raw bytes to the host (for malformed traffic: broken framing, unknown codes, lone flags).
    public func injectSerialBytes(_ bytes: [UInt8]) {
        writeToHost { _ in bytes }
    }
}
