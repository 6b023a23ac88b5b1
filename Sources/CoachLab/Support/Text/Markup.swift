import Foundation

/// The one escaping and encoding every report shares.
public enum Markup {
    /// Text safe inside XML and HTML, in elements and in quoted attributes: `&`, `<`, `>`, `"`
    /// and `'` become entities, and control characters XML 1.0 cannot hold (all below U+0020
    /// except tab, line feed and carriage return) are dropped.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if scalar.value < 0x20, scalar != "\n", scalar != "\t", scalar != "\r" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension JSONEncoder {
    /// An encoder with sorted keys and unescaped slashes, so the same value always gives the
    /// same bytes; pretty-printed when asked.
    public static func sorted(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
