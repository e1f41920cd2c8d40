import BridgeCore
import BridgeDaemon
import Foundation
import HomeKit
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing

/// A pairing file the bridge cannot use takes down HomeKit only: the real `thuis-bridge run` against a real
/// mosquitto still publishes its `online` and its devices' states, logs why HomeKit is off (the file, what is wrong,
/// the fix), publishes `homekit_unavailable`, and a damaged file (truncated, garbage) is moved aside, never made
/// afresh; `thuis-bridge homekit` explains it and `homekit reset` makes the new identity.
@Suite(.endToEnd) struct HomeKitPairingFileFaultTests {
    enum Fault: String, CaseIterable, Sendable {
        case truncated, garbage, exposed
    }

    @Test(arguments: Fault.allCases)
    func aPairingFileTheBridgeCannotUseTakesDownHomeKitOnly(fault: Fault) async throws {
        let house = try await SeveralBridgesTests.Broker()
        let pairingFile = house.directory.file("homekit.json")
        let valid = try HomeKitStore(path: pairingFile)
        #expect(valid.setupID.count == 4)
        switch fault {
        case .truncated:
            let bytes = try Data(contentsOf: URL(fileURLWithPath: pairingFile))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: pairingFile))
        case .garbage:
            try Data([0x00, 0xFF, 0x13, 0x37] + Array("not a pairing file".utf8)).write(
                to: URL(fileURLWithPath: pairingFile))
        case .exposed:
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: pairingFile)
        }
        let fixture = ConfigFixture(
            name: "hk\(fault.rawValue)", mqtt: .local(port: house.broker.port),
            cec: .init(port: house.directory.file("no-cec"), devices: [.init(address: 0, room: "attic", name: "tv")])
        ).appending(
            "[homekit]", "enabled = true", "port = \(try FreePort.next())", "setup_code = \"031-45-154\"",
            "pairing_file = \"\(pairingFile)\"")
        let config = try house.directory.write("devices.toml", fixture.text)
        let bridge = try ChildProcess(
            executable: try BuiltProduct.executable(named: "thuis-bridge").path,
            arguments: ["run", "--config", config], workingDirectory: house.directory.path)
        let name = "hk\(fault.rawValue)"
        do {
            try await house.watcher.waitForMessage(topic: "Thuis/bridge/\(name)/state", text: "online")
            try await house.watcher.waitForMessage(topic: "Thuis/device/attic/tv/availability", text: "offline")
            let event = try await house.watcher.waitForEvent("homekit_unavailable", topic: "Thuis/bridge/\(name)/event")
            let logged = await bridge.waitForLine(timeout: .seconds(10)) {
                $0.text.contains("HomeKit is off this run") && $0.text.contains(pairingFile)
            }
            let line = try #require(logged, "\(bridge.outputText)")
            let damaged = DamagedPairingFile.copies(of: pairingFile)
            switch fault {
            case .truncated, .garbage:
                #expect(line.text.contains("not JSON"), "\(line.text)")
                #expect(line.text.contains("homekit reset"), "\(line.text)")
                #expect(damaged.count == 1, "\(damaged)")
                let copy = try #require(damaged.first)
                #expect(copy.wholeMatch(of: /.*\/homekit\.json\.damaged-\d{8}T\d{6}Z/) != nil, "\(copy)")
                #expect(line.text.contains(copy), "\(line.text)")
                #expect(event.string("moved_to") == copy, "\(event)")
                #expect(!FileManager.default.fileExists(atPath: pairingFile), "a new identity was made")
                // The command says what happened and how to pair again; reset makes the new identity.
                let shown = try await BuiltProduct.run("thuis-bridge", ["homekit", "--config", config])
                #expect(shown.standardOutput.contains("moved it aside to \(copy)"), "\(shown.standardOutput)")
                #expect(shown.standardOutput.contains("thuis-bridge homekit reset"), "\(shown.standardOutput)")
            case .exposed:
                #expect(line.text.contains("mode 0644"), "\(line.text)")
                #expect(line.text.contains("chmod 600 \(pairingFile)"), "\(line.text)")
                #expect(damaged.isEmpty, "\(damaged)")
                #expect(try HomeKitStoreFile.mode(pairingFile) == 0o644)
            }
            #expect(bridge.isRunning, "\(bridge.outputText)")
            #expect(await bridge.stop(timeout: .seconds(30)) == .exited(0))
            if fault == .garbage {
                // Started again, it still runs without HomeKit: no new identity behind the user's back.
                let again = try ChildProcess(
                    executable: try BuiltProduct.executable(named: "thuis-bridge").path,
                    arguments: ["run", "--config", config], workingDirectory: house.directory.path)
                let still = await again.waitForLine(timeout: .seconds(30)) {
                    $0.text.contains("HomeKit is off this run") && $0.text.contains("damaged and moved aside")
                }
                #expect(still != nil, "\(again.outputText)")
                #expect(!FileManager.default.fileExists(atPath: pairingFile), "a new identity was made")
                #expect(await again.stop(timeout: .seconds(30)) == .exited(0))
                let reset = try await BuiltProduct.run("thuis-bridge", ["homekit", "reset", "--config", config])
                #expect(reset.status == 0, "\(reset.standardError)")
                #expect(reset.standardOutput.contains("Made a new HomeKit identity"), "\(reset.standardOutput)")
                #expect(try HomeKitStore(path: pairingFile).deviceID != valid.deviceID)
            }
        } catch {
            Issue.record("\(bridge.outputText.suffix(3000))")
            await house.stop([bridge])
            throw error
        }
        await house.stop([bridge])
    }
}

/// The permission bits of a file.
enum HomeKitStoreFile {
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
}
