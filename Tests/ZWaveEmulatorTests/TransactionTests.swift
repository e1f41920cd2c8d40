import Foundation
import IntegrationSupport
import LabSupport
import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    /// One transaction at a time, in the real order: RES, callback REQ, then the node's report.
    @Suite struct TransactionTests {
        /// SEND_DATA frame: node, command, txOptions 0x25, callback id.
        func sendData(_ node: UInt8, _ command: [UInt8], callback: UInt8) -> SerialFrame {
            SerialFrame(.request, 0x13, [node, UInt8(command.count)] + command + [0x25, callback])
        }

        func associateLifeline(_ f: EmulatorFixture, node: UInt8) {
            _ = f.host.transact(sendData(node, [0x85, 0x01, 0x01, 0x01], callback: 0x20), collect: 0.1)
        }

        @Test func probeIsAnsweredWithResponseThenCallback() throws {
            let f = try EmulatorFixture()
            f.host.write(bytes("01 09 00 13 02 02 00 00 25 0A CA"))
            #expect(f.host.next() == .ack)
            #expect(f.host.nextFrame()?.encoded == bytes("01 04 01 13 01 E8"))
            let callback = try #require(f.host.nextFrame())
            #expect(Array(callback.encoded.prefix(7)) == bytes("01 07 00 13 0A 00 00"))
            #expect(f.host.nextFrame(timeout: 0.2) == nil)
        }

        @Test func reportFollowsTheCallback() throws {
            let f = try EmulatorFixture()
            let result = f.host.transact(sendData(2, [0x26, 0x02], callback: 0x0B))
            #expect(result.frames.count == 3)
            #expect(result.frames.first == SerialFrame(.response, 0x13, [0x01]))
            #expect(result.frames.dropFirst().first?.payload.prefix(2) == [0x0B, 0x00])
            #expect(result.frames.last == SerialFrame(.request, 0x04, bytes("00 02 03 26 03 00")))
        }

        @Test func setLevelChangesTheDimmerAndReportsOnTheLifeline() throws {
            let f = try EmulatorFixture()
            associateLifeline(f, node: 2)
            let result = f.host.transact(sendData(2, [0x26, 0x01, 0x28], callback: 0x0C))
            #expect(f.emulator.level(node: 2) == 40)
            #expect(result.frames.first == SerialFrame(.response, 0x13, [0x01]))
            #expect(result.frames.dropFirst().first?.payload.prefix(2) == [0x0C, 0x00])
            #expect(result.frames.contains(SerialFrame(.request, 0x04, bytes("00 02 03 26 03 28"))))
            // 60 W at 40/99 = 24.2 W, past the 10 % threshold (parameter 50).
            #expect(
                result.frames.contains(
                    SerialFrame(.request, 0x04, [0x00, 0x02, 0x0A] + MeterReading.report(24.2, scale: .watts))))
        }

        @Test func noLifelineReportsWithoutAnAssociation() throws {
            let f = try EmulatorFixture()
            let result = f.host.transact(sendData(2, [0x26, 0x01, 0x28], callback: 0x0C))
            #expect(f.emulator.level(node: 2) == 40)
            #expect(result.frames.count == 2)
        }

        @Test func multiChannelRepliesAreEncapsulated() throws {
            let f = try EmulatorFixture()
            let result = f.host.transact(sendData(2, bytes("60 0D 01 02 26 02"), callback: 0x0D))
            #expect(result.frames.last == SerialFrame(.request, 0x04, bytes("00 02 07 60 0D 02 01 26 03 00")))
        }

        @Test func powerNodeRealFramingPutsTheSocketInTheDestinationByte() throws {
            let f = try EmulatorFixture()
            let result = f.host.transact(sendData(3, bytes("60 0D 01 04 25 02"), callback: 0x0E))
            #expect(result.frames.last == SerialFrame(.request, 0x04, bytes("00 03 07 60 0D 01 04 25 03 FF")))
        }

        @Test func powerNodeSpecFramingPutsTheSocketInTheSourceByte() throws {
            var network = NetworkDescription.defaultNetwork
            network.nodes[1].realFraming = false
            let f = try EmulatorFixture(network: network)
            let result = f.host.transact(sendData(3, bytes("60 0D 01 04 25 02"), callback: 0x0E))
            #expect(result.frames.last == SerialFrame(.request, 0x04, bytes("00 03 07 60 0D 04 01 25 03 FF")))
            // A load change on socket 4 is reported from endpoint 4.
            f.emulator.setLoad(node: 3, endpoint: 4, watts: 200.5)
            let report = try #require(f.host.nextFrame())
            #expect(
                report
                    == SerialFrame(
                        .request, 0x04,
                        [0x00, 0x03, 0x0E, 0x60, 0x0D, 0x04, 0x00]
                            + MeterReading.report(200.5, scale: .watts)))
        }

        @Test func deadNodeGivesNoAckAndComesBackWithItsNIF() throws {
            let f = try EmulatorFixture()
            f.emulator.setDead(node: 2, true)
            let result = f.host.transact(sendData(2, [0x26, 0x02], callback: 0x0F), collect: 0.5)
            #expect(result.frames.count == 2)
            #expect(result.frames.last?.payload.prefix(2) == [0x0F, 0x01])
            f.emulator.setDead(node: 2, false)
            let nif = try #require(f.host.nextFrame())
            #expect(nif.function == 0x49)
            #expect(nif.payload.prefix(2) == [0x84, 0x02])
        }

        @Test func unsolicitedFramesAreRetransmittedUntilAcked() throws {
            let f = try EmulatorFixture()
            f.host.autoAck = false
            let injected = ContinuousClock.now
            f.emulator.injectReport(from: 2, [0x26, 0x03, 0x11])
            let first = try #require(f.host.nextFrame())
            let second = try #require(f.host.nextFrame(timeout: 60))
            #expect(first == second)
            // Sent again once the ACK timeout (1.6 s from the first transmission, after `injected`) has passed, not
            // sooner; how much later depends on the machine's load and is not judged.
            #expect(ContinuousClock.now - injected >= .milliseconds(1500))
            f.host.write([SerialFrame.ack])
            #expect(f.host.nextFrame(timeout: 2) == nil)
        }

        /// The ACK timeout of one frame must not resend a later frame with the same bytes (two identical S2 scene
        /// clicks): the host ACKs the first at once and leaves the second waiting for its ACK, so the second is
        /// awaiting its ACK, with its own timeout still to come, when the first one's timeout expires.
        @Test func anEarlierFramesTimeoutDoesNotResendALaterIdenticalFrame() async throws {
            let f = try EmulatorFixture()
            f.host.autoAck = false
            let click: [UInt8] = [0x2B, 0x01, 0x1A, 0x00]
            f.emulator.injectReport(from: 2, click)
            let first = try #require(f.host.nextFrame())
            f.host.write([SerialFrame.ack])
            // Queued behind the first: transmitted once the stick has taken the ACK.
            f.emulator.injectReport(from: 2, click)
            let second = try #require(f.host.nextFrame())
            #expect(second == first)
            try await MQTTTestClient.poll(timeout: .seconds(10), "the first click's ACK timeout") {
                !f.emulator.expiredAckTimeouts.isEmpty
            }
            // Two transmissions when it expired: it resent nothing (a resend of the second would make three).
            #expect(f.emulator.expiredAckTimeouts.first == 2, "\(f.emulator.expiredAckTimeouts)")
        }

        @Test func injectedNakAndCanReplaceTheAck() throws {
            let f = try EmulatorFixture()
            f.emulator.nakNextFrame()
            let nak = f.host.transact(SerialFrame(.request, 0x15), collect: 0.2)
            #expect(nak.ack == .nak)
            #expect(nak.frames.isEmpty)
            f.emulator.canNextFrame()
            #expect(f.host.transact(SerialFrame(.request, 0x15), collect: 0.2).ack == .can)
            let normal = f.host.transact(SerialFrame(.request, 0x15), collect: 0.2)
            #expect(normal.ack == .ack)
            #expect(normal.frames.count == 1)
        }

        @Test func badChecksumIsNakedAndSilentModeSaysNothing() throws {
            let f = try EmulatorFixture()
            f.host.write(bytes("01 03 00 15 00"))
            #expect(f.host.next() == .nak)
            f.emulator.silentDuringInit(true)
            #expect(f.host.transact(SerialFrame(.request, 0x15), collect: 0.3).ack == nil)
            f.emulator.startAnswering()
            #expect(f.host.transact(SerialFrame(.request, 0x15), collect: 0.2).frames.count == 1)
            #expect(f.emulator.hostFrameCount == 2)
        }

        @Test func sceneActivationForAnS2Click() throws {
            let f = try EmulatorFixture()
            associateLifeline(f, node: 2)
            #expect(f.emulator.pressButton(node: 2, button: .s2, .single))
            #expect(f.host.nextFrame() == SerialFrame(.request, 0x04, bytes("00 02 04 2B 01 1A 00")))
            #expect(f.emulator.level(node: 2) == 0, "S2 does not change the dimmer")
            #expect(f.emulator.pressButton(node: 2, button: .s1, .single))
            #expect(f.host.nextFrame() == SerialFrame(.request, 0x04, bytes("00 02 04 2B 01 10 00")))
            #expect(f.host.nextFrame() == SerialFrame(.request, 0x04, bytes("00 02 03 26 03 63")))
            #expect(f.emulator.level(node: 2) == 99)
        }

        @Test func holdingS1BrightensUntilReleased() throws {
            let f = try EmulatorFixture()
            associateLifeline(f, node: 2)
            let beforeHold = Date()
            f.emulator.pressButton(node: 2, button: .s1, .hold)
            let afterHold = Date()
            #expect(f.host.nextFrame() == SerialFrame(.request, 0x04, bytes("00 02 04 2B 01 0C 00")))
            Thread.sleep(forTimeInterval: 0.5)  // holding the button (the dimmer measures how long)
            let beforeRelease = Date()
            f.emulator.pressButton(node: 2, button: .s1, .release)
            let afterRelease = Date()
            #expect(f.host.nextFrame() == SerialFrame(.request, 0x04, bytes("00 02 04 2B 01 0D 00")))
            let level = try #require(f.emulator.level(node: 2))
            // 20 steps per second of holding, up from 0 and at most 99: between what the shortest and the longest
            // hold the test can have made (a loaded machine stretches the half second) allow.
            func steps(_ seconds: TimeInterval) -> Int { min(99, max(1, Int(seconds * 20))) }
            let fewest = steps(beforeRelease.timeIntervalSince(afterHold))
            let most = steps(afterRelease.timeIntervalSince(beforeHold))
            #expect(fewest >= 10 && (fewest...most).contains(Int(level)), "level \(level), not \(fewest)...\(most)")
            #expect(f.host.nextFrame() == SerialFrame(.request, 0x04, [0x00, 0x02, 0x03, 0x26, 0x03, level]))
        }

        @Test func noSceneActivationWhenParameter28IsOff() throws {
            let f = try EmulatorFixture()
            associateLifeline(f, node: 2)
            _ = f.host.transact(sendData(2, bytes("70 04 1C 01 00"), callback: 0x21), collect: 0.1)
            #expect(f.emulator.configParameter(node: 2, 28) == 0)
            f.emulator.pressButton(node: 2, button: .s2, .double)
            #expect(f.host.nextFrame(timeout: 0.3) == nil)
            let get = f.host.transact(sendData(2, bytes("70 05 34"), callback: 0x22))
            #expect(get.frames.last == SerialFrame(.request, 0x04, bytes("00 02 06 70 06 34 02 0E 10")))
        }

        @Test func energyAccumulatesFromTheLoad() async throws {
            var network = NetworkDescription.defaultNetwork
            network.timeScale = 3600  // one real second is an emulated hour
            network.nodes[0].level = 99
            network.nodes[0].loads = [100]
            let f = try EmulatorFixture(network: network)
            let deadline = Date().addingTimeInterval(60)
            while (f.emulator.energy(node: 2) ?? 0) < 0.15, Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect((f.emulator.energy(node: 2) ?? 0) >= 0.15)
            let before = f.emulator.energy(node: 2) ?? 0
            let report = f.host.transact(sendData(2, [0x32, 0x01, 0x00], callback: 0x23)).frames.last
            let after = f.emulator.energy(node: 2) ?? 0
            #expect(report?.payload.prefix(7) == [0x00, 0x02, 0x0A, 0x32, 0x02, 0x21, 0x44])
            let hundredths = report.map {
                Int($0.payload[7]) << 24 | Int($0.payload[8]) << 16 | Int($0.payload[9]) << 8 | Int($0.payload[10])
            }
            // The energy when the report was made, in hundredths of a kWh: it grows while the test asks.
            let reported = Double(hundredths ?? 0) / 100
            #expect(reported >= before - 0.01 && reported <= after + 0.01, "\(before) ≤ \(reported) ≤ \(after)")
        }
    }
}
