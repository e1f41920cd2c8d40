import Foundation
public import Testing

/// How many end-to-end tests (real processes, real libcec/libopenzwave, the emulators) run at once in this
/// test process. Swift Testing starts every test at the same moment; on a 2-core CI machine forty bridges,
/// brokers and emulators at once starve libcec's and OpenZWave's own 1-second protocol timers, and tests
/// then fail for the machine's sake, not the code's. A test holds its slot from its first line to its last,
/// so its own timeouts only run while it has the machine to itself (give or take `count - 1` others).
///
/// `THUIS_TEST_SLOTS` overrides the default (the number of cores, at least 2).
public actor EndToEndSlots {
    public static let shared = EndToEndSlots(count: EndToEndSlots.configuredCount)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) {
        free = max(1, count)
    }

    static var configuredCount: Int {
        if let text = ProcessInfo.processInfo.environment["THUIS_TEST_SLOTS"], let count = Int(text), count > 0 {
            return count
        }
        return max(2, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Waits for a free slot, first come first served.
    public func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the slot to the longest waiter, or frees it.
    public func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// Runs `body` holding a slot.
    public func withSlot<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }
}

/// The `.endToEnd` trait: each test case (recursively, when on a suite) runs holding an `EndToEndSlots` slot.
public struct EndToEndTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await EndToEndSlots.shared.withSlot { try await function() }
    }
}

extension Trait where Self == EndToEndTrait {
    /// Runs each test case holding one of the process-wide end-to-end slots (see `EndToEndSlots`).
    public static var endToEnd: Self { EndToEndTrait() }
}
