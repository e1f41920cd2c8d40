public import BridgeCore
import FoundationEssentials
public import Logging
import MQTTDriver
public import SystemSupport

/// One bridge per name: before the bridge connects with its client id (`thuis-bridge-<name>`, which would take
/// over a running bridge's session) and before it opens any hardware, a connection of its own with another client
/// id reads the name's retained `<prefix>/bridge/<name>/state` and `info`:
///
/// - no state, or not `online`: the name is free (a bridge that crashed has had its last will set `offline`);
/// - `online`, and `info` names a process of this machine (same boot, same pid namespace): in use if that process
///   still runs (its pid with its start time), free otherwise (a bridge restarted right after it was killed finds
///   its own `online` before the broker noticed the dead connection);
/// - `online` and another machine (or no `info`): it is asked for its inventory (`request/devices`), which a running
///   bridge answers from memory in milliseconds; an answer means in use, the state turning `offline` (its last will)
///   means free; neither within `answerTimeout` (5 s) means a stale `online` (a bridge gone without its will, or
///   anyone who could publish it): the name is taken over, with a warning naming the stale holder. A stale `online`
///   never keeps the bridge down (exit 2, which systemd does not restart).
public struct BridgeNameCheck: Sendable {
    public enum Verdict: Sendable, Equatable {
        /// The name is free; why, when a stale `online` was found.
        case free(note: String?)
        /// Another bridge has the name: who, and what to do.
        case inUse(String)
    }

    let configuration: BridgeConfiguration
    let own: ProcessIdentity
    let logger: Logger
    /// How long another machine's bridge has to answer the inventory request (or its will to come) before its
    /// `online` is taken as stale.
    var answerTimeout: Duration = .seconds(5)
    /// How long the check waits for its own message to come back through the broker (normally milliseconds).
    var barrierTimeout: Duration = .seconds(10)

    public init(configuration: BridgeConfiguration, own: ProcessIdentity, logger: Logger) {
        self.configuration = configuration
        self.own = own
        self.logger = logger
    }

    /// What this process publishes retained on `<prefix>/bridge/<name>/info`, for the check of the next one.
    public static func announcement(_ identity: ProcessIdentity, keepAlive: Duration) -> JSONValue {
        .object([
            ("host", .string(identity.host)), ("machine", .string(identity.machine)), ("pid", .int(Int(identity.pid))),
            ("boot_id", .string(identity.bootID)), ("pid_namespace", .string(identity.pidNamespace)),
            ("process_start", .int(Int(identity.startTicks))),
            ("started", .string(Timestamp.iso8601(secondsSince1970: Date().timeIntervalSince1970))),
            ("keepalive_s", .int(Int(keepAlive.components.seconds))), ("version", .string(BuildInfo.version)),
        ])
    }

    /// The announced process, when `info` is one.
    static func process(in info: JSONValue?) -> (identity: ProcessIdentity, keepAlive: Int?, started: String?)? {
        guard let info, case .string(let host)? = info["host"], case .int(let pid)? = info["pid"] else { return nil }
        func text(_ key: String) -> String { if case .string(let value)? = info[key] { value } else { "" } }
        let start: UInt64 = if case .int(let ticks)? = info["process_start"], ticks >= 0 { UInt64(ticks) } else { 0 }
        let keepAlive: Int? = if case .int(let seconds)? = info["keepalive_s"], seconds > 0 { seconds } else { nil }
        let identity = ProcessIdentity(
            host: host, machine: text("machine"), bootID: text("boot_id"), pidNamespace: text("pid_namespace"),
            pid: Int32(clamping: pid), startTicks: start)
        return (identity, keepAlive, info["started"] == nil ? nil : text("started"))
    }

    /// Connects (with backoff until the broker answers), reads the name's state and info and decides. Cancel the
    /// task to give up (SIGTERM while the broker is away).
    public func run() async throws -> Verdict {
        var options = try Composition.mqttOptions(configuration)
        options.clientID = "thuis-bridge-\(configuration.bridge.name)-check-\(own.pid)"
        options.will = nil
        options.reconnectDelayMin = .milliseconds(500)
        options.reconnectDelayMax = .seconds(5)
        // The answer to its request is the other bridge's whole inventory.
        options.maxInboundPayloadBytes = 1 << 20
        options.maxInboundPacketBytes = 1 << 20
        let client = try MQTTClient(options: options, logger: logger)
        let mailbox = Mailbox(barrierTopic: "\(configuration.topics.bridgeBase)/check/\(own.pid)")
        return try await withThrowingTaskGroup(of: Verdict?.self) { group in
            group.addTask {
                try? await client.run()
                return nil
            }
            group.addTask {
                for await inbound in client.inbound {
                    if case .message(let message) = inbound { await mailbox.deliver(message) }
                }
                return nil
            }
            group.addTask { try await decide(client: client, mailbox: mailbox) }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let verdict = result {
                    await client.shutdown(timeout: .seconds(1))
                    return verdict
                }
            }
            throw CancellationError()
        }
    }

    private func decide(client: MQTTClient, mailbox: Mailbox) async throws -> Verdict {
        let topics = configuration.topics
        var reported = false
        var events = client.connectionEvents.makeAsyncIterator()
        while true {
            while true {
                // The stream ends only when the client is shut down: the check was cancelled.
                guard let event = await events.next() else { throw CancellationError() }
                if case .connected = event { break }
                if case .connectFailed(let error, let retryIn) = event, !reported {
                    logger.warning(
                        "waiting for the broker before checking the bridge name",
                        metadata: ["error": "\(error)", "retry_in": "\(retryIn)"])
                    reported = true
                }
            }
            try Task.checkCancellation()
            // The broker sends the retained state and info before it acknowledges their subscription, and then a
            // message of the check's own in the order it was published. The acknowledgement reaches this task on
            // another path than the messages do: the check's own message, once in the mailbox, says that
            // everything the broker sent before it is there too.
            let barrier = mailbox.barrierTopic
            guard
                try await client.subscribeAcknowledged(
                    [topics.bridgeState, topics.bridgeInfo, barrier], qos: .atMostOnce),
                try await client.subscribeAcknowledged([topics.response("devices")], qos: .atMostOnce)
            else { continue }
            let token = String(UInt64.random(in: 1...UInt64.max))
            try await client.publish(topic: barrier, payload: Array(token.utf8), retain: false, qos: .atLeastOnce)
            if await !mailbox.waitForBarrier(token: token, timeout: barrierTimeout) {
                logger.warning("the broker did not echo the name check's own message; checking with what arrived")
            }
            return try await verdict(client: client, mailbox: mailbox)
        }
    }

    private func verdict(client: MQTTClient, mailbox: Mailbox) async throws -> Verdict {
        let topics = configuration.topics
        let name = "bridge name \"\(configuration.bridge.name)\" on broker \(options)"
        guard await mailbox.state == "online" else { return .free(note: nil) }
        let announced = Self.process(in: await mailbox.info)
        if let (process, _, started) = announced, own.sharesProcesses(with: process) {
            if ProcessIdentity.isRunning(process) {
                return .inUse(
                    "\(name) is in use: the bridge runs as pid \(process.pid) on this machine (\(process.host))"
                        + (started.map { ", started \($0)" } ?? "")
                        + "; give this bridge another [bridge] name, or stop that one")
            }
            return .free(note: "its last run, pid \(process.pid) on this machine, has ended (its last will was due)")
        }
        if let (process, _, _) = announced, own.ranBeforeThisBoot(process) {
            // A power cut takes a broker on the same machine down with the bridge, and a broker that keeps its
            // retained messages on disk comes back with the `online` whose will it never published.
            return .free(note: "its last run, pid \(process.pid), was on this machine before it restarted")
        }
        let limit = answerTimeout
        let who =
            announced.map {
                "host \($0.identity.host), pid \($0.identity.pid)" + ($0.started.map { ", started \($0)" } ?? "")
            }
            ?? "no info on who runs it"
        logger.notice(
            "\(name) is online (\(who)); asking it, and waiting up to \(limit) for an answer or its last will")
        let transaction = "name-check-\(own.host)-\(own.pid)"
        try await client.publish(
            topic: topics.request("devices"), payload: Array(#"{"transaction":"\#(transaction)"}"#.utf8), retain: false,
            qos: .atLeastOnce)
        switch await mailbox.wait(for: transaction, timeout: limit) {
        case .answered:
            return .inUse(
                "\(name) is in use: the bridge on \(who) answers; give this bridge another [bridge] name, or stop that one"
            )
        case .offline:
            return .free(note: "its last will arrived (\(who))")
        case .timedOut:
            return .free(
                note: "a stale online (\(who)) neither answered nor went offline within \(limit): taking over the name")
        }
    }

    private var options: String { "\(configuration.mqtt.host):\(configuration.mqtt.port)" }
}

/// What the check's connection received: the name's retained state and info, and the answers to its request.
private actor Mailbox {
    enum Outcome { case answered, offline, timedOut }

    private(set) var state: String?
    private(set) var info: JSONValue?
    private var answered: Set<String> = []
    private var waiter: (transaction: String, continuation: CheckedContinuation<Outcome, Never>)?
    /// The check's own topic: its message there comes after everything the broker sent before it.
    nonisolated let barrierTopic: String
    private var barrier: (token: String, continuation: CheckedContinuation<Bool, Never>)?
    private var arrivedBarriers: Set<String> = []

    init(barrierTopic: String) { self.barrierTopic = barrierTopic }

    func deliver(_ message: MQTTMessage) {
        if message.topic == barrierTopic {
            arrivedBarriers.insert(message.text)
            if let barrier, message.text == barrier.token {
                barrier.continuation.resume(returning: true)
                self.barrier = nil
            }
            return
        }
        if message.topic.hasSuffix("/state") {
            state = message.text
        } else if message.topic.hasSuffix("/info") {
            info = try? JSONValue.parse(message.payload)
        } else if case .string(let transaction)? = (try? JSONValue.parse(message.payload))?["transaction"] {
            answered.insert(transaction)
        }
        guard let waiter else { return }
        if answered.contains(waiter.transaction) {
            finish(.answered)
        } else if state != "online" {
            finish(.offline)
        }
    }

    /// Waits until the message `token` on `barrierTopic` arrives (true), or `timeout` passes (false).
    func waitForBarrier(token: String, timeout: Duration) async -> Bool {
        if arrivedBarriers.contains(token) { return true }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: timeout)
                await self.releaseBarrier()
            }
            let arrived = await withCheckedContinuation { barrier = (token, $0) }
            group.cancelAll()
            return arrived
        }
    }

    private func releaseBarrier() {
        barrier?.continuation.resume(returning: false)
        barrier = nil
    }

    /// Waits until the answer to `transaction` arrives, the state is no longer `online`, or `timeout` passes.
    func wait(for transaction: String, timeout: Duration) async -> Outcome {
        if answered.contains(transaction) { return .answered }
        if state != "online" { return .offline }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await Task.sleep(for: timeout)
                await self.finish(.timedOut)
            }
            let outcome = await withCheckedContinuation { waiter = (transaction, $0) }
            group.cancelAll()
            return outcome
        }
    }

    private func finish(_ outcome: Outcome) {
        waiter?.continuation.resume(returning: outcome)
        waiter = nil
    }
}
