/// The isolation domain of the Z-Wave side of the bridge: `ZWaveBackend` and the types it hands state to
/// (`ReportWaiter`, `ConfigurationApplier`, the device quirks in `Quirks/`).
///
/// Separate types, one domain: a report's attribution to an endpoint, the count that confirms a command and a
/// command's attribution window change in one synchronous step, as when they were the fields of one actor, and
/// each type's tasks (timeouts, debounced sweeps) reach its state without a hop.
@globalActor
public actor ZWaveBackendActor {
    public static let shared = ZWaveBackendActor()

    private init() {}
}
