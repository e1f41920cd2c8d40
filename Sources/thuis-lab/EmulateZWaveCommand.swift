import ArgumentParser
import Dispatch
import FoundationEssentials
internal import Glibc
import Logging
internal import SerialPTY
internal import Synchronization
internal import SystemSupport
import ZWaveEmulator

#if canImport(Glibc)
    import Glibc
#endif

/// `thuis-lab emulate zwave --link <path> [--network <file|house|default|large|sensors>] [--latency ms] [--trace]`:
/// serves an emulated Z-Wave Serial API stick on a pty until SIGINT/SIGTERM. A control FIFO at
/// `<link>.ctl` accepts lines such as `press 2 s2 single`, `load 3 4 120.5`, `dead 2 on`, `unplug`.
struct EmulateZWaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zwave", abstract: "An emulated Z-Wave Serial API stick.",
        discussion: """
            Control lines (write to <link>.ctl): press <node> s1|s2 single|double|triple|hold|release, \
            load <node> <endpoint> <watts>, toggle <node> [endpoint], dead <node> on|off, \
            loss <node> <percent> [seed], join <node>, \
            nak, can, unplug, replug, latency <ms>, raw <hex…>, report <node> <hex…>, state <node> [endpoint], \
            move <node> <neighbour…> (what it hears on the radio; 1 = the stick); for the battery and sensor \
            kinds: motion <node> on|off, door <node> open|close, tamper <node>, \
            button <node> <1-4> 1x…5x|held|released, button <node> again (a retransmission), battery <node> <0-100>, \
            temperature <node> <°C>, sensor <node> temperature|humidity|luminance|uv <value>, wake <node>, \
            lock <node> lock|unlock|jam.
            """)

    @Option(help: "Path at which to symlink the emulated stick's device.") var link: String
    @Option(help: "Network description: a TOML file, or the presets 'default', 'house', 'large' or 'sensors'.")
    var network: String?
    @Option(help: "Emulated radio latency per transaction, in milliseconds (realistic: 30).") var latency: Int = 5
    @Flag(help: "Log every frame, decoded.") var trace = false

    func run() async throws {
        var logger = Logger(label: "thuis-bridge.emulate.zwave")
        logger.logLevel = trace ? .trace : .info
        let description: NetworkDescription
        do {
            description = try NetworkDescription.load(network ?? "default")
        } catch {
            logger.error("\(error.description)")
            throw ExitCode(2)
        }
        guard latency >= 0 else { throw ValidationError("--latency must be >= 0") }
        let log = logger
        let traceSink: (@Sendable (EmulatorTrace) -> Void)? = { entry in
            log.trace("\(entry.description)")
        }
        let emulator = ZWaveStickEmulator(
            network: description, radioLatency: .milliseconds(latency),
            trace: trace ? traceSink : nil)
        do {
            try emulator.start(link: link)
        } catch {
            logger.error("cannot open the emulated stick at \(link): \(error.description)")
            throw ExitCode(1)
        }
        let control: EmulatorControlChannel?
        do {
            control = try EmulatorControlChannel(path: link + ".ctl", emulator: emulator) { line, result in
                log.info("control: \(line) -> \(result)")
            }
        } catch {
            logger.warning("no control channel: \(error.description)")
            control = nil
        }
        let nodes = description.nodes.map { "\($0.id):\($0.kind.rawValue)" }.joined(separator: " ")
        let homeID = String(description.homeID, radix: 16, uppercase: true)
        let banner =
            "emulated Z-Wave stick on \(emulator.devicePath ?? "?") linked at \(link); home id "
            + "0x" + String(repeating: "0", count: max(0, 8 - homeID.count)) + homeID + "; nodes \(nodes)\n"
        writeStandardOutput(banner)

        await Self.waitForTermination()

        control?.close()
        emulator.stop()
        logger.info("stopped after \(emulator.hostFrameCount) host frames")
    }

    /// Suspends until SIGINT or SIGTERM.
    static func waitForTermination() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "emulate-zwave-signals")
        let once = ResumeOnce()
        var sources: [any DispatchSourceSignal] = []
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for sig in [SIGINT, SIGTERM] {
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler {
                    if once.claim() { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
        }
        withExtendedLifetime(sources) {}  // the sources live until a signal came
    }
}

/// Makes sure a continuation is resumed once.
private final class ResumeOnce: Sendable {
    private let claimed = Mutex(false)

    /// True for the first caller only.
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
