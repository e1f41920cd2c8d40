internal import Crypto

/// The DNS-SD TXT records of `_hap._tcp` (HAP specification, Bonjour).
public enum HAPAdvertisement {
    /// `c#` configuration number, `ff` feature flags (0: no MFi), `id` device id, `md` model name, `pv` protocol
    /// version, `s#` state number (1), `sf` status flags (1 while unpaired), `ci` category, `sh` setup hash.
    public static func txt(
        name: String, deviceID: String, configurationNumber: Int, isPaired: Bool, category: UInt8, setupID: String
    ) -> [(String, String)] {
        [
            ("c#", String(configurationNumber)), ("ff", "0"), ("id", deviceID), ("md", name), ("pv", "1.1"),
            ("s#", "1"), ("sf", isPaired ? "0" : "1"), ("ci", String(category)),
            ("sh", setupHash(setupID: setupID, deviceID: deviceID)),
        ]
    }

    /// Base64 of the first four bytes of SHA-512(setup id + device id).
    public static func setupHash(setupID: String, deviceID: String) -> String {
        base64(Array(SHA512.hash(data: Array((setupID + deviceID).utf8)).prefix(4)))
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = Array(bytes[start..<min(start + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for index in 0..<4 {
                out.append(index <= chunk.count ? alphabet[value >> (18 - 6 * index) & 0x3F] : "=")
            }
        }
        return out
    }
}
