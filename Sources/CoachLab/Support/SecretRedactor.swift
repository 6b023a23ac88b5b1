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
    /// names with a part (split at `_`, `-` and `.`, any case) such as KEY, APIKEY, TOKEN,
    /// SECRET, PASSWORD or CREDENTIALS: `OPENAI_API_KEY`, `GITHUB_TOKEN`, `db.password`, but not
    /// `MONKEY`. Values that are ordinary words (`true`, `none`…) are not secrets and are kept.
    public static func environment(_ environment: [String: String], adding extra: [String?] = []) -> SecretRedactor {
        let markers: Set<String> = ["KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "CREDENTIAL", "CREDENTIALS", "AUTH"]
        let ordinary: Set<String> = ["true", "false", "yes", "none", "null", "unset", "unused", "changeme"]
        let values = environment.filter { name, value in
            let parts = name.uppercased().split { $0 == "_" || $0 == "-" || $0 == "." }
            return parts.contains { markers.contains(String($0)) } && !ordinary.contains(value.lowercased())
        }.map(\.value)
        return SecretRedactor(secrets: values + extra)
    }

    /// Whether there is nothing to redact.
    public var isEmpty: Bool { secrets.isEmpty }

    /// The longest secret's length in characters; 0 when there are none.
    public var longest: Int { secrets.first?.count ?? 0 }

    /// `text` with every secret, in any case, replaced by ``replacement``.
    public func redact(_ text: String) -> String {
        guard !secrets.isEmpty, !text.isEmpty else { return text }
        var result = text
        for secret in secrets where result.range(of: secret, options: .caseInsensitive) != nil {
            result = result.replacingOccurrences(of: secret, with: Self.replacement, options: .caseInsensitive)
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
