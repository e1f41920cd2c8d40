import BridgeCore
import Foundation
import Logging
import TestSupport
import Testing

@testable import ZWaveDriver

/// The `set_config`s held for sleeping nodes are kept in the state directory until the node reports the value, and
/// the file is read back as input from outside: cut short, garbage or hand-edited, it never stops the bridge.
@Suite struct WakeUpQueueTests {
    static let logger = Logger(label: "test.wakeup")

    static func command(node: Int = 2, parameter: Int = 3, value: Int = 30) -> PendingParameter {
        PendingParameter(node: node, parameter: parameter, value: value, size: 2, since: 1_764_400_000)
    }

    @ZWaveBackendActor static func queue(_ directory: TemporaryDirectory) -> WakeUpQueue {
        WakeUpQueue(directory: directory.path, logger: logger)
    }

    @Test @ZWaveBackendActor func aHeldCommandSurvivesARestartAndEndsWithTheNodesReport() throws {
        let directory = try TemporaryDirectory()
        let first = Self.queue(directory)
        first.hold(Self.command())
        first.hold(Self.command(parameter: 4, value: 1))
        first.hold(Self.command(value: 40))  // replaces the first: one per node and parameter
        // A new bridge process reads them back; the library does not have them yet, so the node's wake-up gives them.
        let second = Self.queue(directory)
        second.load()
        #expect(second.held == [Self.command(parameter: 4, value: 1), Self.command(value: 40)])
        #expect(second.toGive(node: 2).count == 2)
        #expect(second.toGive(node: 2).isEmpty, "given once per run")
        #expect(second.toGive(node: 5).isEmpty)
        // The report of the value asked for ends it as applied; another value as failed, with what was reported.
        #expect(second.reported(node: 2, parameter: 3, value: 40) == .pending(Self.command(value: 40), .applied))
        let failed = second.reported(node: 2, parameter: 4, value: 0)
        guard case .pending(_, .failed(let reported, _))? = failed else {
            Issue.record("not failed: \(String(describing: failed))")
            return
        }
        #expect(reported == 0)
        #expect(second.reported(node: 2, parameter: 4, value: 1) == nil, "nothing held any more")
        let third = Self.queue(directory)
        third.load()
        #expect(third.held.isEmpty)
    }

    @Test @ZWaveBackendActor func theFileIsWrittenForTheServiceUserOnly() throws {
        let directory = try TemporaryDirectory()
        Self.queue(directory).hold(Self.command())
        let attributes = try FileManager.default.attributesOfItem(
            atPath: directory.path + "/" + WakeUpQueue.fileName)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    /// Cut short at every byte, replaced by garbage or by JSON of another shape: moved aside, none held, and the next
    /// command is kept again.
    @Test @ZWaveBackendActor func aDamagedFileIsMovedAsideAndTheBridgeGoesOn() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + WakeUpQueue.fileName
        Self.queue(directory).hold(Self.command())
        let whole = try String(contentsOfFile: path, encoding: .utf8)
        var damaged = (1..<whole.count - 1).map { String(whole.prefix($0)) }
        damaged += ["\u{0}\u{1}garbage", "[]", #"{"pending": 3}"#, ""]
        for (round, text) in damaged.enumerated() {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let queue = Self.queue(directory)
            queue.load(now: Double(1_764_400_000 + round))
            #expect(queue.held.isEmpty, "\(text.debugDescription)")
            #expect(!FileManager.default.fileExists(atPath: path), "not moved aside: \(text.debugDescription)")
            queue.hold(Self.command())
            #expect(FileManager.default.fileExists(atPath: path))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.filter { $0.hasPrefix(WakeUpQueue.fileName + ".damaged-") }.count == damaged.count)
    }

    /// Entries a hand or another program put in the file that the bridge would never hold are dropped one by one;
    /// the rest is kept.
    @Test @ZWaveBackendActor func entriesThatAreNotCommandsTheBridgeCouldHoldAreDropped() throws {
        let directory = try TemporaryDirectory()
        let good = #"{"node":2,"command":"set_config","parameter":3,"value":30,"size":2,"since":1}"#
        let bad = [
            #"{"node":0,"command":"set_config","parameter":3,"value":30,"size":2}"#,
            #"{"node":233,"command":"set_config","parameter":3,"value":30,"size":2}"#,
            #"{"node":2,"command":"set_config","parameter":256,"value":30,"size":2}"#,
            #"{"node":2,"command":"set_config","parameter":3,"value":300,"size":1}"#,
            #"{"node":2,"command":"set_config","parameter":3,"value":30,"size":3}"#,
            #"{"node":2,"command":"reset","parameter":3,"value":30,"size":2}"#,
            #"{"node":"2","command":"set_config","parameter":3,"value":30,"size":2}"#,
            "17",
        ]
        try #"{"pending":[\#((bad + [good]).joined(separator: ","))]}"#.write(
            toFile: directory.path + "/" + WakeUpQueue.fileName, atomically: true, encoding: .utf8)
        let queue = Self.queue(directory)
        queue.load()
        #expect(queue.held == [PendingParameter(node: 2, parameter: 3, value: 30, size: 2, since: 1)])
    }

    @Test func theEventsSayWhatBecameOfTheCommand() {
        let command = Self.command()
        #expect(BridgeEvent.pending(command, .held).type == "command_pending")
        #expect(BridgeEvent.pending(command, .applied).type == "pending_applied")
        let failed = BridgeEvent.pending(command, .failed(reported: 5, reason: "no"))
        #expect(failed.type == "pending_failed")
        #expect(
            failed.json.serialized
                == #"{"type":"pending_failed","node":2,"command":"set_config","parameter":3,"value":30,"size":2,"#
                + #""since":1764400000,"reported":5,"reason":"no"}"#)
        let value = ConfigParameterValue(node: 2, parameter: 3, value: 30, size: 2, pending: true)
        #expect(RequestResult.configParameter(value).json.serialized.contains(#""pending":true"#))
        let plain = ConfigParameterValue(node: 2, parameter: 3, value: 30, size: 2)
        #expect(!RequestResult.configParameter(plain).json.serialized.contains("pending"))
    }
}
