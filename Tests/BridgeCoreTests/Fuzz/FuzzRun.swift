import BridgeCore
import Foundation
import SystemSupport

/// A bounded, deterministic mutation-fuzzing loop: starts from a corpus, mutates a pool member each
/// iteration and adds an input to the pool when it produced an outcome not seen before (a crude coverage
/// signal: the target names its outcome, e.g. the error's reason kind). Records the slowest input.
///
/// The length is `iterations` by default; `THUIS_FUZZ_SECONDS=<n>` runs each target for n seconds instead
/// (the long session), `THUIS_FUZZ_SEED=<n>` changes the seed, and `THUIS_FUZZ_LAST_INPUT=<path>` writes each
/// input there before running it (so a crash of the test process leaves its input behind).
struct FuzzRun {
    struct Summary: CustomStringConvertible {
        var target: String
        var seed: UInt64
        var executed = 0
        var outcomes = 0
        var pool = 0
        var elapsed: Duration = .zero
        var slowest: Duration = .zero
        var slowestInput: [UInt8] = []

        var description: String {
            "\(target): \(executed) inputs in \(elapsed), seed \(seed), \(outcomes) distinct outcomes, pool \(pool), "
                + "slowest \(slowest) (\(slowestInput.count) bytes)"
        }
    }

    let target: String
    let corpus: [[UInt8]]
    let mutator: FuzzMutator
    let iterations: Int

    /// Runs `body` on the corpus, then on mutations. `body` returns a short outcome name; it must not
    /// crash or hang (a hang shows as the test's time limit, a slow input in `Summary.slowest`).
    func run(_ body: ([UInt8]) -> String) -> Summary {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["THUIS_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x7448_5549_53
        let seconds = environment["THUIS_FUZZ_SECONDS"].flatMap { Int($0) }
        var random = SeededRandom(seed: seed ^ Self.stableHash(target))
        var summary = Summary(target: target, seed: seed)
        var seen = Set<String>()
        var pool = corpus.isEmpty ? [[]] : corpus
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = seconds.map { start.advanced(by: .seconds($0)) }
        let lastInput = environment["THUIS_FUZZ_LAST_INPUT"].map { URL(fileURLWithPath: $0) }

        func execute(_ input: [UInt8]) {
            if let lastInput { try? Data(input).write(to: lastInput) }
            let before = clock.now
            let outcome = body(input)
            let took = clock.now - before
            summary.executed += 1
            if took > summary.slowest {
                summary.slowest = took
                summary.slowestInput = input
            }
            if seen.insert(outcome).inserted, pool.count < 4_096 { pool.append(input) }
        }

        for input in corpus { execute(input) }
        var index = 0
        while !Task.isCancelled {
            if let deadline {
                if index % 64 == 0, clock.now >= deadline { break }
            } else if index >= iterations {
                break
            }
            let parent = pool[random.below(pool.count)]
            execute(mutator.mutate(parent, others: pool, using: &random))
            index += 1
        }
        summary.elapsed = clock.now - start
        summary.outcomes = seen.count
        summary.pool = pool.count
        return summary
    }

    /// FNV-1a of `text`: the same in every process (Swift's `hashValue` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}
