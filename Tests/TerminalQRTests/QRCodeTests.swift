import Foundation
import IntegrationSupport
import LabSupport
import TerminalQR
import Testing

/// The terminal QR code of a HomeKit setup payload, against libqrencode's own command line (`qrencode`).
struct QRCodeTests {
    static let payload = "X-HM://0023ISYWY1234"

    /// `qrencode -t ASCII -m 0`: two characters per module, `#` dark.
    static func referenceModules(_ text: String) async throws -> [[Bool]] {
        let tool = try #require(ChildProcess.locate("qrencode"), "install qrencode (apt-get install qrencode)")
        let output = try await ChildProcess.run(tool, ["-t", "ASCII", "-m", "0", text])
        return output.split(separator: "\n").map { line in
            stride(from: 0, to: line.count, by: 2).map { line[line.index(line.startIndex, offsetBy: $0)] == "#" }
        }
    }

    /// Reads a rendering back into modules (dark = not light), dropping the quiet zone and the colour codes.
    static func modules(fromRendering text: String, quietZone: Int) -> (modules: [[Bool]], quietZoneLight: Bool) {
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n") {
            let plain = line.replacingOccurrences(of: "\u{1B}[97;40m", with: "")
                .replacingOccurrences(of: "\u{1B}[0m", with: "")
            var top: [Bool] = []
            var bottom: [Bool] = []
            for character in plain {
                top.append(character == "█" || character == "▀")
                bottom.append(character == "█" || character == "▄")
            }
            rows += [top, bottom]
        }
        let width = rows.first?.count ?? 0
        let size = width - 2 * quietZone
        let light = rows.prefix(width)
        let zone = light.enumerated().allSatisfy { row, cells in
            cells.enumerated().allSatisfy { column, isLight in
                let inside =
                    (quietZone..<quietZone + size).contains(row) && (quietZone..<quietZone + size).contains(column)
                return inside || isLight
            }
        }
        let code = light.dropFirst(quietZone).prefix(size).map {
            Array($0.dropFirst(quietZone).prefix(size)).map { !$0 }
        }
        return (code, zone)
    }

    @Test func theMatrixEqualsQrencodes() async throws {
        let code = try QRCode(Self.payload)
        let reference = try await Self.referenceModules(Self.payload)
        #expect(code.size == reference.count)
        #expect(code.modules == reference)
    }

    @Test(arguments: [true, false]) func theRenderingDrawsTheSameModulesInsideALightQuietZone(colors: Bool) async throws
    {
        let code = try QRCode(Self.payload)
        let text = code.rendered(quietZone: 4, colors: colors)
        let lines = text.split(separator: "\n")
        // Two module rows per line: (size + 8) rows, rounded up.
        #expect(lines.count == (code.size + 8 + 1) / 2)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[97;40m") == colors })
        let (modules, zoneLight) = Self.modules(fromRendering: text, quietZone: 4)
        #expect(zoneLight, "the quiet zone has dark cells")
        #expect(modules == (try await Self.referenceModules(Self.payload)))
    }
}
