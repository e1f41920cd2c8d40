internal import BridgeCore
internal import FoundationEssentials
internal import Logging
internal import SystemSupport

/// The `set_config`s held for sleeping nodes (``PendingParameter``): OpenZWave keeps a command to a sleeping node in
/// its wake-up queue and sends it at the node's Wake Up Notification, but that queue is in memory only. This owner
/// keeps each held command in the state directory (`zwave-pending.json`, written whole, mode 0600) until the node
/// reports the value, and after a restart gives the library the commands again at the node's first wake-up.
///
/// The file is read back as any input from outside: one that is not the bridge's JSON (cut short, garbage) is moved
/// aside (`zwave-pending.json.damaged-<UTC time>`) and the bridge starts with none held (logged as an error); an
/// entry that is not a command the bridge could have held is dropped with a warning.
@ZWaveBackendActor
final class WakeUpQueue {
    nonisolated static let fileName = "zwave-pending.json"
    let path: String
    let logger: Logger
    /// The held commands, oldest first; one per node and parameter (a later `set_config` replaces an earlier one).
    private(set) var held: [PendingParameter] = []
    /// Nodes whose held commands the library has in this run (given with the request, or again at a wake-up).
    private var given: Set<Int> = []

    nonisolated init(directory: String, logger: Logger) {
        path = Path.join(directory, Self.fileName)
        self.logger = logger
    }

    /// Reads the held commands the bridge kept before it stopped (none when there is no file).
    func load(now: Double = Date().timeIntervalSince1970) {
        let text: String
        do {
            text = try readTextFile(path)
        } catch .noSuchFile {
            return
        } catch {
            setAside("cannot be read (\(error))", now: now)
            return
        }
        switch PendingParameter.parseFile(Array(text.utf8)) {
        case .failure(let problem):
            setAside(problem.reason, now: now)
            return
        case .success(let file):
            held = file.commands
            for problem in file.dropped {
                logger.warning(
                    "an entry of the file of held commands was dropped",
                    metadata: ["file": "\(path)", "reason": "\(problem)"])
            }
        }
        if !held.isEmpty {
            logger.notice(
                "commands held for sleeping nodes before the restart: sent at their next wake-up",
                metadata: ["count": "\(held.count)", "nodes": "\(Set(held.map(\.node)).sorted())"])
        }
    }

    /// Holds `command` (the library has it already) and writes the file; a failed write is logged, and the command
    /// still goes out at the node's wake-up unless the bridge restarts before.
    func hold(_ command: PendingParameter) {
        held.removeAll { $0.node == command.node && $0.parameter == command.parameter }
        held.append(command)
        given.insert(command.node)
        save()
    }

    /// A `set_config` sent to an awake node supersedes what was held for that parameter.
    func drop(node: Int, parameter: Int) {
        let count = held.count
        held.removeAll { $0.node == node && $0.parameter == parameter }
        if held.count != count { save() }
    }

    /// The node left the network: what was held for it is moot.
    func removed(node: Int) {
        let count = held.count
        held.removeAll { $0.node == node }
        given.remove(node)
        if held.count != count { save() }
    }

    /// The node woke up: its held commands the library does not have in this run (kept from before a restart), taken
    /// to be given to it now.
    func toGive(node: Int) -> [PendingParameter] {
        guard !given.contains(node) else { return [] }
        given.insert(node)
        return held.filter { $0.node == node }
    }

    /// A report of configuration parameter `parameter` of `node`: the held command for it is done, applied if the
    /// node reports the value asked for.
    func reported(node: Int, parameter: Int, value: Int?) -> BridgeEvent? {
        guard let command = held.first(where: { $0.node == node && $0.parameter == parameter }) else { return nil }
        held.removeAll { $0 == command }
        save()
        if value == command.value { return .pending(command, .applied) }
        return .pending(
            command,
            .failed(
                reported: value,
                reason:
                    "node \(node) reported parameter \(parameter) as \(value.map(String.init) ?? "no number") after "
                    + "its wake-up, not \(command.value)"))
    }

    private func save() {
        do {
            try AtomicFile.write(Array(PendingParameter.fileText(held).utf8), to: path, mode: 0o600)
        } catch {
            logger.error(
                "cannot write the file of held commands: they are lost if the bridge restarts before the nodes wake up",
                metadata: ["file": "\(path)", "error": "\(error)"])
        }
    }

    private func setAside(_ reason: String, now: Double) {
        switch DamagedFile.moveAside(path, secondsSince1970: now) {
        case .success(let aside):
            logger.error(
                "the file of commands held for sleeping nodes is damaged: moved aside, none held",
                metadata: ["file": "\(path)", "reason": "\(reason)", "moved_to": "\(aside)"])
        case .failure(let failure):
            logger.error(
                "the file of commands held for sleeping nodes is damaged and cannot be moved aside: none held",
                metadata: ["file": "\(path)", "reason": "\(reason)", "error": "\(failure)"])
        }
    }
}
