import LabSupport

extension MosquittoBroker {
    /// The benchmark's broker: persistence off, errors and warnings logged to `mosquitto-<port>.log` in the run
    /// directory (beside its config), and a queue deep enough for the floods the scenarios send.
    static func bench(directory: BenchDirectory) async throws -> MosquittoBroker {
        try await start(
            Options(
                logTypes: ["error", "warning"], extraConfig: ["max_queued_messages 100000"],
                directory: directory.path, logToFile: true))
    }
}
