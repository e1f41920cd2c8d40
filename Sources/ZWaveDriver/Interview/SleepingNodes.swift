internal import BridgeCore
internal import FoundationEssentials
internal import Logging

/// The battery nodes that sleep between wake-ups (Wake Up command class): whether each is asleep, its wake-up
/// interval, and the verdict on one that stopped waking up.
///
/// A sleeping node is `asleep`, never `offline` for sleeping: the bridge marks its devices asleep when OpenZWave
/// says it fell asleep (it sent Wake Up No More Information, or a frame to it went unanswered and was queued for its
/// wake-up) or when its protocol information says it sleeps and it is not awake, and `online` again at its Wake Up
/// Notification. Commands to it wait in OpenZWave's wake-up queue and go out at its next wake-up.
///
/// It is dead (`node_dead`, its devices `offline`) only when it missed its wake-ups: nothing heard from it for
/// twice its wake-up interval plus ``overdueGrace`` (``isOverdue(silentFor:interval:)``). A node with no timed
/// wake-ups (interval 0) is never declared dead that way. Its next wake-up (or any frame) brings it back.
///
/// Shares the `ZWaveBackendActor` with `ZWaveBackend`, which composes it.
@ZWaveBackendActor
final class SleepingNodes {
    let router: EventRouter
    let interview: InterviewTracker
    let logger: Logger
    /// Nodes known to sleep (their protocol information says so), and which of them sleep now.
    private(set) var sleepers: Set<NodeID> = []
    private(set) var asleep: Set<NodeID> = []
    /// Wake-up intervals in seconds (the Wake Up command class's value), as the node reported them.
    private(set) var intervals: [NodeID: Int] = [:]
    /// Nodes declared dead because they missed their wake-ups, until they are heard again.
    private(set) var overdue: Set<NodeID> = []
    /// Since when the bridge listens: the silence of a node never heard counts from there.
    let listeningSince = ContinuousClock.now

    /// The margin beyond two wake-up intervals before a silent sleeping node is dead.
    nonisolated static let overdueGrace: Duration = .seconds(600)
    /// OpenZWave's value index of the wake-up interval in the Wake Up command class.
    nonisolated static let wakeUp: UInt8 = 0x84
    nonisolated static let intervalIndex: UInt16 = 0

    nonisolated init(
        router: EventRouter, interview: InterviewTracker, logger: Logger
    ) {
        self.router = router
        self.interview = interview
        self.logger = logger
    }

    /// Whether a sleeping node silent for `silence` missed its wake-ups: silent for more than twice its interval
    /// (seconds) plus ``overdueGrace``. Never with no timed wake-ups (`interval` 0 or less).
    nonisolated static func isOverdue(silentFor silence: Duration, interval: Int) -> Bool {
        guard interval > 0 else { return false }
        return silence > .seconds(2 * interval) + overdueGrace
    }

    /// What the node's protocol information says (once received): a node that neither listens nor is frequently
    /// listening sleeps; it is asleep now unless OpenZWave has it awake.
    func identified(_ info: ZWaveNodeInfo) {
        guard info.infoReceived, !info.isListening, !info.isFrequentListening else { return }
        let isNew = sleepers.insert(info.node).inserted
        if isNew { set(info.node, asleep: !info.isAwake) }
    }

    /// OpenZWave's `Awake` notification (the node's Wake Up Notification): it is heard, awake, and alive again if it
    /// had missed its wake-ups.
    func awoke(_ node: NodeID) {
        sleepers.insert(node)
        interview.noteSeen(node)
        heard(node)
        set(node, asleep: false)
    }

    /// OpenZWave's `Sleep` notification.
    func fellAsleep(_ node: NodeID) {
        sleepers.insert(node)
        set(node, asleep: true)
    }

    /// A frame from `node`: a node declared dead for its missed wake-ups is alive again.
    func heard(_ node: NodeID) {
        guard overdue.remove(node) != nil else { return }
        logger.notice("a sleeping node is heard again: alive", metadata: ["node": "\(node.rawValue)"])
        router.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: true))
    }

    /// A value of the node: the Wake Up interval is noted.
    func noteValue(_ value: ZWaveValue) {
        guard value.id.commandClass == Self.wakeUp, value.id.index == Self.intervalIndex else { return }
        switch value.content {
        case .int(let seconds): intervals[value.id.node] = Int(seconds)
        case .short(let seconds): intervals[value.id.node] = Int(seconds)
        default: break
        }
    }

    /// The node left the network.
    func removed(_ node: NodeID) {
        sleepers.remove(node)
        asleep.remove(node)
        intervals[node] = nil
        overdue.remove(node)
    }

    /// Declares dead each sleeping node that missed its wake-ups (``isOverdue(silentFor:interval:)``).
    func checkOverdue(now: ContinuousClock.Instant = .now) {
        for node in sleepers.sorted(by: { $0.rawValue < $1.rawValue }) where !overdue.contains(node) {
            let interval = intervals[node] ?? 0
            let silence = now - (interview.lastReport(node) ?? listeningSince)
            guard Self.isOverdue(silentFor: silence, interval: interval) else { continue }
            overdue.insert(node)
            logger.warning(
                "a sleeping node missed its wake-ups: dead",
                metadata: [
                    "node": "\(node.rawValue)", "interval_s": "\(interval)",
                    "silent_s": "\(silence.components.seconds)",
                ])
            router.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: false))
        }
    }

    /// Checks for overdue sleepers once a minute until cancelled.
    func watchWakeUps() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(60))
            guard !Task.isCancelled else { return }
            checkOverdue()
        }
    }

    private func set(_ node: NodeID, asleep isAsleep: Bool) {
        if isAsleep { asleep.insert(node) } else { asleep.remove(node) }
        router.yield(.sleeping(.zwave(node: Int(node.rawValue), instance: nil), asleep: isAsleep))
    }
}
