import Foundation

/// Rows of text as aligned columns, two spaces apart, without spaces at either end: the tables
/// every terminal report prints.
public enum TextTable {
    public static func lines(_ rows: [[String]]) -> [String] {
        guard let first = rows.first else { return [] }
        let widths = first.indices.map { column in rows.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }

    /// The lines joined, with a final newline.
    public static func text(_ rows: [[String]]) -> String { lines(rows).joined(separator: "\n") + "\n" }
}
