import BridgeCore
internal import Glibc
import HomeKit

/// The `[homekit]` settings the command needs, from the configuration as the daemon loads it.
struct HomeKitSettings {
    var setupCode: SetupCode
    var pairingFile: String
    var port: Int

    static func read(configurationFile path: String) throws(HomeKitCommandError) -> HomeKitSettings {
        let configuration: BridgeConfiguration
        do {
            configuration = try ConfigurationLoader.load(path: path)
        } catch {
            throw .configuration("\(path): \(error.description)")
        }
        guard let section = configuration.homeKit, let setting = section.setupCode else {
            throw .configuration("\(path): no [homekit] section with a setup_code = \"XXX-XX-XXX\"")
        }
        let text: String
        do {
            text = try setting.read()
        } catch {
            throw .configuration("\(path): \(setting.keyPath): \(error)")
        }
        do {
            return HomeKitSettings(setupCode: try SetupCode(text), pairingFile: section.pairingFile, port: section.port)
        } catch {
            throw .configuration("\(path): \(setting.keyPath): \(error.description)")
        }
    }
}

/// The pairing file as the bridge keeps it (``HomeKitStore``): its setup id and paired controllers.
struct PairingFileState {
    struct Pairing {
        var id: String
        var admin: Bool
    }

    let store: HomeKitStore
    var setupID: String? { store.setupID }
    var pairings: [Pairing] { store.pairings.map { Pairing(id: $0.identifier, admin: $0.isAdmin) } }

    /// The state, or nil when the file does not exist (the bridge never ran with HomeKit): nothing is created.
    static func read(_ path: String) throws(HomeKitCommandError) -> PairingFileState? {
        guard access(path, F_OK) == 0 else { return nil }
        do {
            return PairingFileState(store: try HomeKitStore(path: path))
        } catch {
            throw .pairingFile(error.description)
        }
    }

    /// Removes every pairing (and the failed attempts), written at once.
    func removeAllPairings() throws(HomeKitCommandError) {
        do {
            try store.removeAllPairings()
        } catch {
            throw .pairingFile(error.description)
        }
    }
}

/// Whether something accepts TCP connections on 127.0.0.1:`port` (a running bridge's HAP server).
func isListeningLocally(port: Int) -> Bool {
    guard let port16 = UInt16(exactly: port) else { return false }
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port16.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}
