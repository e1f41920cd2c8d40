import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import Logging
import MQTTDriver
import TestSupport

/// A real mosquitto, the emulated Pulse-Eight adapter with its bus (TV, audio system, Apple TV at 1.0.0.0)
/// in the test process, and the real `thuis-bridge run` process (real libcec) mapping the TV as
/// `living/tv`, plus a subscriber on everything under `Thuis/`.
final class CECHouse: Sendable {
    let broker: MosquittoBroker
    let emulator: CECAdapterEmulator
    let watcher: MQTTTestClient
    let directory: TemporaryDirectory
    let bridge: ChildProcess
    let bridgeName: String
    let link: String

    static let tv = "living/tv"
    /// The TV's devices.toml stanza: logical address 0 as `living/tv`, with two inputs.
    static let tvDevice = ConfigFixture.CECDevice(
        address: 0, room: "living", name: "tv", inputs: ["appletv": "1.0.0.0", "receiver": "2.0.0.0"])

    init(name: String, rxEvents: Bool = false, configure: (inout CECEmulatorConfiguration) -> Void = { _ in })
        async throws
    {
        bridgeName = name
        broker = try await MosquittoBroker.start()
        directory = try TemporaryDirectory(prefix: "thuis-cec")
        var configuration = CECEmulatorConfiguration()
        configure(&configuration)
        emulator = CECAdapterEmulator(configuration: configuration)
        link = directory.file("cec")
        try emulator.start(link: link)
        let fixture = ConfigFixture(
            name: name, logLevel: .debug, mqtt: .local(port: broker.port),
            cec: .init(
                port: link, osdName: "Thuis", rxEvents: rxEvents,
                devices: [Self.tvDevice]))
        let config = try directory.write("devices.toml", fixture.text)
        watcher = try await MQTTTestClient.connect(port: broker.port)
        try await watcher.subscribe("Thuis/#")
        bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path,
            arguments: ["run", "--config", config], workingDirectory: directory.path)
    }

    func topic(_ suffix: String = "") -> String { "Thuis/device/\(Self.tv)\(suffix)" }

    /// Waits for `text` on a TV topic, among messages after `from`.
    func waitFor(_ suffix: String, _ text: String, from: Int = 0, timeout: Duration = .seconds(20)) async throws {
        _ = try await watcher.waitForMessage(topic: topic(suffix), text: text, from: from, timeout: timeout)
    }

    /// Publishes a command on a TV topic (`/set`, `/volume/set`, ...).
    func send(_ suffix: String, _ payload: String) async throws {
        try await watcher.publish(topic: topic(suffix), text: payload)
    }

    var mark: Int { get async { await watcher.received.count } }

    var eventTopic: String { "Thuis/bridge/\(bridgeName)/event" }

    /// The bridge events received after `from`, decoded.
    func events(from: Int = 0) async -> [JSONMessage] { await watcher.receivedJSON(on: eventTopic, from: from) }

    /// Waits for a bridge event of `type` after `from` whose decoded fields satisfy `predicate`.
    @discardableResult
    func waitForEvent(
        _ type: String, from: Int = 0, timeout: Duration = .seconds(20),
        where predicate: @Sendable (JSONMessage) -> Bool = { _ in true }
    ) async throws -> JSONMessage {
        try await watcher.waitForEvent(type, topic: eventTopic, from: from, timeout: timeout, where: predicate)
    }

    /// Waits until the bridge has the adapter open and the TV's state published.
    func waitUntilReady() async throws {
        try await waitFor("/availability", "online", timeout: .seconds(30))
        _ = try await watcher.waitForMessage(topic: topic(), from: 0, timeout: .seconds(20)) { $0.text != "unknown" }
    }

    /// Waits until the emulator's state satisfies `condition`.
    func waitForEmulator(
        _ what: String, timeout: Duration = .seconds(20),
        _ condition: @escaping @Sendable (CECEmulatorState) -> Bool
    ) async throws {
        try await MQTTTestClient.poll(timeout: timeout, what) { condition(emulator.state) }
    }

    func stop() async -> ChildProcess.Termination? {
        let termination = await bridge.stop(timeout: .seconds(10))
        emulator.stop()
        await watcher.close()
        await broker.stop()
        return termination
    }

    /// Runs `body` with a started house, printing the bridge's output when it fails, stopping everything after.
    static func with(
        name: String, rxEvents: Bool = false, configure: (inout CECEmulatorConfiguration) -> Void = { _ in },
        _ body: (CECHouse) async throws -> Void
    ) async throws {
        let house = try await CECHouse(name: name, rxEvents: rxEvents, configure: configure)
        do {
            try await body(house)
        } catch {
            _ = await house.stop()
            print("bridge output:\n\(house.bridge.outputText.suffix(20_000))")
            let frames = house.emulator.transmittedFrames.suffix(80).map { "\($0.index): \($0)" }
            print("frames the bridge transmitted (last 80):\n\(frames.joined(separator: "\n"))")
            print("emulator state: \(house.emulator.state)")
            throw error
        }
        _ = await house.stop()
    }
}

/// A pty at a link that nobody answers: libcec's open on it blocks for half a minute (it retries its ping
/// and reads settings with 1 s timeouts) before it reports success anyway.
final class SilentAdapter: Sendable {
    let master: Int32
    let link: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(link: String) throws {
        // posix_openpt/unlockpt/ptsname are not visible to Swift's Glibc module: open the multiplexer,
        // unlock (TIOCSPTLCK), read the number (TIOCGPTN).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard master >= 0 else { throw Failure(description: "open /dev/ptmx failed: errno \(errno)") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            close(master)
            throw Failure(description: "ioctl TIOCSPTLCK/TIOCGPTN failed: errno \(errno)")
        }
        self.link = link
        unlink(link)
        guard symlink("/dev/pts/\(number)", link) == 0 else {
            close(master)
            throw Failure(description: "symlink \(link) failed: errno \(errno)")
        }
    }

    /// Waits until the host wrote something (libcec's first ping), draining what it wrote.
    func waitForHostBytes(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: TestTime.scaled(timeout))
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 0) > 0, descriptor.revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 256)
                if read(master, &buffer, buffer.count) > 0 { return true }
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func remove() {
        unlink(link)
        close(master)
    }
}
