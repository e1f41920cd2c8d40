import Foundation
import Testing
import ZWaveEmulator

extension EmulatorSerialSuite {
    /// The battery and sensor kinds of the `sensors` preset, frame by frame over the serial link: the reports they
    /// send for their Gets, their unsolicited reports for each control line, and the sleep cycle.
    @Suite struct SensorNodeTests {
        /// What one SEND_DATA led to: the callback's transmit status and the commands the node sent back.
        struct Exchange {
            var status: UInt8?
            var commands: [[UInt8]]
        }

        /// Sends `command` to `node` and reads until the callback and `replies` commands from the node arrived
        /// (or 5 s passed).
        func exchange(_ f: EmulatorFixture, _ node: UInt8, _ command: [UInt8], replies: Int = 1) -> Exchange {
            f.host.send(SerialFrame(.request, 0x13, [node, UInt8(command.count)] + command + [0x25, 0x42]))
            var result = Exchange(status: nil, commands: [])
            let deadline = Date().addingTimeInterval(5)
            while result.status == nil || result.commands.count < replies, deadline.timeIntervalSinceNow > 0 {
                guard let frame = f.host.nextFrame(timeout: deadline.timeIntervalSinceNow) else { break }
                if frame.kind == .request, frame.function == 0x13, frame.payload.first == 0x42 {
                    result.status = frame.payload.dropFirst().first
                    if result.status != 0x00 { break }
                } else if let c = Self.command(frame, from: node) {
                    result.commands.append(c)
                }
            }
            return result
        }

        /// The next `count` commands `node` sends on its own (or fewer after 5 s).
        func reports(_ f: EmulatorFixture, from node: UInt8, count: Int = 1) -> [[UInt8]] {
            var commands: [[UInt8]] = []
            let deadline = Date().addingTimeInterval(5)
            while commands.count < count, let frame = f.host.nextFrame(timeout: deadline.timeIntervalSinceNow) {
                if let c = Self.command(frame, from: node) { commands.append(c) }
            }
            return commands
        }

        static func command(_ frame: SerialFrame, from node: UInt8) -> [UInt8]? {
            guard frame.kind == .request, frame.function == 0x04, frame.payload.count >= 3, frame.payload[1] == node
            else { return nil }
            return Array(frame.payload.dropFirst(3))
        }

        /// Wakes `node` and checks its Wake Up Notification.
        func wake(_ f: EmulatorFixture, _ node: UInt8) {
            #expect(f.emulator.execute("wake \(node)") == "ok")
            #expect(reports(f, from: node) == [[0x84, 0x07]])
            #expect(f.emulator.isAwake(node: node) == true)
        }

        @Test func aSleepingNodeHearsNothingUntilItWakesAndSleepsOnNoMoreInformation() throws {
            let f = try EmulatorFixture(network: .sensors)
            for node: UInt8 in [2, 3, 6] {
                #expect(f.emulator.isAwake(node: node) == false)
                let asleep = exchange(f, node, [0x80, 0x02])
                #expect(asleep.status == 0x01, "node \(node) should not ACK while asleep")
                #expect(asleep.commands.isEmpty)
                wake(f, node)
                #expect(exchange(f, node, [0x80, 0x02]).status == 0x00)
                #expect(exchange(f, node, [0x84, 0x08], replies: 0).status == 0x00)
                #expect(f.emulator.isAwake(node: node) == false)
                #expect(exchange(f, node, [0x84, 0x05]).status == 0x01)
            }
            // Listening and FLiRS nodes always hear.
            for node: UInt8 in [4, 5, 7] { #expect(f.emulator.isAwake(node: node) == true) }
            #expect(f.emulator.execute("wake 4").hasPrefix("error"))
        }

        @Test func wakeUpAndBatteryCommandsOfASleepingNode() throws {
            let f = try EmulatorFixture(network: .sensors)
            wake(f, 2)
            #expect(exchange(f, 2, [0x80, 0x02]).commands == [[0x80, 0x03, 90]])
            #expect(exchange(f, 2, [0x84, 0x05]).commands == [[0x84, 0x06, 0x00, 0x0E, 0x10, 0x01]])
            #expect(
                exchange(f, 2, [0x84, 0x09]).commands == [
                    [0x84, 0x0A, 0x00, 0x00, 0xF0, 0x28, 0xDE, 0x80, 0x00, 0x0E, 0x10, 0x00, 0x00, 0xF0]
                ])
            #expect(exchange(f, 2, [0x84, 0x04, 0x00, 0x01, 0x2C, 0x01], replies: 0).status == 0x00)
            #expect(exchange(f, 2, [0x84, 0x05]).commands == [[0x84, 0x06, 0x00, 0x01, 0x2C, 0x01]])
            #expect(f.emulator.execute("battery 2 15") == "ok")
            #expect(reports(f, from: 2) == [[0x80, 0x03, 15]])
            #expect(f.emulator.execute("battery 4 15").hasPrefix("error"))
        }

        @Test func multiSensor6ReportsItsSensorsAndMotion() throws {
            let f = try EmulatorFixture(network: .sensors)
            wake(f, 2)
            #expect(exchange(f, 2, [0x72, 0x04]).commands == [[0x72, 0x05, 0x00, 0x86, 0x00, 0x02, 0x00, 0x64]])
            #expect(exchange(f, 2, [0x31, 0x01]).commands == [[0x31, 0x02, 0x15, 0x00, 0x00, 0x04]])
            #expect(exchange(f, 2, [0x31, 0x04, 0x01, 0x00]).commands == [[0x31, 0x05, 0x01, 0x22, 0x00, 0xD7]])
            #expect(exchange(f, 2, [0x31, 0x04, 0x05, 0x00]).commands == [[0x31, 0x05, 0x05, 0x02, 0x00, 45]])
            #expect(exchange(f, 2, [0x31, 0x04, 0x03, 0x08]).commands == [[0x31, 0x05, 0x03, 0x0A, 0x00, 120]])
            #expect(exchange(f, 2, [0x31, 0x04, 0x1B, 0x00]).commands == [[0x31, 0x05, 0x1B, 0x02, 0x00, 1]])
            #expect(exchange(f, 2, [0x71, 0x07]).commands == [[0x71, 0x08, 0x01, 0x80]])
            #expect(exchange(f, 2, [0x71, 0x01, 0x07]).commands == [[0x71, 0x02, 0x07, 0x02, 0x08, 0x01]])
            #expect(exchange(f, 2, [0x30, 0x01]).commands == [[0x30, 0x04, 0x00, 0x10]])
            #expect(exchange(f, 2, [0x30, 0x02]).commands == [[0x30, 0x03, 0x00, 0x0C]])
            #expect(exchange(f, 2, [0x70, 0x05, 0x05]).commands == [[0x70, 0x06, 0x05, 0x01, 0x01]])
            #expect(exchange(f, 2, [0x84, 0x08], replies: 0).status == 0x00)

            // Asleep, it still sends what it senses.
            #expect(f.emulator.execute("motion 2 on") == "ok")
            #expect(reports(f, from: 2) == [[0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x07, 0x08, 0x00]])
            #expect(f.emulator.execute("motion 2 off") == "ok")
            #expect(reports(f, from: 2) == [[0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x07, 0x00, 0x01, 0x08]])
            // Parameter 5 at 2 (Binary Sensor Report): motion is a Sensor Binary Report too.
            wake(f, 2)
            #expect(exchange(f, 2, [0x70, 0x04, 0x05, 0x01, 0x02], replies: 0).status == 0x00)
            #expect(exchange(f, 2, [0x84, 0x08], replies: 0).status == 0x00)
            #expect(f.emulator.execute("motion 2 on") == "ok")
            #expect(
                reports(f, from: 2, count: 2) == [
                    [0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x07, 0x08, 0x00], [0x30, 0x03, 0xFF, 0x0C],
                ])
            #expect(f.emulator.execute("tamper 2") == "ok")
            #expect(reports(f, from: 2) == [[0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x07, 0x03, 0x00]])
            #expect(f.emulator.execute("temperature 2 23.4") == "ok")
            #expect(reports(f, from: 2) == [[0x31, 0x05, 0x01, 0x22, 0x00, 0xEA]])
            #expect(f.emulator.execute("sensor 2 luminance 300") == "ok")
            #expect(reports(f, from: 2) == [[0x31, 0x05, 0x03, 0x0A, 0x01, 0x2C]])
            #expect(f.emulator.execute("motion 3 on").hasPrefix("error"))
        }

        @Test func doorWindowSensorReportsOpenAndClosed() throws {
            let f = try EmulatorFixture(network: .sensors)
            wake(f, 3)
            #expect(exchange(f, 3, [0x72, 0x04]).commands == [[0x72, 0x05, 0x01, 0x0F, 0x07, 0x02, 0x10, 0x00]])
            #expect(exchange(f, 3, [0x71, 0x07]).commands == [[0x71, 0x08, 0x01, 0xC0]])
            #expect(exchange(f, 3, [0x71, 0x01, 0x06]).commands == [[0x71, 0x02, 0x06, 0x03, 0x00, 0x00, 0xC0]])
            #expect(
                exchange(f, 3, [0x71, 0x04, 0x00, 0x06, 0x00]).commands == [
                    [0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x06, 0x17, 0x00]
                ])
            #expect(exchange(f, 3, [0x31, 0x04, 0x01, 0x00]).commands == [[0x31, 0x05, 0x01, 0x22, 0x00, 190]])
            #expect(exchange(f, 3, [0x20, 0x02]).commands == [[0x20, 0x03, 0x00]])
            #expect(exchange(f, 3, [0x86, 0x13, 0x20]).commands == [[0x86, 0x14, 0x20, 0x01]])
            #expect(f.emulator.execute("door 3 open") == "ok")
            #expect(reports(f, from: 3) == [[0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x06, 0x16, 0x00]])
            #expect(exchange(f, 3, [0x20, 0x02]).commands == [[0x20, 0x03, 0xFF]])
            #expect(f.emulator.execute("door 3 close") == "ok")
            #expect(reports(f, from: 3) == [[0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x06, 0x17, 0x00]])
            #expect(f.emulator.execute("temperature 3 -2.5") == "ok")
            #expect(reports(f, from: 3) == [[0x31, 0x05, 0x01, 0x22, 0xFF, 0xE7]])
            #expect(f.emulator.execute("door 2 open").hasPrefix("error"))
        }

        @Test func rollerShutterMovesAndStops() throws {
            let f = try EmulatorFixture(network: .sensors)
            #expect(exchange(f, 4, [0x72, 0x04]).commands == [[0x72, 0x05, 0x01, 0x0F, 0x03, 0x03, 0x10, 0x00]])
            #expect(exchange(f, 4, [0x26, 0x02]).commands == [[0x26, 0x03, 99, 99, 0x00]])
            #expect(exchange(f, 4, [0x26, 0x06]).commands == [[0x26, 0x07, 0x03, 0x00]])
            #expect(exchange(f, 4, [0x32, 0x01, 0x10]).commands == [MeterReading.report(0, scale: .watts)])
            // Start closing: the motor draws its load; Stop: the position and 0 W.
            let start = exchange(f, 4, [0x26, 0x04, 0x60, 0x00], replies: 1)
            #expect(start.commands == [MeterReading.report(120, scale: .watts)])
            let moving = exchange(f, 4, [0x26, 0x02])
            #expect(moving.commands.first?.prefix(2) == [0x26, 0x03])
            #expect(moving.commands.first?.dropFirst(3).first == 0)  // target: closed
            let stop = exchange(f, 4, [0x26, 0x05], replies: 2)
            let position = try #require(f.emulator.level(node: 4))
            // A v4 report: the target is the position where the motor stands, duration 0.
            #expect(stop.commands == [[0x26, 0x03, position, position, 0x00], MeterReading.report(0, scale: .watts)])
        }

        @Test func rollerShutterRunsToASetPositionAndReportsIt() throws {
            var network = NetworkDescription.sensors
            network.timeScale = 20  // the 10 s travel takes half a second
            let f = try EmulatorFixture(network: network)
            #expect(exchange(f, 4, [0x26, 0x01, 0x00]).commands == [MeterReading.report(120, scale: .watts)])
            #expect(
                reports(f, from: 4, count: 2) == [
                    [0x26, 0x03, 0x00, 0x00, 0x00], MeterReading.report(0, scale: .watts),
                ])
            #expect(f.emulator.level(node: 4) == 0)
        }

        @Test func radiatorThermostatModesAndSetpoints() throws {
            let f = try EmulatorFixture(network: .sensors)
            #expect(exchange(f, 5, [0x72, 0x04]).commands == [[0x72, 0x05, 0x01, 0x48, 0x00, 0x03, 0x00, 0x01]])
            #expect(exchange(f, 5, [0x40, 0x04]).commands == [[0x40, 0x05, 0x03, 0x88, 0x00, 0x80]])
            #expect(exchange(f, 5, [0x40, 0x02]).commands == [[0x40, 0x03, 0x01]])
            #expect(exchange(f, 5, [0x43, 0x04]).commands == [[0x43, 0x05, 0x82]])
            #expect(exchange(f, 5, [0x43, 0x02, 0x01]).commands == [[0x43, 0x03, 0x01, 0x22, 0x00, 200]])
            #expect(
                exchange(f, 5, [0x43, 0x09, 0x01]).commands == [[0x43, 0x0A, 0x01, 0x22, 0x00, 80, 0x22, 0x01, 0x18]])
            #expect(
                exchange(f, 5, [0x43, 0x01, 0x01, 0x22, 0x00, 215]).commands == [[0x43, 0x03, 0x01, 0x22, 0x00, 215]])
            #expect(exchange(f, 5, [0x40, 0x01, 0x0B]).commands == [[0x40, 0x03, 0x0B]])
            #expect(exchange(f, 5, [0x31, 0x04, 0x01, 0x00]).commands == [[0x31, 0x05, 0x01, 0x42, 0x07, 0x9E]])
            #expect(exchange(f, 5, [0x80, 0x02]).commands == [[0x80, 0x03, 70]])
            #expect(f.emulator.execute("temperature 5 18") == "ok")
            #expect(reports(f, from: 5) == [[0x31, 0x05, 0x01, 0x42, 0x07, 0x08]])
        }

        @Test func wallMoteSendsCentralSceneNotificationsWithSequenceNumbers() throws {
            let f = try EmulatorFixture(network: .sensors)
            wake(f, 6)
            #expect(exchange(f, 6, [0x72, 0x04]).commands == [[0x72, 0x05, 0x00, 0x86, 0x00, 0x02, 0x00, 0x82]])
            #expect(exchange(f, 6, [0x5B, 0x01]).commands == [[0x5B, 0x02, 0x04, 0x03, 0x7F]])
            // Z-Wave Plus icon "wall controller" (0x1600), which OpenZWave maps to Central Scene only.
            #expect(exchange(f, 6, [0x5E, 0x01]).commands == [[0x5E, 0x02, 0x01, 0x06, 0x00, 0x16, 0x00, 0x16, 0x00]])
            #expect(exchange(f, 6, [0x84, 0x08], replies: 0).status == 0x00)
            let lines = ["button 6 1 1x", "button 6 2 2x", "button 6 3 5x", "button 6 4 held", "button 6 4 released"]
            for line in lines { #expect(f.emulator.execute(line) == "ok") }
            #expect(
                reports(f, from: 6, count: 5) == [
                    [0x5B, 0x03, 1, 0x00, 1], [0x5B, 0x03, 2, 0x03, 2], [0x5B, 0x03, 3, 0x06, 3],
                    [0x5B, 0x03, 4, 0x02, 4], [0x5B, 0x03, 5, 0x01, 4],
                ])
            // A retransmission: the last notification, its sequence number unchanged.
            #expect(f.emulator.execute("button 6 again") == "ok")
            #expect(reports(f, from: 6) == [[0x5B, 0x03, 5, 0x01, 4]])
            #expect(f.emulator.execute("button 6 5 1x").hasPrefix("error"))
            #expect(f.emulator.execute("button 6 1 6x").hasPrefix("error"))
        }

        @Test func doorLockLocksAndUnlocksWithoutSecurity() throws {
            let f = try EmulatorFixture(network: .sensors)
            #expect(exchange(f, 7, [0x72, 0x04]).commands == [[0x72, 0x05, 0x01, 0x0E, 0x00, 0x08, 0x00, 0x02]])
            #expect(exchange(f, 7, [0x62, 0x02]).commands == [[0x62, 0x03, 0xFF, 0x00, 0x05, 0xFE, 0xFE]])
            #expect(exchange(f, 7, [0x62, 0x05]).commands == [[0x62, 0x06, 0x01, 0x00, 0xFE, 0xFE]])
            // Door Lock Configuration Set is ignored (the Danalock's settings are Configuration parameters).
            #expect(exchange(f, 7, [0x62, 0x04, 0x02, 0x00, 0x00, 0x1E], replies: 0).status == 0x00)
            #expect(exchange(f, 7, [0x62, 0x05]).commands == [[0x62, 0x06, 0x01, 0x00, 0xFE, 0xFE]])
            #expect(exchange(f, 7, [0x63, 0x04]).commands == [[0x63, 0x05, 20]])
            #expect(exchange(f, 7, [0x63, 0x02, 0x03]).commands == [[0x63, 0x03, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00]])
            #expect(exchange(f, 7, [0x62, 0x01, 0x00]).commands == [[0x62, 0x03, 0x00, 0x00, 0x07, 0xFE, 0xFE]])
            #expect(f.emulator.level(node: 7) == 0x00)
            #expect(f.emulator.execute("lock 7 lock") == "ok")
            #expect(reports(f, from: 7) == [[0x62, 0x03, 0xFF, 0x00, 0x05, 0xFE, 0xFE]])
            // Jammed: Notification access control "lock jammed" (11), and so its Notification Get, until it moves.
            #expect(exchange(f, 7, [0x71, 0x01, 0x06]).commands == [[0x71, 0x02, 0x06, 0x02, 0x1E, 0x08]])
            #expect(f.emulator.execute("lock 7 jam") == "ok")
            #expect(reports(f, from: 7) == [[0x71, 0x05, 0x00, 0x00, 0x00, 0xFF, 0x06, 0x0B, 0x00]])
            #expect(exchange(f, 7, [0x71, 0x04, 0x00, 0x06]).commands.first?[7] == 0x0B)
            #expect(exchange(f, 7, [0x62, 0x01, 0xFF]).commands == [[0x62, 0x03, 0xFF, 0x00, 0x05, 0xFE, 0xFE]])
            #expect(exchange(f, 7, [0x71, 0x04, 0x00, 0x06]).commands.first?[7] == 0x00)
            #expect(f.emulator.execute("lock 7 open").hasPrefix("error"))
        }

        @Test func theSensorsKindsLoadFromTOML() throws {
            let network = try NetworkDescription(
                toml: """
                    [[node]]
                    id = 2
                    kind = "multisensor6"
                    temperature = 18.5
                    battery = 40
                    [[node]]
                    id = 3
                    kind = "fgdw002"
                    [[node]]
                    id = 4
                    kind = "fgr223"
                    level = 50
                    [[node]]
                    id = 5
                    kind = "spirit"
                    setpoint = 21.0
                    [[node]]
                    id = 6
                    kind = "wallmote_quad"
                    [[node]]
                    id = 7
                    kind = "danalock"
                    """)
            #expect(network.nodes.map(\.kind) == [.multisensor6, .fgdw002, .fgr223, .spirit, .wallmoteQuad, .danalock])
            #expect(network.nodes[0].temperature == 18.5)
            #expect(network.nodes[0].battery == 40)
            #expect(network.nodes[3].setpoint == 21)
            #expect(throws: NetworkDescriptionError.self) {
                try NetworkDescription(toml: "[[node]]\nid = 2\nkind = \"spirit\"\nsetpoint = 40\n")
            }
            #expect(NetworkDescription.preset(named: "sensors") == .sensors)
        }
    }
}
