import Foundation

/// How often a thread of this process has blocked and been woken again: the voluntary context switches the kernel
/// counts for it (/proc/self/task/<tid>/status). A thread that waits for an event shows none while nothing happens;
/// one that polls on a timer shows one per period.
public enum ThreadWakeups {
    /// The thread's voluntary context switches so far, nil when it is gone.
    public static func count(thread id: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8) else {
            return nil
        }
        for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches") {
            return Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        return nil
    }
}
