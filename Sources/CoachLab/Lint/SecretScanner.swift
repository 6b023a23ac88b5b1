import Foundation

/// Finds strings that look like API keys committed in YAML. The key itself is never
/// repeated in the message: only what kind of key it looks like and where it is.
enum SecretScanner {
    private static let kinds: [(name: String, pattern: String)] = [
        ("an Anthropic API key", #"sk-ant-[A-Za-z0-9_\-]{20,}"#),
        ("an OpenAI-style API key", #"sk-(proj-|svcacct-|or-v1-)?[A-Za-z0-9_\-]{20,}"#),
        ("a Google API key", #"AIza[0-9A-Za-z_\-]{35}"#),
        ("a GitHub token", #"gh[pousr]_[A-Za-z0-9]{36,}"#),
        ("an AWS access key id", #"AKIA[0-9A-Z]{16}"#),
        ("a Stripe secret key", #"[sr]k_live_[0-9A-Za-z]{16,}"#),
        ("a Slack token", #"xox[abprs]-[0-9A-Za-z\-]{10,}"#),
        ("a bearer token", #"[Bb]earer\s+[A-Za-z0-9_\-\.=]{30,}"#),
    ]

    private static let expressions: [(String, NSRegularExpression)] = kinds.compactMap { kind in
        (try? NSRegularExpression(pattern: kind.pattern)).map { (kind.name, $0) }
    }

    /// Text that each pattern above needs, matched before any regular expression runs: almost
    /// no scalar holds one, and a lint scans every scalar of every file.
    private static let anchors: [[UInt8]] = ["sk-", "AIza", "gh", "AKIA", "k_live_", "xox", "earer"].map { Array($0.utf8) }

    /// Whether `text` holds one of ``anchors``.
    static func mayHoldSecret(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // Every anchor is at least two bytes long.
            for start in 0..<max(0, bytes.count - 1) {
                for anchor in anchors where anchor[0] == bytes[start] && anchor[1] == bytes[start + 1] {
                    if start + anchor.count <= bytes.count, anchor.indices.allSatisfy({ bytes[start + $0] == anchor[$0] }) { return true }
                }
            }
            return false
        }
    }

    /// The kind of key `text` appears to contain, if any.
    static func secretKind(in text: String) -> String? {
        guard mayHoldSecret(text) else { return nil }
        let range = NSRange(location: 0, length: (text as NSString).length)
        return expressions.first { $0.1.firstMatch(in: text, range: range) != nil }?.0
    }

    /// Reports every scalar in `value` that looks like it holds a key.
    static func scan(_ value: YAMLValue, into diagnostics: inout Diagnostics) {
        for text in value.texts {
            guard let kind = secretKind(in: text.value) else { continue }
            diagnostics.error("this looks like \(kind) committed in YAML", at: text.location,
                              hint: "remove it and rotate the key; CoachLab reads keys from environment variables only")
        }
    }
}
