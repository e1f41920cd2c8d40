/// The PowerNode's attribution windows (`PowerNodeFraming`): one window at a time per node, which commands and
/// sweeps take in turn, and what the holder expects on instance 1: the socket, and during one read of a sweep the
/// value it reads.
@ZWaveBackendActor
final class AttributionWindows {
    /// The socket whose report is expected on instance 1, while a command or a sweep holds the node's window.
    var expectedSocket: [NodeID: UInt8] = [:]
    /// During one read of a sweep: the value it expects (on the socket in `expectedSocket`), and whether its
    /// report arrived. Any other report in that window, or a second one, is not the answer.
    var sweepRead: [NodeID: (commandClass: UInt8, index: UInt16, answered: Bool)] = [:]
    /// One attribution window at a time per node: commands and sweeps take turns.
    private var holders: Set<NodeID> = []
    private var waiters: [NodeID: [CheckedContinuation<Void, Never>]] = [:]

    nonisolated init() {}

    /// Waits until no command or sweep holds `node`'s window, then holds it.
    func open(_ node: NodeID) async {
        guard holders.contains(node) else {
            holders.insert(node)
            return
        }
        await withCheckedContinuation { waiters[node, default: []].append($0) }
    }

    /// Hands the window to the next waiter, or frees it.
    func close(_ node: NodeID) {
        if var waiting = waiters[node], !waiting.isEmpty {
            let next = waiting.removeFirst()
            waiters[node] = waiting.isEmpty ? nil : waiting
            next.resume()
        } else {
            holders.remove(node)
        }
    }
}
