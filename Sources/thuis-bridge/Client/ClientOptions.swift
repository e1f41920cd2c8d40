import ArgumentParser
import BridgeCore

/// The options every client command shares: the devices.toml that names the broker and the bridge.
struct ClientOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "The configuration file (it names the broker and the bridge).")
    var config: String = "devices.toml"

    /// Loads the configuration; a bad file is a configuration error (exit 2).
    func load() throws(ClientError) -> BridgeConfiguration {
        do {
            return try ConfigurationLoader.load(path: config)
        } catch {
            throw .configuration("\(config): \(error.description)")
        }
    }
}
