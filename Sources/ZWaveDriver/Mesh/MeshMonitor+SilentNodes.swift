internal import BridgeCore
internal import FoundationEssentials
internal import Logging

/// `ping_silent_after`: a mains-powered node that has not reported for that long gets one NoOperation frame; when it
/// is not acknowledged the node is dead (`node_dead`, its devices offline), as after a failed Set. Battery nodes
/// sleep between wake-ups and are never pinged.
extension MeshMonitor {
    /// Checks for silent nodes every quarter of `silence` (at least every second, at most every minute) until
    /// cancelled.
    func pingSilentNodes(after silence: Duration) async {
        let interval = min(max(silence / 4, .seconds(1)), .seconds(60))
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard !Task.isCancelled, await driver.isReady, sessions.session == nil, !healthCheckRunning else {
                continue
            }
            let controller = await driver.controllerNode
            for node in interview.knownNodes.sorted(by: { $0.rawValue < $1.rawValue }) where node != controller {
                await pingIfSilent(node, silence: silence)
            }
        }
    }

    /// One NoOperation frame to `node` if it is a mains-powered node, alive, silent for `silence`.
    func pingIfSilent(_ node: NodeID, silence: Duration) async {
        let now = ContinuousClock.now
        let since = [interview.lastReport(node) ?? listeningSince, pingedAt[node]].compactMap { $0 }.max() ?? now
        let quiet = now - since
        guard quiet >= silence, sessions.session == nil, !healthCheckRunning,
            let info = try? await driver.nodeInfo(node), info.isListening, !info.isFailed
        else { return }
        pingedAt[node] = now
        switch await ping(node) {
        case .unsent, .neverSent:  // never left: nothing said about the node
            return
        case .acknowledged:
            interview.noteSeen(node)
            router.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: true))
            return
        case .failed:
            break
        }
        logger.warning(
            "a silent node did not acknowledge a NoOperation frame: dead",
            metadata: ["node": "\(node.rawValue)", "silent_s": "\(quiet.components.seconds)"])
        router.yield(.availability(.zwave(node: Int(node.rawValue), instance: nil), online: false))
        reports.wakeWaiters(of: node)
    }
}
