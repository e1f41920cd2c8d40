import ArgumentParser
import CECEmulator
internal import Dispatch
import FoundationEssentials
internal import Glibc
internal import SystemSupport

/// `thuis-lab emulate cec --link <path> [--tv-vendor sony|philips|samsung|lg|0xNNNNNN] [--trace]`:
/// serves an emulated Pulse-Eight adapter until SIGINT/SIGTERM, then removes the link and exits 0.
struct EmulateCECCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cec", abstract: "An emulated Pulse-Eight USB-CEC adapter.")
    @Option(help: "Path at which to symlink the emulated adapter's device.") var link: String
    @Option(
        help: "The TV's vendor: sony (default, generic handling), philips, samsung, lg, or a hex OUI like 0x080046.")
    var tvVendor: String = "sony"
    @Flag(help: "Print every adapter message and bus frame.") var trace = false

    func run() async throws {
        guard let vendor = Self.vendorID(tvVendor) else {
            throw ValidationError("unknown --tv-vendor \"\(tvVendor)\": use sony, philips, samsung, lg or a hex OUI")
        }
        var configuration = CECEmulatorConfiguration()
        configuration.tvVendorID = vendor
        var printer: (@Sendable (String) -> Void)?
        if trace {
            printer = { (line: String) in Self.say(line) }
        }
        let emulator = CECAdapterEmulator(configuration: configuration, trace: printer)

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let (signals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        do {
            try emulator.start(link: link)
        } catch {
            throw ValidationError("\(error)")
        }
        Self.say("emulated Pulse-Eight CEC adapter at \(link) → \(emulator.devicePath ?? "?")")
        for await _ in signals { break }
        emulator.stop()
        Self.say("stopped")
    }

    /// Writes a line to stdout unbuffered (tests wait for the ready line through a pipe).
    static func say(_ line: String) {
        writeStandardOutput(line + "\n")
    }

    static func vendorID(_ text: String) -> UInt32? {
        switch text.lowercased() {
        case "sony", "generic": return CECEmulatorConfiguration.sonyVendorID
        case "philips": return CECEmulatorConfiguration.philipsVendorID
        case "samsung": return CECEmulatorConfiguration.samsungVendorID
        case "lg": return CECEmulatorConfiguration.lgVendorID
        default:
            let hex = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            guard let value = UInt32(hex, radix: 16), value <= 0xFF_FFFF else { return nil }
            return value
        }
    }
}
