internal import CQREncode

/// A QR code's modules, from libqrencode (error correction level L, the smallest version that holds the text,
/// 8-bit mode, case kept: what `qrencode` makes by default).
public struct QRCode: Sendable, Hashable {
    /// The modules row by row, `true` for dark; `size` × `size`, without the quiet zone.
    public let modules: [[Bool]]
    public var size: Int { modules.count }

    /// Why a text could not be encoded.
    public struct EncodingFailed: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(EncodingFailed) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else {
            throw EncodingFailed(description: "libqrencode could not encode \(text.utf8.count) bytes as a QR code")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data
        // Bit 0 of each byte is the module's colour (1 dark); the other bits describe how libqrencode placed it.
        modules = (0..<width).map { row in (0..<width).map { column in (data?[row * width + column] ?? 0) & 1 == 1 } }
    }

    /// The code drawn for a terminal, two module rows per line with the half blocks `▀`, `▄` and `█`, inside a
    /// light quiet zone of `quietZone` modules.
    ///
    /// With `colors` (the default) each line sets a black background and a white foreground explicitly, and the
    /// blocks draw the light modules: the code reads the same on a dark and a light terminal. Without `colors`
    /// (output that is not a terminal) the blocks draw the light modules in the terminal's own colours, which is
    /// right on a dark terminal only.
    public func rendered(quietZone: Int = 4, colors: Bool = true) -> String {
        let margin = max(0, quietZone)
        let width = size + 2 * margin
        let light: (Int, Int) -> Bool = { row, column in
            let r = row - margin
            let c = column - margin
            guard r >= 0, r < size, c >= 0, c < size else { return true }
            return !modules[r][c]
        }
        var lines: [String] = []
        for row in stride(from: 0, to: width, by: 2) {
            var line = colors ? "\u{1B}[97;40m" : ""
            for column in 0..<width {
                let top = light(row, column)
                // An odd total height leaves the last line's lower half outside the code: drawn dark (background).
                let bottom = row + 1 < width && light(row + 1, column)
                line += top ? (bottom ? "█" : "▀") : (bottom ? "▄" : " ")
            }
            lines.append(line + (colors ? "\u{1B}[0m" : ""))
        }
        return lines.joined(separator: "\n")
    }
}
