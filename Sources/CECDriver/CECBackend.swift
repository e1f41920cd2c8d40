public import BridgeCore
internal import Foundation
public import Logging

/// The HDMI-CEC side of the bridge: maps `CECEvent`s to `HardwareEvent`s for the TV (power, input) and
/// the audio system (volume, mute), executes commands through `CECDriver`, and polls the TV's power
/// adaptively: every `fastPoll` for `fastPeriod` after a command or a change, every `slowPoll` otherwise,
/// and never for vendors whose TVs wake up when polled.
public actor CECBackend: DeviceBackend {
    public nonisolated let adapter = "cec"
    public nonisolated let events: AsyncStream<HardwareEvent>
    let continuation: AsyncStream<HardwareEvent>.Continuation
    let driver: CECDriver
    let devices: [CECDeviceConfig]
    let rxEvents: Bool
    let logger: Logger
    let fastPoll: Duration
    let slowPoll: Duration
    let fastPeriod: Duration

    var connected = false
    var fastUntil = ContinuousClock.now
    var tvVendor: UInt32?
    var audio: AudioStatus?
    var tvPower: Bool?

    /// TV vendors whose sets switch on when asked for their power status (libcec does not poll them either):
    /// Samsung.
    static let vendorsWakingOnPoll: Set<UInt32> = [0x0000F0]

    public init(
        driver: CECDriver, devices: [CECDeviceConfig], rxEvents: Bool, logger: Logger,
        fastPoll: Duration = .seconds(2), slowPoll: Duration = .seconds(30), fastPeriod: Duration = .seconds(60)
    ) {
        self.driver = driver
        self.devices = devices
        self.rxEvents = rxEvents
        self.logger = logger
        self.fastPoll = fastPoll
        self.slowPoll = slowPoll
        self.fastPeriod = fastPeriod
        (events, continuation) = AsyncStream.makeStream(of: HardwareEvent.self, bufferingPolicy: .bufferingNewest(1024))
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
            continuation.yield(.adapterAvailability(adapter: adapter, online: true, reason: "connected on \(info.port)"))
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
                continuation.yield(.adapterAvailability(adapter: adapter, online: false, reason: "adapter connection lost"))
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
                continuation.yield(.event(BridgeEvent(type: "cec_rx", fields: [("frame", .string(frame.description))])))
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

    /// Polling goes fast for a while after any command or change.
    func markActive() { fastUntil = ContinuousClock.now.advanced(by: fastPeriod) }

    func pollLoop() async {
        while !Task.isCancelled {
            let fast = ContinuousClock.now < fastUntil
            do {
                try await Task.sleep(for: fast ? fastPoll : slowPoll)
            } catch {
                return
            }
            guard connected, !Self.vendorsWakingOnPoll.contains(tvVendor ?? 0) else { continue }
            await pollPower()
        }
    }

    func pollPower() async {
        guard let status = try? await driver.powerStatus(LogicalAddress(0)), let on = status.isOn else { return }
        if tvPower != on { setPower(on) }
    }

    func refresh() async {
        await pollPower()
        try? await driver.requestAudioStatus()
    }

    // MARK: - Commands

    public nonisolated func execute(_ command: DeviceCommand, on device: DeviceDescriptor) async throws(CommandFailure) {
        try await perform(command)
    }

    func perform(_ command: DeviceCommand) async throws(CommandFailure) {
        markActive()
        do {
            switch command {
            case .on:
                try await driver.powerOn(LogicalAddress(0))
            case .off:
                try await driver.standby(LogicalAddress(0))
            case .refresh:
                await refresh()
            case .volume(.up):
                publish(try await driver.volumeUp())
            case .volume(.down):
                publish(try await driver.volumeDown())
            case .volume(.level(let target)):
                try await stepVolume(to: target)
            case .mute(.on):
                publish(try await driver.mute())
            case .mute(.off):
                publish(try await driver.unmute())
            case .mute(.toggle):
                publish(try await driver.toggleMute())
            case .input(_, let address):
                guard let physical = try? PhysicalAddress(parsing: address) else {
                    throw CommandFailure("invalid physical address \(address)")
                }
                try await driver.setInput(physical)
                continuation.yield(.update(tvSource, .input(physical.description)))
            case .toggle, .level:
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

    /// Reaches an absolute volume by stepping with the audio system's feedback; gives up when a step
    /// does not move the volume twice in a row (e.g. no audio system, or it ignores the keys).
    func stepVolume(to target: Int) async throws {
        var current = audio?.volume
        if current == nil { current = try await driver.volumeUp().volume.map { $0 } }
        var stuck = 0
        var steps = 0
        while let volume = current, volume != target, steps < 110, stuck < 2 {
            let status = volume < target ? try await driver.volumeUp() : try await driver.volumeDown()
            publish(status)
            steps += 1
            if status.volume == volume { stuck += 1 } else { stuck = 0 }
            current = status.volume
        }
        guard current == target else {
            throw CommandFailure(
                "volume stopped at \(current.map(String.init) ?? "unknown") instead of \(target) (is an audio system present?)")
        }
    }
}
