import Foundation

/// Removes secrets from text before it is shown, stored or reported. A provider that echoes
/// the key it was sent (in an error, or in a 200 reply) must not put it in a report, the
/// store, a cassette or the terminal.
///
/// Matching ignores case, so an upper-cased echo is caught too. Secrets shorter than
/// ``minimumLength`` are not redacted: four characters is the shortest that is not ordinary
/// text.
public struct SecretRedactor: Sendable {
    /// The shortest secret redacted.
    public static let minimumLength = 4
    /// What a secret is replaced with.
    public static let replacement = "[redacted]"

    /// The secrets, longest first (so a key that contains another is replaced whole).
    public let secrets: [String]

    /// A redactor for these secrets; nil, empty and too-short ones are ignored.
    public init(secrets: [String?]) {
        let kept = Set(secrets.compactMap { $0 }.filter { $0.count >= Self.minimumLength })
        self.secrets = kept.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// A redactor for the provider's key and every secret-looking variable of the environment:
    /// - names with a part (split at `_`, `-` and `.`, any case) such as KEY, APIKEY, TOKEN,
    ///   SECRET, PASSWORD, PASSPHRASE, CREDENTIALS, AUTH, PAT, PEM, COOKIE or BEARER:
    ///   `OPENAI_API_KEY`, `GITHUB_TOKEN`, `GH_PAT`, `db.password`, but not `MONKEY`;
    /// - names with a part such as SESSION, CERT, PRIVATE, SIGNING or DSN, when the value looks
    ///   random (12 characters or more, no spaces, letters and digits), so `SESSION_NAME=main`
    ///   does not blank every "main";
    /// - values in the shape of a well-known key (`sk-…`, `ghp_…`, `github_pat_…`, `xoxb-…`,
    ///   `AKIA…`, `AIza…`, `glpat-…`), whatever the variable is called;
    /// - the password of a URL (`postgres://user:PASSWORD@host/db`).
    /// Values that are ordinary words (`true`, `none`…) are not secrets and are kept.
    public static func environment(_ environment: [String: String], adding extra: [String?] = []) -> SecretRedactor {
        let markers: Set<String> = ["KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS",
                                    "AUTH", "PAT", "PEM", "COOKIE", "BEARER", "JWT"]
        let weakMarkers: Set<String> = ["SESSION", "CERT", "PRIVATE", "SIGNING", "SIGNATURE", "DSN"]
        let ordinary: Set<String> = ["true", "false", "yes", "none", "null", "unset", "unused", "changeme"]
        var values: [String] = []
        for (name, value) in environment where !ordinary.contains(value.lowercased()) {
            let parts = Set(name.uppercased().split { $0 == "_" || $0 == "-" || $0 == "." }.map(String.init))
            if !parts.isDisjoint(with: markers) || (!parts.isDisjoint(with: weakMarkers) && looksRandom(value)) || looksLikeKey(value) {
                values.append(value)
            }
            if let password = urlPassword(in: value) { values.append(password) }
        }
        return SecretRedactor(secrets: values + extra)
    }

    /// Whether a value looks like a generated secret: 12 characters or more, no spaces, with
    /// letters and digits.
    static func looksRandom(_ value: String) -> Bool {
        value.count >= 12 && !value.contains(where: \.isWhitespace) && value.contains(where: \.isLetter) && value.contains(where: \.isNumber)
    }

    /// Whether a value has the shape of a well-known service's key.
    static func looksLikeKey(_ value: String) -> Bool {
        let prefixes = ["sk-", "sk_live_", "rk_live_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "xoxb-", "xoxp-", "xoxa-", "AKIA", "ASIA", "AIza", "glpat-", "hf_"]
        return value.count >= 16 && !value.contains(where: \.isWhitespace) && prefixes.contains { value.hasPrefix($0) }
    }

    /// The password in a URL's user information (`scheme://user:password@host`), if any.
    static func urlPassword(in value: String) -> String? {
        guard let scheme = value.range(of: "://"), let at = value[scheme.upperBound...].firstIndex(of: "@") else { return nil }
        let userInfo = value[scheme.upperBound..<at]
        guard !userInfo.contains("/"), let colon = userInfo.firstIndex(of: ":") else { return nil }
        let password = String(userInfo[userInfo.index(after: colon)...])
        return password.isEmpty ? nil : password.removingPercentEncoding ?? password
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { secrets.isEmpty }

    /// The longest secret's length in characters; 0 when there are none.
    public var longest: Int { secrets.first?.count ?? 0 }

    /// `text` with every secret, in any case, replaced by ``replacement``: written out whole, or
    /// (a secret of 8 characters or more) broken by spaces or line breaks, as a script that
    /// wraps its output or a reply that spells it out leaves it.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        var result = text
        for secret in secrets where result.range(of: secret, options: .caseInsensitive) != nil {
            result = result.replacingOccurrences(of: secret, with: Self.replacement, options: .caseInsensitive)
        }
        guard result.contains(where: \.isWhitespace) else { return result }
        for secret in secrets where secret.count >= 8 {
            guard let spaced = Self.spacedPattern(secret) else { continue }
            let range = NSRange(result.startIndex..., in: result)
            guard spaced.firstMatch(in: result, range: range) != nil else { continue }
            result = spaced.stringByReplacingMatches(in: result, range: range, withTemplate: NSRegularExpression.escapedTemplate(for: Self.replacement))
        }
        return result
    }

    /// A secret with any run of whitespace allowed between its characters, any case.
    static func spacedPattern(_ secret: String) -> NSRegularExpression? {
        let pattern = secret.map { NSRegularExpression.escapedPattern(for: String($0)) }.joined(separator: #"\s*"#)
        return RegexCache.shared.expression(pattern, caseSensitive: false)
    }

    /// `text` with every secret scrubbed for a file meant to be kept or shared (a cassette, a
    /// cache entry): as ``redact(_:)`` does, and also every run of 8 or more of a secret's
    /// characters, so a key echoed in pieces ("sk-live-Rt5 … YhQ2wXz9KpL") leaves none that
    /// long.
    public func scrubbingFragments(_ text: String, with replacement: String) -> String {
        var result = redact(text).replacingOccurrences(of: Self.replacement, with: replacement)
        for secret in secrets where secret.count >= 12 && !secret.contains(where: \.isWhitespace) {
            let characters = Array(secret)
            for start in 0...(characters.count - 8) {
                let window = String(characters[start..<start + 8])
                if result.range(of: window, options: .caseInsensitive) != nil {
                    result = result.replacingOccurrences(of: window, with: replacement, options: .caseInsensitive)
                }
            }
        }
        return result
    }

    /// Whether `body` holds a secret in a form a reader can put back together: as it is, or
    /// spelled across the string values of a JSON document, or of an event stream's `data:`
    /// events, joined in order field by field (array positions aside). A key a server echoes
    /// one character per streamed event is whole again in `choices.delta.content`.
    public func isExposed(in body: String) -> Bool {
        guard !secrets.isEmpty, !body.isEmpty else { return false }
        if redact(body) != body { return true }
        var documents: [JSONValue] = []
        if let whole = try? JSONValue.parse(Data(body.utf8)) {
            documents = [whole]
        } else {
            for line in body.split(whereSeparator: \.isNewline) where line.hasPrefix("data:") {
                if let event = try? JSONValue.parse(Data(line.dropFirst(5).utf8)) { documents.append(event) }
            }
        }
        var fields: [String: String] = [:]
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .string(let text): fields[path, default: ""] += text
            case .array(let items): for item in items { walk(item, path) }
            case .object(let members): for (key, member) in members { walk(member, path + "." + key) }
            case .null, .bool, .number: break
            }
        }
        for document in documents { walk(document, "") }
        return fields.values.contains { redact($0) != $0 }
    }

    /// A redactor for a stream of pieces: a secret split across pieces is still caught,
    /// because the last `longest - 1` characters are held back until more arrives.
    public struct Stream: Sendable {
        private let redactor: SecretRedactor
        private var pending = ""

        /// A stream redactor.
        public init(_ redactor: SecretRedactor) { self.redactor = redactor }

        /// Takes the next piece; returns what can be shown now (possibly empty).
        public mutating func feed(_ piece: String) -> String {
            guard !redactor.isEmpty else { return piece }
            pending = redactor.redact(pending + piece)
            let keep = redactor.longest - 1
            guard pending.count > keep else { return "" }
            let cut = pending.index(pending.endIndex, offsetBy: -keep)
            defer { pending = String(pending[cut...]) }
            return String(pending[..<cut])
        }

        /// Ends the stream; returns what was held back.
        public mutating func finish() -> String {
            defer { pending = "" }
            return redactor.redact(pending)
        }
    }
}
