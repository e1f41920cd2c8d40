public import BridgeCore
internal import FoundationEssentials
public import Logging
internal import SystemSupport

/// The HDMI-CEC side of the bridge: maps `CECEvent`s to `HardwareEvent`s for the TV (power, input) and
/// the audio system (volume, mute), executes commands through `LibCEC`, and polls the TV's power
/// adaptively: every `fastPoll` for `fastPeriod` after a command or a change, every `slowPoll` otherwise,
/// and never for vendors whose TVs wake up when polled.
public actor CECBackend: DeviceBackend {
    public nonisolated var adapter: Adapter { .cec }
    public nonisolated let events: AsyncStream<HardwareEvent>
    let continuation: AsyncStream<HardwareEvent>.Continuation
    let driver: LibCEC
    let devices: [CECDeviceConfig]
    let rxEvents: Bool
    let logger: Logger
    /// When the TV's power is polled.
    var poll: PollSchedule
    /// How long absolute volume stepping goes on without the volume moving.
    static let volumeStallLimit: Duration = .seconds(8)

    var connected = false
    /// How often the poll loop has run so far (tests read it).
    var pollLoopPasses: Int { poll.passes }
    var tvVendor: UInt32?
    var audio: AudioStatus?
    var tvPower: Bool?
    /// Whether the audio system answered the poll at the last open (volume and mute go through it).
    var audioSystemPresent = false

    /// TV vendors whose sets switch on when asked for their power status (libcec does not poll them either):
    /// Samsung.
    static let vendorsWakingOnPoll: Set<UInt32> = [0x0000F0]

    public init(
        driver: LibCEC, devices: [CECDeviceConfig], rxEvents: Bool, logger: Logger,
        fastPoll: Duration = .seconds(2), slowPoll: Duration = .seconds(30), fastPeriod: Duration = .seconds(60)
    ) {
        self.driver = driver
        self.devices = devices
        self.rxEvents = rxEvents
        self.logger = logger
        poll = PollSchedule(fastPoll: fastPoll, slowPoll: slowPoll, fastPeriod: fastPeriod)
        (events, continuation) = AsyncStream.makeStream(of: HardwareEvent.self, bufferingPolicy: .unbounded)
    }

    /// Maps driver events and polls the TV until cancelled (or the driver's events end).
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in self.driver.events { await self.handle(event) }
            }
            group.addTask { await self.pollLoop() }
            // Whichever ends first (the driver's events finish when it stops) ends the other.
            _ = await group.next()
            group.cancelAll()
        }
        continuation.finish()
    }

    var tvSource: DeviceSource { .cec(logicalAddress: 0) }

    func handle(_ event: CECEvent) async {
        switch event {
        case .connected(let info):
            connected = true
            audioSystemPresent = info.audioSystemPresent
            continuation.yield(
                .adapterAvailability(adapter: adapter, online: true, reason: "connected on \(info.port)"))
            markActive()
            await refresh()
        case .disconnected(let reason, _):
            if connected {
                connected = false
                continuation.yield(.adapterAvailability(adapter: adapter, online: false, reason: reason))
            }
        case .connectionLost:
            if connected {
                connected = false
                continuation.yield(
                    .adapterAvailability(adapter: adapter, online: false, reason: "adapter connection lost"))
            }
        case .powerStatus(let address, let status) where address.rawValue == 0:
            if let on = status.isOn { setPower(on) }
        case .standby(let from) where from.rawValue == 0 || from.rawValue == 15:
            setPower(false)
        case .standby:
            break
        case .activeSource(let address, _), .streamPath(let address, _), .routingInformation(let address):
            continuation.yield(.update(tvSource, .input(address.description)))
            markActive()
        case .routingChange(_, let to):
            continuation.yield(.update(tvSource, .input(to.description)))
            markActive()
        case .audioStatus(let status):
            publish(status)
        case .vendorID(let address, let vendor) where address.rawValue == 0:
            tvVendor = vendor
        case .frame(let frame):
            if rxEvents {
                continuation.yield(.event(.cecReceived(frame: frame.description)))
            }
        default:
            break
        }
    }

    func setPower(_ on: Bool) {
        if tvPower != on { markActive() }
        tvPower = on
        continuation.yield(.update(tvSource, .isOn(on)))
    }

    func publish(_ status: AudioStatus) {
        audio = status
        if let volume = status.volume { continuation.yield(.update(tvSource, .volume(volume))) }
        continuation.yield(.update(tvSource, .muted(status.muted)))
    }

    /// Polling goes fast for a while after any command or change (and the poll loop recomputes when it is due).
    func markActive() {
        poll.markActive()
    }

    /// Polls when due: `fastPoll` after the last poll while in the fast period, `slowPoll` otherwise. It sleeps
    /// until the next poll is due; a command or change (which starts the fast period) wakes it to shorten the wait.
    func pollLoop() async {
        defer { poll.wakeups.finish() }
        var lastPoll = ContinuousClock.now
        for await _ in poll.wakeups.stream {
            poll.passes += 1
            let now = ContinuousClock.now
            let interval = poll.interval(at: now)
            if connected, now - lastPoll >= interval {
                lastPoll = now
                // The audio system reports remote-control changes only to whoever asked last (the TV may ask
                // too), so asking again now and then keeps `volume` and `mute` following its own remote.
                if audioSystemPresent { try? await driver.requestAudioStatus() }
                if !Self.vendorsWakingOnPoll.contains(tvVendor ?? 0) { await pollPower() }
            }
            // While disconnected nothing is polled; the connection's return starts the fast period (a wake-up).
            poll.wakeups.wake(at: connected ? lastPoll + poll.interval(at: ContinuousClock.now) : nil)
        }
    }

    func pollPower() async {
        guard let status = try? await driver.powerStatus(LogicalAddress(0)), let on = status.isOn else { return }
        if tvPower != on { setPower(on) }
    }

    /// Re-reads the TV's power (unless its vendor wakes up when polled) and the audio status.
    func refresh() async {
        if !Self.vendorsWakingOnPoll.contains(tvVendor ?? 0) { await pollPower() }
        if audioSystemPresent { try? await driver.requestAudioStatus() }
    }

    // MARK: - Commands

    public nonisolated func execute(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure)
    {
        try await perform(command)
    }

    func perform(_ command: DeviceCommand) async throws(CommandFailure) {
        markActive()
        do {
            switch command {
            case .on:
                try await driver.powerOn(LogicalAddress(0))
                await confirmPower(true)
            case .off:
                try await driver.standby(LogicalAddress(0))
                await confirmPower(false)
            case .refresh:
                await refresh()
            case .volume, .mute:
                guard audioSystemPresent else {
                    throw CommandFailure("no audio system (logical address 5) answered on the CEC bus")
                }
                try await performAudio(command)
            case .input(_, let address):
                guard let physical = try? PhysicalAddress(parsing: address) else {
                    throw CommandFailure("invalid physical address \(address)")
                }
                try await switchInput(to: physical)
                continuation.yield(.update(tvSource, .input(physical.description)))
            case .toggle, .level, .stop, .setLocked, .setpoint, .mode:
                throw CommandFailure("\(command) is not a TV command")
            }
        } catch let error as CECDriverError {
            throw CommandFailure("\(error)")
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// After on/standby: asks the TV at once, so the state follows the command without waiting for a poll
    /// (a TV in transition reports standby→on, which counts as on). No answer leaves it to the fast polls.
    func confirmPower(_ expected: Bool) async {
        guard !Self.vendorsWakingOnPoll.contains(tvVendor ?? 0) || expected else { return }
        guard let status = try? await driver.powerStatus(LogicalAddress(0)), let on = status.isOn else { return }
        if on == expected || tvPower == nil { setPower(on) }
    }

    /// Asks the TV to show `address` with a broadcast Set Stream Path (`<own>F:86:<pa>`); the device there
    /// answers Active Source. No Active Source of our own first (as pyCEC sends): libcec
    /// takes an Active Source sent from its logical address as its own activation and, moments later,
    /// broadcasts Image View On and Active Source with its own physical address, pulling the TV back.
    func switchInput(to address: PhysicalAddress) async throws {
        let pa = [UInt8(address.rawValue >> 8), UInt8(address.rawValue & 0xFF)]
        try await driver.transmit(
            CECFrame(initiator: .broadcast, destination: .broadcast, opcode: 0x86, parameters: pa))
    }

    /// Sends a volume or mute key. What libcec returns for it is its cached status, which is older than the
    /// audio system's when the report is late (a busy bus or host): it is not published. Only the audio system's
    /// own Report Audio Status (`.audioStatus`, from a received frame: the answer to the key or to libcec's request
    /// after it) sets `volume` and `mute`.
    func performAudio(_ command: DeviceCommand) async throws {
        switch command {
        case .volume(.up): _ = try await driver.volumeUp()
        case .volume(.down): _ = try await driver.volumeDown()
        case .volume(.level(let target)): try await stepVolume(to: target)
        case .mute(.on): _ = try await driver.mute()
        case .mute(.off): _ = try await driver.unmute()
        case .mute(.toggle): _ = try await driver.toggleMute()
        default: break
        }
    }

    /// Reaches an absolute volume by stepping with the audio system's reports: a step whose report has not
    /// arrived when libcec returns asks for the status again before the next. It gives up when the volume has not
    /// moved for `volumeStallLimit` (no audio system, or it ignores the keys) or after 150 steps.
    func stepVolume(to target: Int) async throws {
        var steps = 0
        if audio?.volume == nil { await refreshAudioStatus(unlessChangedFrom: nil) }
        var lastVolume = audio?.volume
        var lastProgress = ContinuousClock.now
        while let volume = audio?.volume, volume != target, steps < 150,
            ContinuousClock.now - lastProgress < Self.volumeStallLimit
        {
            _ = volume < target ? try await driver.volumeUp() : try await driver.volumeDown()
            steps += 1
            if audio?.volume == volume { await refreshAudioStatus(unlessChangedFrom: volume) }
            if audio?.volume != lastVolume {
                lastVolume = audio?.volume
                lastProgress = ContinuousClock.now
            }
        }
        guard let reached = audio?.volume, reached == target else {
            throw CommandFailure(
                "volume stopped at \(audio?.volume.map(String.init) ?? "unknown") instead of \(target) "
                    + "(is an audio system present?)")
        }
    }

    /// Asks the audio system for its status and waits up to a second for a report that differs from `volume`.
    func refreshAudioStatus(unlessChangedFrom volume: Int?) async {
        try? await driver.requestAudioStatus()
        let deadline = ContinuousClock.now.advanced(by: .seconds(1))
        while audio?.volume == volume, ContinuousClock.now < deadline {
            do { try await Task.sleep(for: .milliseconds(20)) } catch { return }
        }
    }
}
