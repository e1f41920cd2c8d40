/// What this build of thuis-bridge is (Home Assistant's device `sw_version`, the metrics' build info).
public enum BuildInfo {
    /// The release version.
    public static let version = "0.3.0"
}
