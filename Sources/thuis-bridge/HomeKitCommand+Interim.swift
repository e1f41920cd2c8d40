import BridgeCore
import FoundationEssentials
internal import Glibc
import HomeKit
internal import SystemSupport
import TOMLKit

// INTERIM, for the lead to switch over: the `[homekit]` section belongs to BridgeConfiguration (branch hk-model)
// and the pairing file's format to HomeKitStore (branch hk-server). Until they are merged this file reads the raw
// TOML keys and a pairing file of the shape below; replace `HomeKitSettings.read` with the loaded
// configuration's section and `PairingFileState` with the store.

/// The `[homekit]` keys the command needs.
struct HomeKitSettings {
    var setupCode: SetupCode
    var pairingFile: String

    /// `homekit.setup_code` (required, validated) and `homekit.pairing_file` (default: `homekit-pairings.json` in
    /// `zwave.state_dir`, itself `/var/lib/thuis-bridge` by default), from the raw TOML.
    static func read(configurationFile path: String) throws(HomeKitCommandError) -> HomeKitSettings {
        let text: String
        do {
            text = try readTextFile(path)
        } catch {
            throw .configuration("\(path): cannot read it: \(error)")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch {
            throw .configuration("\(path): not valid TOML: \(error)")
        }
        guard let homekit = table["homekit"]?.table else {
            throw .configuration("\(path): no [homekit] section: add one with setup_code = \"XXX-XX-XXX\"")
        }
        guard let codeText = homekit["setup_code"]?.string else {
            throw .configuration("\(path): homekit.setup_code is missing (a string \"XXX-XX-XXX\")")
        }
        let code: SetupCode
        do {
            code = try SetupCode(codeText)
        } catch {
            throw .configuration("\(path): homekit.setup_code: \(error.description)")
        }
        let stateDirectory = table["zwave"]?.table?["state_dir"]?.string ?? "/var/lib/thuis-bridge"
        let pairingFile = homekit["pairing_file"]?.string ?? stateDirectory + "/homekit-pairings.json"
        return HomeKitSettings(setupCode: code, pairingFile: pairingFile)
    }
}

/// The pairing file: `{"setup_id": "7OSX", "pairings": [{"id": "...", "admin": true, "public_key": "..."}]}`;
/// other members are kept as they are when the pairings are removed.
struct PairingFileState {
    struct Pairing {
        var id: String
        var admin: Bool
    }

    var setupID: String?
    var pairings: [Pairing]
    /// The whole document, written back by `write`.
    var document: [(String, JSONValue)]

    /// The state, or nil when the file does not exist (the bridge never ran with HomeKit).
    static func read(_ path: String) throws(HomeKitCommandError) -> PairingFileState? {
        let text: String
        do {
            text = try readTextFile(path)
        } catch .noSuchFile {
            return nil
        } catch {
            throw .pairingFile("\(path): cannot read the pairing file: \(error)")
        }
        guard case .object(let members) = try? JSONValue.parse(Array(text.utf8)) else {
            throw .pairingFile("\(path): the pairing file is not a JSON object")
        }
        var pairings: [Pairing] = []
        if case .array(let entries)? = JSONValue.object(members)["pairings"] {
            for entry in entries {
                guard case .string(let id)? = entry["id"] else {
                    throw .pairingFile("\(path): a pairing without a controller id")
                }
                let admin = if case .bool(true)? = entry["admin"] { true } else { false }
                pairings.append(Pairing(id: id, admin: admin))
            }
        }
        var setupID: String?
        if case .string(let id)? = JSONValue.object(members)["setup_id"] { setupID = id }
        return PairingFileState(setupID: setupID, pairings: pairings, document: members)
    }

    /// The same state without any pairing.
    func removingPairings() -> PairingFileState {
        var document = self.document.filter { $0.0 != "pairings" }
        document.append(("pairings", .array([])))
        return PairingFileState(setupID: setupID, pairings: [], document: document)
    }

    /// Writes the document to `path` atomically (a temporary file renamed over it), mode 0600.
    func write(_ path: String) throws(HomeKitCommandError) {
        let temporary = path + ".tmp"
        let bytes = Array((JSONValue.object(document).serialized + "\n").utf8)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .pairingFile("\(path): cannot write the pairing file: \(String(cString: strerror(errno)))")
        }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .pairingFile("\(path): cannot write the pairing file: \(String(cString: strerror(errno)))")
        }
    }
}
