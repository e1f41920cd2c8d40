/// HomeKit's TLV8 encoding: a list of (type, value) items, each written as one byte of type, one byte of length
/// and at most 255 bytes of value. A longer value is split into consecutive fragments of the same type, which the
/// reader joins; two different items of the same type in a row are kept apart by a zero-length separator item.
public struct TLV8: Sendable, Hashable {
    /// The item types of pairing (HAP specification, Pair Setup and Pair Verify).
    public enum Tag: UInt8, Sendable, Hashable, CaseIterable {
        case method = 0x00
        case identifier = 0x01
        case salt = 0x02
        case publicKey = 0x03
        case proof = 0x04
        case encryptedData = 0x05
        case state = 0x06
        case error = 0x07
        case retryDelay = 0x08
        case certificate = 0x09
        case signature = 0x0A
        case permissions = 0x0B
        case fragmentData = 0x0C
        case fragmentLast = 0x0D
        case flags = 0x13
        case separator = 0xFF
    }

    /// A malformed TLV8 buffer.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
    }

    /// The items in order; fragments are joined, separators dropped.
    public private(set) var items: [(type: UInt8, value: [UInt8])]

    public init() { items = [] }

    public init(_ items: [(Tag, [UInt8])]) {
        self.items = items.map { (type: $0.0.rawValue, value: $0.1) }
    }

    /// Decodes `bytes`; a truncated item (its length runs past the end) is an error.
    public init(decoding bytes: some Collection<UInt8>) throws(DecodingError) {
        let bytes = Array(bytes)
        var items: [(type: UInt8, value: [UInt8])] = []
        var index = 0
        var lastWasFull = false
        while index < bytes.count {
            guard index + 1 < bytes.count else {
                throw DecodingError(description: "TLV8: an item's length byte is missing at offset \(index)")
            }
            let type = bytes[index]
            let length = Int(bytes[index + 1])
            let start = index + 2
            guard start + length <= bytes.count else {
                throw DecodingError(
                    description: "TLV8: item of type \(type) claims \(length) bytes, \(bytes.count - start) remain")
            }
            let value = bytes[start..<start + length]
            if type == Tag.separator.rawValue {  // not data: it only ends the item before it
                lastWasFull = false
                index = start + length
                continue
            }
            if lastWasFull, let last = items.last, last.type == type {
                items[items.count - 1].value += value
            } else {
                items.append((type: type, value: Array(value)))
            }
            lastWasFull = length == 255
            index = start + length
        }
        self.items = items
    }

    /// The first value of `tag`, if any.
    public subscript(tag: Tag) -> [UInt8]? {
        items.first { $0.type == tag.rawValue }?.value
    }

    /// The one-byte value of `tag` (`state`, `method`, `error`...), if it is there and one byte long.
    public func byte(_ tag: Tag) -> UInt8? {
        guard let value = self[tag], value.count == 1 else { return nil }
        return value[0]
    }

    public mutating func append(_ tag: Tag, _ value: [UInt8]) {
        items.append((type: tag.rawValue, value: value))
    }

    /// The encoded bytes: values over 255 bytes fragmented, a separator between adjacent items of one type.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        var previousType: UInt8?
        for item in items {
            if item.type == previousType {
                out += [Tag.separator.rawValue, 0]
            }
            var rest = item.value[...]
            repeat {
                let chunk = rest.prefix(255)
                out.append(item.type)
                out.append(UInt8(chunk.count))
                out += chunk
                rest = rest.dropFirst(chunk.count)
            } while !rest.isEmpty
            previousType = item.type
        }
        return out
    }

    public static func == (lhs: TLV8, rhs: TLV8) -> Bool {
        lhs.items.count == rhs.items.count
            && zip(lhs.items, rhs.items).allSatisfy { $0.type == $1.type && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for item in items {
            hasher.combine(item.type)
            hasher.combine(item.value)
        }
    }
}
