import CECEmulator
import Foundation
import IntegrationSupport
import LabSupport
import SystemSupport
import TestSupport
import Testing

@Suite("CEC emulator on a pty", .endToEnd)
struct CECEmulatorTests {
    /// Starts an emulator on a temporary link and opens the host side.
    func withEmulator(
        _ configure: (inout CECEmulatorConfiguration) -> Void = { _ in },
        _ body: (CECAdapterEmulator, HostPort, String) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory(prefix: "cec-emu")
        let link = directory.file("cec")
        var configuration = CECEmulatorConfiguration()
        configure(&configuration)
        let emulator = CECAdapterEmulator(configuration: configuration)
        try emulator.start(link: link)
        defer { emulator.stop() }
        let host = try HostPort(path: link)
        try await body(emulator, host, link)
    }

    @Test("handshake: PING, FIRMWARE_VERSION, SET_CONTROLLED, GET_BUILDDATE, GET_ADAPTER_TYPE")
    func handshake() async throws {
        try await withEmulator { emulator, host, _ in
            host.send([
                AdapterMessage(.ping), AdapterMessage(.firmwareVersion), AdapterMessage(.setControlled, [1]),
                AdapterMessage(.getBuildDate), AdapterMessage(.getAdapterType),
            ])
            let replies = host.receive(5)
            try #require(replies.count == 5)
            #expect(replies[0] == AdapterMessage(.commandAccepted, [AdapterCode.ping.rawValue]))
            #expect(replies[1] == AdapterMessage(.firmwareVersion, [0x00, 0x0C]))
            #expect(replies[2] == AdapterMessage(.commandAccepted, [AdapterCode.setControlled.rawValue]))
            #expect(replies[3] == AdapterMessage(.getBuildDate, [0x5E, 0x1B, 0x2C, 0x3D]))
            #expect(replies[4] == AdapterMessage(.getAdapterType, [1]))
            #expect(emulator.state.controlled)
        }
    }

    @Test("settings: SET_* + WRITE_EEPROM are stored and GET_* return them; SET_ACK_MASK is accepted")
    func settings() async throws {
        try await withEmulator { emulator, host, _ in
            host.send([
                AdapterMessage(.setOSDName, Array("Thuis".utf8)), AdapterMessage(.setPhysicalAddress, [0x30, 0x00]),
                AdapterMessage(.writeEEPROM), AdapterMessage(.getOSDName), AdapterMessage(.getPhysicalAddress),
                AdapterMessage(.setAckMask, [0x00, 0x02]), AdapterMessage(.getAutoPowerOn),
            ])
            let replies = host.receive(7)
            try #require(replies.count == 7)
            #expect(replies[0] == AdapterMessage(.commandAccepted, [AdapterCode.setOSDName.rawValue]))
            #expect(replies[2] == AdapterMessage(.commandAccepted, [AdapterCode.writeEEPROM.rawValue]))
            #expect(replies[3] == AdapterMessage(.getOSDName, Array("Thuis".utf8)))
            #expect(replies[4] == AdapterMessage(.getPhysicalAddress, [0x30, 0x00]))
            #expect(replies[5] == AdapterMessage(.commandAccepted, [AdapterCode.setAckMask.rawValue]))
            #expect(replies[6] == AdapterMessage(.getAutoPowerOn, [0]))
            #expect(emulator.state.ackMask == 0x0002)
        }
    }

    @Test("transmit: one ACCEPTED per packet, SUCCEEDED for present devices, FAILED_ACK for absent ones")
    func transmitResults() async throws {
        try await withEmulator { _, host, _ in
            // Poll TV (present), poll LA 3 (absent), poll LA 1 from 1 (address allocation).
            for (header, result) in [
                (UInt8(0x10), AdapterCode.transmitSucceeded), (0x13, .transmitFailedAck), (0x11, .transmitFailedAck),
            ] {
                host.send([AdapterMessage(.transmitAckPolarity, [0]), AdapterMessage(.transmitEOM, [header])])
                let replies = host.receive(3)
                #expect(
                    replies == [
                        AdapterMessage(.commandAccepted, [0x0E]), AdapterMessage(.commandAccepted, [0x0C]),
                        AdapterMessage(result),
                    ])
            }
        }
    }

    @Test("Give Device Power Status is answered with FRAME_START/FRAME_DATA and EOM")
    func powerStatusReply() async throws {
        try await withEmulator { _, host, _ in
            host.send([
                AdapterMessage(.transmitAckPolarity, [0]), AdapterMessage(.transmit, [0x10]),
                AdapterMessage(.transmitEOM, [0x8F]),
            ])
            let replies = host.receive(7)
            #expect(
                replies == [
                    AdapterMessage(.commandAccepted, [0x0E]), AdapterMessage(.commandAccepted, [0x0B]),
                    AdapterMessage(.commandAccepted, [0x0C]), AdapterMessage(.transmitSucceeded),
                    AdapterMessage(.frameStart, [0x01]), AdapterMessage(.frameData, [0x90]),
                    AdapterMessage(.frameData, [0x01], flags: AdapterCode.eomFlag),
                ])
        }
    }

    @Test("TV wakes on Image View On, sleeps on Standby; the host's frames are recorded")
    func tvPower() async throws {
        try await withEmulator { emulator, host, _ in
            #expect(!emulator.state.tvPoweredOn)
            let mark = emulator.transmittedCount
            host.send([
                AdapterMessage(.transmitAckPolarity, [0]), AdapterMessage(.transmit, [0x10]),
                AdapterMessage(.transmitEOM, [0x04]),
            ])
            let seen = await emulator.waitForTransmitted(since: mark, timeout: .seconds(3)) { $0.opcode == 0x04 }
            #expect(seen?.frame.description == "10:04")
            #expect(emulator.state.tvPoweredOn)
            host.send([
                AdapterMessage(.transmitAckPolarity, [0]), AdapterMessage(.transmit, [0x10]),
                AdapterMessage(.transmitEOM, [0x36]),
            ])
            _ = host.receive(7)
            #expect(!emulator.state.tvPoweredOn)
            let none = await emulator.waitForTransmitted(since: emulator.transmittedCount, timeout: .milliseconds(100))
            { _ in true }
            #expect(none == nil)
        }
    }

    @Test(
        "TV remote off broadcasts Standby; input switch broadcasts Routing Change and the device answers Active Source")
    func tvRemote() async throws {
        try await withEmulator({ $0.tvPoweredOn = true }) { emulator, host, _ in
            emulator.tvRemotePower(on: false)
            #expect(
                host.receive(2) == [
                    AdapterMessage(.frameStart, [0x0F]),
                    AdapterMessage(.frameData, [0x36], flags: AdapterCode.eomFlag),
                ])
            #expect(!emulator.state.tvPoweredOn)
            emulator.tvRemoteSelectInput(0x1000)
            let frames = host.receive(10)
            #expect(
                frames.map(\.payload) == [
                    [0x0F], [0x80], [0x00], [0x00], [0x10], [0x00], [0x4F], [0x82], [0x10], [0x00],
                ])
            #expect(emulator.state.tvInput == 0x1000)
        }
    }

    @Test("audio system steps volume on the keys and answers Give Audio Status; mute toggles")
    func audioSystem() async throws {
        try await withEmulator({ $0.volume = 30 }) { emulator, host, _ in
            func tx(_ bytes: [UInt8]) {
                var messages = [AdapterMessage(.transmitAckPolarity, [0])]
                for (i, b) in bytes.enumerated() {
                    messages.append(AdapterMessage(i == bytes.count - 1 ? .transmitEOM : .transmit, [b]))
                }
                host.send(messages)
            }
            tx([0x15, 0x44, 0x41])
            let up = host.receive(8)
            #expect(up.suffix(3).map(\.payload) == [[0x51], [0x7A], [31]])
            tx([0x15, 0x44, 0x43])
            let mute = host.receive(8)
            #expect(mute.last?.payload == [0x80 | 31])
            #expect(emulator.state.volume == 31 && emulator.state.muted)
            tx([0x15, 0x71])
            let status = host.receive(7)
            #expect(status.last?.payload == [0x80 | 31])
            emulator.avrRemoteSetVolume(150)
            #expect(host.receive(3).last?.payload == [0x80 | 100])
        }
    }

    @Test("unknown directed opcodes get Feature Abort")
    func featureAbort() async throws {
        try await withEmulator { _, host, _ in
            host.send([
                AdapterMessage(.transmitAckPolarity, [0]), AdapterMessage(.transmit, [0x14]),
                AdapterMessage(.transmitEOM, [0x99]),
            ])
            let replies = host.receive(8)
            #expect(replies.suffix(4).map(\.payload) == [[0x41], [0x00], [0x99], [0x00]])
        }
    }

    @Test("a bogus byte stream does not crash and the adapter keeps answering")
    func bogusStream() async throws {
        try await withEmulator { emulator, host, _ in
            var generator = SeededRandom(seed: 0xCEC0_0002)
            for _ in 0..<100 {
                host.sendRaw(
                    (0..<Int.random(in: 1...64, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    })
            }
            host.sendRaw([0xFE, 0xFE, 0xFF, 0xFE])
            _ = host.receive(1000, timeout: .milliseconds(500))
            host.send([AdapterMessage(.firmwareVersion)])
            #expect(host.receive(1).first == AdapterMessage(.firmwareVersion, [0x00, 0x0C]))
            emulator.injectSerialBytes([0xFF, 0xFD, 0xFF, 0x86])
        }
    }

    @Test("unplug removes the link; replug brings it back with the bus state kept")
    func unplugReplug() async throws {
        try await withEmulator({ $0.volume = 42 }) { emulator, _, link in
            emulator.unplug()
            #expect(!FileManager.default.fileExists(atPath: link))
            #expect(!emulator.state.pluggedIn)
            try emulator.replug()
            #expect(FileManager.default.fileExists(atPath: link))
            let host = try HostPort(path: link)
            host.send([AdapterMessage(.ping)])
            #expect(host.receive(1).first == AdapterMessage(.commandAccepted, [0x01]))
            #expect(emulator.state.volume == 42)
        }
    }
}

extension CECEmulatorTests {
    @Test("an absent audio system does not acknowledge polls")
    func absentDevice() async throws {
        try await withEmulator { emulator, host, _ in
            emulator.setDevicePresent(logicalAddress: 5, false)
            host.send([AdapterMessage(.transmitAckPolarity, [0]), AdapterMessage(.transmitEOM, [0x15])])
            #expect(host.receive(3).last == AdapterMessage(.transmitFailedAck))
            emulator.setDevicePresent(logicalAddress: 5, true)
            host.send([AdapterMessage(.transmitAckPolarity, [0]), AdapterMessage(.transmitEOM, [0x15])])
            #expect(host.receive(3).last == AdapterMessage(.transmitSucceeded))
        }
    }
}

extension CECEmulatorTests {
    /// Runs `body` on a thread of its own and reports whether it returned within `limit` (a body that blocks for
    /// ever leaves its thread behind).
    func returns(within limit: Duration, _ body: @escaping @Sendable () -> Void) async -> Bool {
        (try? await finishing(within: limit) { await onThread(body) }) != nil
    }

    /// A stall of the emulator: it wrote to the host while holding the lock of its state, and a write waited for
    /// as long as the host did not read. A host that stops reading (libcec between a close and its next open, a
    /// test's host port) then froze every call that reads the state (`state`, the waits for frames, the pty
    /// reader's next answer) and `unplug()`, until the host read again. Now the state is never held during a
    /// write, and a write gives up after `PseudoTerminal.writeStallLimit` without progress (the rest is dropped,
    /// as a USB adapter's buffer overflows).
    @Test("a host that does not read never freezes the emulator's state, its writers or its unplug")
    func aHostThatDoesNotReadDoesNotFreezeTheEmulator() async throws {
        try await withEmulator { emulator, host, _ in
            // More than the pty holds, to a host that does not read: the write is in progress as soon as the host
            // has data, and cannot finish.
            let flood = [UInt8](repeating: 0x00, count: 1 << 20)
            let injected = Task { await returns(within: .seconds(30)) { emulator.injectSerialBytes(flood) } }
            var pfd = pollfd(fd: host.fd, events: Int16(POLLIN), revents: 0)
            try #require(poll(&pfd, 1, 10_000) == 1, "the host never got the first bytes")
            #expect(await returns(within: .seconds(10)) { _ = emulator.state }, "state blocked behind the write")
            #expect(await injected.value, "the write to a host that does not read never gave up")
            // The host reads again: the adapter answers.
            _ = host.receive(100_000, timeout: .milliseconds(300))
            host.send([AdapterMessage(.firmwareVersion)])
            #expect(host.receive(1).first == AdapterMessage(.firmwareVersion, [0x00, 0x0C]))
            #expect(await returns(within: .seconds(10)) { emulator.unplug() }, "unplug blocked")
        }
    }
}
