import Foundation
import Logging
import Testing
import ZWaveEmulator

@testable import ZWaveDriver

/// OpenZWave rewrites its network cache in place; a write cut short (a power cut, a kill at the unit's stop timeout)
/// must not cost a new interview of every node: the driver keeps the last complete cache and puts it back at start.
@Suite struct NetworkCacheCompletenessTests {
    static let sample = """
        <?xml version="1.0" encoding="utf-8" ?>
        <Driver xmlns="https://github.com/OpenZWave/open-zwave" version="4" home_id="0xc0ffee01" node_id="1">
            <Node id="1" name="" location="" basic="2" generic="2" specific="7" roletype="0">
                <Manufacturer id="0086" name="AEON Labs">
                    <Product type="0001" id="005a" name="Z-Stick Gen5" />
                </Manufacturer>
            </Node>
            <Node id="2" name="" location="" basic="4" generic="17" specific="1" roletype="5">
                <CommandClasses>
                    <CommandClass id="38" name="COMMAND_CLASS_SWITCH_MULTILEVEL" version="3" />
                    <CommandClass id="133" name="COMMAND_CLASS_ASSOCIATION" version="2">
                        <Associations num_groups="1">
                            <Group index="1" max_associations="5" label="Lifeline">
                                <Node id="1" instance="1" />
                            </Group>
                        </Associations>
                    </CommandClass>
                </CommandClasses>
            </Node>
        </Driver>

        """

    @Test("a whole cache is complete; cut at any byte, it is not")
    func cutAnywhereIsIncomplete() {
        let bytes = Array(Self.sample.utf8)
        #expect(NetworkCacheCopy.isComplete(bytes))
        for length in 0..<bytes.count where !bytes[length...].allSatisfy({ $0 == 10 || $0 == 32 }) {
            #expect(!NetworkCacheCopy.isComplete(Array(bytes[..<length])), "cut at \(length) of \(bytes.count)")
        }
    }

    @Test("a cache cut short is put aside and its complete copy put back; a complete one is copied; no copy, no change")
    func restoreAndKeepInADirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachecopy-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = directory + "/ozwcache_0xc0ffee01.xml"
        let copy = NetworkCacheCopy(directory: directory, logger: .init(label: "test"))

        // A complete cache at start is copied.
        try Self.sample.write(toFile: cache, atomically: false, encoding: .utf8)
        copy.restoreDamaged()
        #expect(try String(contentsOfFile: cache + ".complete", encoding: .utf8) == Self.sample)

        // Cut short: put aside, and the copy is back.
        let cut = String(Self.sample.prefix(Self.sample.count / 2))
        try cut.write(toFile: cache, atomically: false, encoding: .utf8)
        copy.restoreDamaged(now: Date(timeIntervalSince1970: 1_796_000_000))
        #expect(try String(contentsOfFile: cache, encoding: .utf8) == Self.sample)
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".damaged-") }
        #expect(aside == ["ozwcache_0xc0ffee01.xml.damaged-20261130T005320Z"])

        // keepComplete never copies a cache that is being written (cut short).
        try cut.write(toFile: cache, atomically: false, encoding: .utf8)
        copy.keepComplete()
        #expect(try String(contentsOfFile: cache + ".complete", encoding: .utf8) == Self.sample)

        // No complete copy: the damaged cache is left to OpenZWave as it is.
        try FileManager.default.removeItem(atPath: cache + ".complete")
        copy.restoreDamaged()
        #expect(try String(contentsOfFile: cache, encoding: .utf8) == cut)
    }
}

extension OpenZWaveSuite {
    @Suite struct NetworkCacheCopyTests {
        /// The Z-Wave commands (command class and command) the host sent to `node` since frame `from`.
        static func commands(_ emulator: ZWaveStickEmulator, to node: UInt8, from: Int) -> Set<[UInt8]> {
            Set(
                emulator.receivedHostFrames.filter { $0.index >= from && $0.destinationNode == node }
                    .compactMap { $0.command.map { Array($0.prefix(2)) } })
        }

        @Test("a cache cut in half: the next start restores the last complete one and is a cached start")
        func cacheCutInHalfIsACachedStartNextTime() async throws {
            let ctx = try EmulatorDriverContext(network: EmulatorIntegrationTests.network)
            defer { ctx.close() }
            let queried = { (count: Int) in
                await ctx.eventually(.seconds(60)) { ctx.events.count { $0.emulatorTestAllNodesQueried } >= count }
            }
            try await ctx.withRunning(ctx.makeDriver()) { #expect(await queried(1)) }
            let coldInterview = Self.commands(ctx.emulator, to: 2, from: 0)
            let cache = try #require(
                try FileManager.default.contentsOfDirectory(atPath: ctx.statePath).first {
                    $0.hasPrefix("ozwcache_") && $0.hasSuffix(".xml")
                })
            let path = ctx.statePath + "/" + cache
            let whole = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(FileManager.default.fileExists(atPath: path + ".complete"), "no complete copy kept after the stop")
            try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: path))

            let mark = ctx.emulator.hostFrameCount
            try await ctx.withRunning(ctx.makeDriver()) { #expect(await queried(2)) }
            let second = Self.commands(ctx.emulator, to: 2, from: mark)
            // Version Get (0x86 0x13, per command class) and Manufacturer Specific Get (0x72 0x04) are the static
            // interview: a cold start asks them, a cached one does not.
            let staticInterview: Set<[UInt8]> = [[0x86, 0x13], [0x72, 0x04]]
            #expect(!coldInterview.isDisjoint(with: staticInterview), "the cold start asked none: \(coldInterview)")
            #expect(second.isDisjoint(with: staticInterview), "the node was interviewed again: \(second)")
            let names = try FileManager.default.contentsOfDirectory(atPath: ctx.statePath)
            #expect(names.contains { $0.hasPrefix(cache + ".damaged-") }, "the cut cache was not put aside: \(names)")
        }
    }
}
