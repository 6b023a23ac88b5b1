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

    /// The kind of key `text` appears to contain, if any.
    static func secretKind(in text: String) -> String? {
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
