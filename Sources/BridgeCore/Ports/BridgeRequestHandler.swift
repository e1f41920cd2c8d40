/// Handles bridge API requests (`<prefix>/bridge/<bridge>/request/<command>`) that need the hardware:
/// include, exclude, heal, configuration parameters. The bridge answers `devices` itself and gives
/// every request exactly one response.
public protocol BridgeRequestHandler: Sendable {
    /// The commands this handler serves.
    var commands: Set<String> { get }
    /// Runs `command` with the request's JSON arguments; progress goes out as events through `events`.
    func handle(
        command: String, arguments: JSONValue, events: @escaping @Sendable (BridgeEvent) async -> Void
    ) async throws(RequestFailure) -> JSONValue
}

/// A request that failed, with the reason sent in the response's `error`.
public struct RequestFailure: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
