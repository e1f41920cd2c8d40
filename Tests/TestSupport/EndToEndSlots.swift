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

    private let count: Int
    private var free: Int
    private var waiting: [(weight: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(count: Int) {
        self.count = max(1, count)
        free = self.count
    }

    static var configuredCount: Int {
        if let text = ProcessInfo.processInfo.environment["THUIS_TEST_SLOTS"], let count = Int(text), count > 0 {
            return count
        }
        return max(2, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Waits for one slot, or for all of them when `exclusive`; first come first served (a waiting exclusive
    /// test is not overtaken by later ones, so it cannot starve).
    public func acquire(exclusive: Bool = false) async {
        let weight = exclusive ? count : 1
        if waiting.isEmpty, free >= weight {
            free -= weight
            return
        }
        await withCheckedContinuation { waiting.append((weight, $0)) }
    }

    /// Returns the slots taken by `acquire(exclusive:)` and wakes the waiters that now fit, in order.
    public func release(exclusive: Bool = false) {
        free += exclusive ? count : 1
        while let first = waiting.first, free >= first.weight {
            waiting.removeFirst()
            free -= first.weight
            first.continuation.resume()
        }
    }

    /// Runs `body` holding a slot (all slots when `exclusive`).
    public func withSlot<T: Sendable>(exclusive: Bool = false, _ body: @Sendable () async throws -> T) async rethrows
        -> T
    {
        await acquire(exclusive: exclusive)
        do {
            let result = try await body()
            release(exclusive: exclusive)
            return result
        } catch {
            release(exclusive: exclusive)
            throw error
        }
    }
}

/// The `.endToEnd` trait: each test case (recursively, when on a suite) runs holding an `EndToEndSlots` slot;
/// `.endToEnd(exclusive: true)` holds all of them, so nothing else end-to-end runs in the process meanwhile.
public struct EndToEndTrait: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }
    /// All slots: for suites that load libopenzwave or libcec into the test process. Those libraries' own
    /// threads close and poll serial descriptors on their own schedule; alone in the process, a descriptor
    /// number they reuse or close late can only be their own test's.
    public var exclusive = false

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let trace = ProcessInfo.processInfo.environment["THUIS_TEST_SLOTS_TRACE"] != nil
        if trace { print("slot wait \(test.name)") }
        try await EndToEndSlots.shared.withSlot(exclusive: exclusive) {
            if trace { print("slot got \(test.name)") }
            defer { if trace { print("slot release \(test.name)") } }
            try await function()
        }
    }
}

extension Trait where Self == EndToEndTrait {
    /// Runs each test case holding one of the process-wide end-to-end slots (see `EndToEndSlots`).
    public static var endToEnd: Self { EndToEndTrait() }

    /// Like `.endToEnd`, holding every slot (see `EndToEndTrait.exclusive`).
    public static func endToEnd(exclusive: Bool) -> Self { EndToEndTrait(exclusive: exclusive) }
}
