import BridgeCore
import Foundation
import IntegrationSupport
import LabSupport
import MQTTDriver
import TestSupport
import Testing
import ZWaveEmulator

/// `secure` inclusion with a Z-Wave network key (`[zwave] network_key_file`), and its refusal
/// without one; the real bridge process, the real libopenzwave, the emulated stick.
@Suite(.endToEnd) struct NetworkKeyTests {
    static let key = "0F1E2D3C4B5A69788796A5B4C3D2E1F0"

    /// Every way the key could be printed: as written, as OpenZWave's option, as OpenZWave prints message bytes.
    static let keyForms: [String] = {
        let bytes = stride(from: 0, to: key.count, by: 2).map {
            String(key[key.index(key.startIndex, offsetBy: $0)..<key.index(key.startIndex, offsetBy: $0 + 2)])
        }
        return [
            key, key.lowercased(), bytes.map { "0x\($0)" }.joined(separator: ","),
            bytes.map { "0x\($0.lowercased())" }.joined(separator: ", "),
            bytes.prefix(4).map { "0x\($0.lowercased())" }.joined(separator: ", "),
        ]
    }()

    @Test func secureInclusionWithoutAKeyIsRefusedWithTheReasonAndTheControllerStaysIdle() async throws {
        try await InclusionHouse.with(name: "nokey", joinAfter: 1, joinsAs: .fgd212) { house in
            let sentBefore = house.stick.hostFrameCount
            let include = try house.cli(["include", "--secure", "--timeout", "30"])
            defer { include.kill() }
            let exit = await include.waitForExit(timeout: .seconds(30))
            #expect(exit == .exited(1), "\(include.outputText)")
            #expect(include.outputText.contains("secure inclusion needs a Z-Wave network key"), "\(include.outputText)")
            #expect(include.outputText.contains("network_key_file"), "\(include.outputText)")
            let toController = house.stick.receivedHostFrames.filter {
                $0.index >= sentBefore && $0.frame.function == SerialFunction.addNodeToNetwork
            }
            #expect(toController.isEmpty, "inclusion was started: \(toController)")
            #expect(!house.stick.includedNodeIDs.contains(10))
        }
    }

    @Test func theKeyReachesOpenZWaveForASecureInclusionAndNeverTheLog() async throws {
        var options = InclusionHouse.Options()
        options.networkKey = "0x" + Self.key + "\n"
        options.zwaveLogLevel = .detail  // OpenZWave logs the messages it queues, with their bytes
        options.bridgeArguments = ["--log-level", "trace"]
        try await InclusionHouse.with(name: "withkey", joinAfter: 1, joinsAs: .fgd212, options: options) { house in
            let stick = house.stick
            // OpenZWave starts the S0 key exchange with the new node only when it has a network key: Security
            // Scheme Get (0x98 0x04), then, for the encrypted NetworkKeySet, a Nonce Get (0x98 0x40).
            async let schemeGet = stick.waitForHostFrame(timeout: TestTime.scaled(.seconds(30))) {
                $0.destinationNode == 10 && $0.command?.starts(with: [0x98, 0x04]) == true
            }
            async let nonceGet = stick.waitForHostFrame(timeout: TestTime.scaled(.seconds(40))) {
                $0.destinationNode == 10 && $0.command?.starts(with: [0x98, 0x40]) == true
            }
            try await house.watcher.publish(
                topic: "Thuis/bridge/\(house.bridgeName)/request/include",
                text: #"{"transaction":"s1","timeout_s":30,"secure":true,"interview_timeout_s":5}"#)
            #expect(await schemeGet != nil, "no Security Scheme Get to the node")
            #expect(await nonceGet != nil, "no Nonce Get: OpenZWave did not send the network key")

            // OpenZWave queues the NetworkKeySet when the node's nonce comes back, after the Nonce Get: its log
            // lines may follow the frame the stick saw, so they are waited for.
            let keyMessage = await house.bridge.waitForLine(timeout: .seconds(30)) {
                $0.text.contains("SecurityCmd_NetworkKeySet")
            }
            #expect(keyMessage != nil, "OpenZWave did not log the key's message")
            let hidden = await house.bridge.waitForLine(timeout: .seconds(30)) { $0.text.contains("<network key>") }
            #expect(hidden != nil, "the key's bytes were not hidden")
            let output = house.bridge.outputText
            #expect(output.contains("networkKey=set"), "the driver did not say it has a key")
            for form in Self.keyForms {
                #expect(!output.contains(form), "the network key is in the bridge's output as \(form)")
            }
        }
    }
}
