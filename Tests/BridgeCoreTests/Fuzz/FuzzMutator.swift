import BridgeCore
import SystemSupport

/// Byte-level mutations in the style of libFuzzer's: bit flips, byte changes, insertions and removals,
/// interesting bytes and values, dictionary tokens, chunk copies and splices with other corpus entries.
struct FuzzMutator {
    /// Tokens of the input language (topic levels, command words, TOML keys...), inserted or overwritten.
    let dictionary: [[UInt8]]
    /// Mutated inputs are cut to this many bytes.
    let maximumLength: Int

    init(dictionary: [String], maximumLength: Int) {
        self.dictionary = dictionary.map { Array($0.utf8) }
        self.maximumLength = maximumLength
    }

    static let interestingBytes: [UInt8] = [
        0x00, 0x01, 0x09, 0x0A, 0x0D, 0x20, 0x22, 0x23, 0x24, 0x27, 0x2B, 0x2C, 0x2D, 0x2E, 0x2F, 0x30, 0x39,
        0x3A, 0x3D, 0x5B, 0x5C, 0x5D, 0x7B, 0x7D, 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xEF, 0xF0, 0xF4,
        0xF5, 0xFF,
    ]

    static let interestingTexts: [[UInt8]] = [
        "0", "-1", "99", "100", "255", "256", "65535", "65536", "2147483647", "-2147483648",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e308", "1e309", "-0", "0x10",
        "nan", "inf", "\u{FEFF}", "\u{202E}", "\u{1F4A1}", "\\u0000", "\\ud800", "\\udfff", "\"", "'''", "\"\"\"",
        "\r\n", "[[", "]]", "{}", "[]", "#", "+", "/", "//", "$",
    ].map { Array($0.utf8) }

    /// One to four stacked mutations of `input`; `others` are candidates for splicing.
    func mutate(_ input: [UInt8], others: [[UInt8]], using random: inout SeededRandom) -> [UInt8] {
        var bytes = input
        for _ in 0...random.below(4) {
            bytes = mutateOnce(bytes, others: others, using: &random)
        }
        if bytes.count > maximumLength { bytes.removeLast(bytes.count - maximumLength) }
        return bytes
    }

    private func mutateOnce(_ input: [UInt8], others: [[UInt8]], using random: inout SeededRandom) -> [UInt8] {
        var bytes = input
        let position = random.below(bytes.count + 1)
        switch random.below(12) {
        case 0 where !bytes.isEmpty:  // flip a bit
            let index = min(position, bytes.count - 1)
            bytes[index] ^= UInt8(1) << UInt8(random.below(8))
        case 1 where !bytes.isEmpty:  // random byte
            bytes[min(position, bytes.count - 1)] = UInt8(truncatingIfNeeded: random.next())
        case 2:  // insert an interesting byte
            bytes.insert(Self.interestingBytes[random.below(Self.interestingBytes.count)], at: position)
        case 3 where !bytes.isEmpty:  // erase a range
            let length = 1 + random.below(min(8, bytes.count - min(position, bytes.count - 1)))
            let start = min(position, bytes.count - 1)
            bytes.removeSubrange(start..<min(bytes.count, start + length))
        case 4:  // insert a dictionary token
            if !dictionary.isEmpty {
                bytes.insert(contentsOf: dictionary[random.below(dictionary.count)], at: position)
            }
        case 5:  // insert an interesting value
            bytes.insert(contentsOf: Self.interestingTexts[random.below(Self.interestingTexts.count)], at: position)
        case 6 where !bytes.isEmpty:  // duplicate a chunk
            let start = random.below(bytes.count)
            let end = min(bytes.count, start + 1 + random.below(16))
            let chunk = Array(bytes[start..<end])
            bytes.insert(contentsOf: chunk, at: position)
        case 7 where !others.isEmpty:  // splice: our head + another entry's tail
            let other = others[random.below(others.count)]
            let cut = random.below(other.count + 1)
            bytes = Array(bytes.prefix(position)) + other.suffix(from: cut)
        case 8 where !bytes.isEmpty:  // truncate
            bytes.removeSubrange(position..<bytes.count)
        case 9 where bytes.count > 1:  // swap two bytes
            let a = random.below(bytes.count)
            let b = random.below(bytes.count)
            bytes.swapAt(a, b)
        case 10 where !bytes.isEmpty:  // repeat one byte many times (long levels, deep nesting)
            let byte = bytes[random.below(bytes.count)]
            bytes.insert(
                contentsOf: repeatElement(byte, count: 1 + random.below(random.oneIn(8) ? 4_096 : 64)), at: position)
        default:  // overwrite with a dictionary token
            guard !dictionary.isEmpty else { break }
            let token = dictionary[random.below(dictionary.count)]
            let end = min(bytes.count, position + token.count)
            bytes.replaceSubrange(position..<end, with: token)
        }
        return bytes
    }
}
