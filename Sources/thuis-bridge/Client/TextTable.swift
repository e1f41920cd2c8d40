internal import SystemSupport

/// A table for the terminal: a header line and one line per row, columns aligned with two spaces between them
/// (the last column unpadded).
enum TextTable {
    static func render(_ headers: [String], _ rows: [[String]]) -> String {
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 || index >= widths.count ? cell : cell.padded(toWidth: widths[index])
            }.joined(separator: "  ") + "\n"
        }
        return ([line(headers)] + rows.map(line)).joined()
    }
}
