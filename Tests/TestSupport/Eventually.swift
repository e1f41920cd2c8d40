/// The one way the tests wait for a condition they cannot be told about: `condition` is polled (every `poll`) until
/// it returns a value, which is returned, or until `limit` (times ``TestTime/scale``) has passed, which throws a
/// `TestSupportError` that names `what` was awaited, the limit, and (from `state`) what was seen instead.
///
/// The limit only guards against a hang, like `finishing(within:)`'s: generous enough for a fully loaded 2-core
/// machine, never a speed figure. Polling is the wait, never a sleep that stands in for one.
public func eventually<T: Sendable>(
    _ what: @autoclosure () -> String, within limit: Duration = .seconds(30), poll: Duration = .milliseconds(10),
    state: () async -> String = { "" }, _ condition: () async throws -> T?
) async throws -> T {
    let scaled = TestTime.scaled(limit)
    let deadline = ContinuousClock.now.advanced(by: scaled)
    while true {
        if let value = try await condition() { return value }
        guard ContinuousClock.now < deadline else {
            let seen = await state()
            throw TestSupportError("timed out after \(scaled) waiting for \(what())\(seen.isEmpty ? "" : "; \(seen)")")
        }
        try await Task.sleep(for: poll)
    }
}

/// ``eventually(_:within:poll:state:_:)`` for a condition that is true or false.
public func eventually(
    _ what: @autoclosure () -> String, within limit: Duration = .seconds(30), poll: Duration = .milliseconds(10),
    state: () async -> String = { "" }, _ condition: () async throws -> Bool
) async throws {
    try await eventually(what(), within: limit, poll: poll, state: state) { try await condition() ? () : nil }
}
