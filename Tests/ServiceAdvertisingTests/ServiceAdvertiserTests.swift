import Foundation
import IntegrationSupport
import LabSupport
import ServiceAdvertising
import TestSupport
import Testing

/// `ServiceAdvertiser` against a real avahi-daemon (the machine's, or one `AvahiDaemon` starts), checked with
/// `avahi-browse`, the way an iPhone or aiohomekit finds the bridge.
@Suite(.endToEnd) struct ServiceAdvertiserTests {
    static let txt: [(String, String)] = [
        ("c#", "1"), ("ff", "0"), ("id", "12:34:56:78:9A:BC"), ("md", "Thuis"), ("pv", "1.1"), ("s#", "1"),
        ("sf", "1"), ("ci", "2"),
    ]

    /// A name no other test (or earlier run) uses.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The resolved service `name` as avahi-browse shows it on `lo`, once `condition` holds for it.
    static func browsed(
        _ name: String, timeout: Duration = .seconds(30),
        until condition: @escaping @Sendable (AvahiDaemon.BrowsedService?) -> Bool
    ) async throws -> AvahiDaemon.BrowsedService? {
        var found: AvahiDaemon.BrowsedService?
        try await MQTTTestClient.poll(timeout: timeout, "avahi-browse to show \(name) as expected") {
            found = (try? await AvahiDaemon.browse("_hap._tcp"))?.first { $0.name == name && $0.interface == "lo" }
            return condition(found)
        }
        return found
    }

    @Test func publishesTheServiceWithItsTXTRecordsAndUpdatesThem() async throws {
        try await AvahiDaemon.shared.start()
        let logs = LogCapture()
        let name = Self.uniqueName("ThuisTest")
        let port = UInt16(try FreePort.next())
        let advertiser = ServiceAdvertiser(
            name: name, type: "_hap._tcp", port: port, txt: Self.txt, logger: logs.logger())
        advertiser.start()
        defer { advertiser.stop() }

        let service = try await Self.browsed(name) { $0 != nil }
        #expect(service?.port == Int(port))
        #expect(service?.address == "127.0.0.1")
        for (key, value) in Self.txt { #expect(service?.value(key) == value, "TXT \(key) in \(service?.txt ?? [])") }
        #expect(advertiser.publishedName == name)
        #expect(logs.lines.contains { $0.contains("Service advertised") && $0.contains(name) }, "\(logs.lines)")

        // Paired (sf 0) and the accessories changed (c# 2): the same service, new records.
        var updated = Self.txt
        updated[0] = ("c#", "2")
        updated[6] = ("sf", "0")
        advertiser.update(txt: updated)
        let changed = try await Self.browsed(name) { $0?.value("sf") == "0" && $0?.value("c#") == "2" }
        #expect(changed?.port == Int(port))
        #expect(changed?.value("id") == "12:34:56:78:9A:BC")

        advertiser.stop()
        _ = try await Self.browsed(name) { $0 == nil }
        #expect(advertiser.publishedName == nil)
    }

    /// A second service with a taken name is published under avahi's alternative, logged.
    @Test func aTakenNameIsReplacedByAvahisAlternative() async throws {
        try await AvahiDaemon.shared.start()
        let logs = LogCapture()
        let name = Self.uniqueName("ThuisTaken")
        let first = ServiceAdvertiser(
            name: name, type: "_hap._tcp", port: UInt16(try FreePort.next()), txt: Self.txt, logger: logs.logger())
        first.start()
        defer { first.stop() }
        _ = try await Self.browsed(name) { $0 != nil }

        let secondPort = try FreePort.next()
        let second = ServiceAdvertiser(
            name: name, type: "_hap._tcp", port: UInt16(secondPort), txt: Self.txt, logger: logs.logger())
        second.start()
        defer { second.stop() }
        let renamed = try await Self.browsed("\(name) #2") { $0 != nil }
        #expect(renamed?.port == secondPort)
        #expect(second.publishedName == "\(name) #2")
        #expect(
            logs.lines.contains { $0.contains("name is taken") && $0.contains("service=\(name) #2") }, "\(logs.lines)")
    }
}

/// The daemon missing at start and stopping while the service is published: the advertiser says why the service
/// cannot be found, keeps going, and publishes again when the daemon is back. Holds every slot: the daemon stops.
@Suite(.endToEnd(exclusive: true), .serialized) struct ServiceAdvertiserDaemonTests {
    @Test func aDaemonThatStartsLaterOrRestartsFindsTheService() async throws {
        try await AvahiDaemon.shared.start()
        try #require(
            await AvahiDaemon.shared.canStop, "this machine runs its own avahi-daemon, which tests never stop")
        try await AvahiDaemon.shared.stop()

        let logs = LogCapture()
        let name = ServiceAdvertiserTests.uniqueName("ThuisLater")
        let advertiser = ServiceAdvertiser(
            name: name, type: "_hap._tcp", port: UInt16(try FreePort.next()), txt: ServiceAdvertiserTests.txt,
            logger: logs.logger())
        // start() returns at once without a daemon; the log says why the service cannot be found.
        let started: Void? = try await finishing(within: .seconds(30)) { advertiser.start() }
        #expect(started != nil, "start() blocked without avahi-daemon")
        defer { advertiser.stop() }
        try await MQTTTestClient.poll(timeout: .seconds(30), "the log to say the daemon is missing") {
            logs.lines.contains { $0.contains("avahi-daemon is not running") }
        }
        #expect(logs.lines.filter { $0.contains("avahi-daemon is not running") }.count == 1, "\(logs.lines)")
        #expect(advertiser.publishedName == nil)

        try await AvahiDaemon.shared.start()
        _ = try await ServiceAdvertiserTests.browsed(name) { $0 != nil }

        // The daemon stops while the service is published: logged, no crash; back with the daemon.
        try await AvahiDaemon.shared.stop()
        try await MQTTTestClient.poll(timeout: .seconds(30), "the log to say the daemon stopped") {
            logs.lines.contains { $0.contains("avahi-daemon stopped") }
        }
        #expect(advertiser.publishedName == nil)
        try await AvahiDaemon.shared.start()
        _ = try await ServiceAdvertiserTests.browsed(name) { $0 != nil }
        #expect(advertiser.publishedName == name)
        let stopped: Void? = try await finishing(within: .seconds(30)) { advertiser.stop() }
        #expect(stopped != nil, "stop() hung")
    }
}
