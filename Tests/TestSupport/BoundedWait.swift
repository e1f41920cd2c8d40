import Foundation
import Synchronization

/// The value of `operation`, something that must end (a call that returns, a task or driver that stops), waited
/// for at most `limit`: nil when it has not ended by then, which the caller reports as the failure (a hang).
/// `operation`'s error is rethrown.
///
/// The limit only guards against a hang: it is generous enough for a fully loaded 2-core machine and never a
/// speed figure (tests print those; the benchmark measures them); it is multiplied by ``TestTime/scale``.
/// `operation` runs in a task of its own, which is cancelled when the limit passes; one that ignores the
/// cancellation is left behind, so a failed test still ends.
public func finishing<T: Sendable>(
    within limit: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T? {
    let outcome = FirstOutcome<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            outcome.attach(continuation)
            outcome.add(
                Task {
                    do {
                        outcome.resolve(.success(try await operation()))
                    } catch {
                        outcome.resolve(.failure(error))
                    }
                })
            outcome.add(
                Task {
                    guard (try? await Task.sleep(for: TestTime.scaled(limit))) != nil else { return }
                    outcome.resolve(.success(nil))
                })
        }
    } onCancel: {
        outcome.resolve(.failure(CancellationError()))
    }
}

/// Runs the blocking `body` on a thread of its own (not on one of the concurrency pool's few threads) and returns
/// its value. With `finishing(within:)`: whether a blocking call returns at all.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.name = "test-blocking-call"
        thread.start()
    }
}

/// The first of the racing outcomes of `finishing(within:)`: it resumes the waiting caller once and cancels the
/// tasks that lost.
private final class FirstOutcome<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T?, any Error>?
        var result: Result<T?, any Error>?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    func attach(_ continuation: CheckedContinuation<T?, any Error>) {
        let result: Result<T?, any Error>? = state.withLock { state in
            if state.result == nil { state.continuation = continuation }
            return state.result
        }
        if let result { continuation.resume(with: result) }
    }

    func add(_ task: Task<Void, Never>) {
        let resolved = state.withLock { state in
            if state.result == nil { state.tasks.append(task) }
            return state.result != nil
        }
        if resolved { task.cancel() }
    }

    func resolve(_ result: Result<T?, any Error>) {
        let taken: (CheckedContinuation<T?, any Error>?, [Task<Void, Never>])? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer {
                state.continuation = nil
                state.tasks = []
            }
            return (state.continuation, state.tasks)
        }
        guard let (continuation, tasks) = taken else { return }
        continuation?.resume(with: result)
        for task in tasks { task.cancel() }
    }
}
