internal import Dispatch
internal import SystemSupport

extension ZWaveStickEmulator {
    /// Makes the link to `node` lossy: `percent` of the frames sent to it get no ACK (the stick reports
    /// TRANSMIT_COMPLETE_NO_ACK, as for a node out of reach, and the node never sees the frame). The draws come from
    /// a generator seeded with `seed` (by default the node id), so a run repeats exactly; 0 makes the link clean.
    public func setLoss(node: UInt8, percent: Int, seed: UInt64? = nil) {
        queue.sync {
            loss[node] = percent <= 0 ? nil : min(percent, 100)
            lossDraws = SeededRandom(seed: seed ?? UInt64(node))
            note("link to node \(node) loses \(percent)% of frames")
        }
    }

    /// Whether the next frame to `node` is lost (on the emulator's queue).
    func dropsFrame(to node: UInt8) -> Bool {
        guard let percent = loss[node] else { return false }
        return lossDraws.below(100) < percent
    }
}
