import Testing

@testable import BridgeDaemon

/// `thuis-bridge run --without <measures>` (hidden, for the benchmark): the names it accepts.
@Suite struct MemoryTrickTests {
    @Test func aListOfKnownNamesParses() {
        #expect(MemoryTrick.parse(list: "node-cache-release") == [.nodeCacheRelease])
        #expect(MemoryTrick.parse(list: " node-cache-release ,node-cache-release") == [.nodeCacheRelease])
        #expect(MemoryTrick.parse(list: "cache-write-trim,code-page-out") == [.cacheWriteTrim, .codePageOut])
        #expect(MemoryTrick.parse(list: "") == [])
    }

    @Test func anUnknownNameIsRefused() {
        #expect(MemoryTrick.parse(list: "node-cache-release,heap-trim") == nil)
    }
}
