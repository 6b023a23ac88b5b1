import Foundation

/// A model's reply to a ``StructuredTask``, parsed and checked.
///
/// Parsing is strict first. When the text is not JSON as it stands, a small set of repairs
/// is tried, each one named in ``repairs``: a Markdown code fence around the object, prose
/// before or after it (the outermost `{…}` is kept), and commas before a closing bracket; and
/// for a rotation summary, whose content is prose anyway, a prose reply is taken as the
/// summary. Nothing else is guessed; a reply that still does not parse is reported as not JSON.
public struct StructuredReply: Sendable, Hashable {
    /// The parsed value, when the reply (repaired or not) is JSON.
    public var value: JSONValue?
    /// The repairs that made it parse, in order; empty when it parsed as sent.
    public var repairs: [String]
    /// Every problem, field by field (`$.framework.phases has 2 items; at least 3 required`);
    /// empty when the reply is valid.
    public var problems: [String]

    /// Whether the reply can be used.
    public var isValid: Bool { value != nil && problems.isEmpty }

    /// Parses and validates `text` for `task`.
    public init(_ text: String, task: StructuredTask) {
        var (value, repairs, failure) = Self.parse(text)
        let prose = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if value == nil, task.kind == .summary, !prose.isEmpty, !prose.hasPrefix("{") {
            // A summary is prose: a provider that cannot write JSON (a canned one, a base
            // model) still gives a usable one.
            value = ["summary": .string(prose)]
            repairs.append("took the prose reply as the summary")
        }
        self.value = value
        self.repairs = repairs
        if let value {
            problems = task.validate(value)
        } else {
            problems = [failure ?? "$: the reply is not JSON"]
        }
    }

    /// Parses JSON, repairing what can be repaired.
    /// - Returns: The value, the repairs made, and why it failed when it did.
    public static func parse(_ text: String) -> (JSONValue?, [String], String?) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let value = try? JSONValue.parse(Data(trimmed.utf8)) { return (value, [], nil) }
        var repairs: [String] = []
        var candidate = trimmed
        if let fenced = unfenced(candidate) {
            candidate = fenced
            repairs.append("removed a Markdown code fence")
            if let value = try? JSONValue.parse(Data(candidate.utf8)) { return (value, repairs, nil) }
        }
        if let open = candidate.firstIndex(of: "{"), let close = candidate.lastIndex(of: "}"), open < close {
            let inner = String(candidate[open...close])
            if inner.count != candidate.count {
                repairs.append("removed text around the JSON object")
                candidate = inner
            }
            if let value = try? JSONValue.parse(Data(candidate.utf8)) { return (value, repairs, nil) }
            let uncommaed = withoutTrailingCommas(candidate)
            if uncommaed != candidate, let value = try? JSONValue.parse(Data(uncommaed.utf8)) {
                return (value, repairs + ["removed trailing commas"], nil)
            }
            return (nil, repairs, "$: the reply has a JSON object that does not parse (\(parseError(candidate)))")
        }
        let opening = String(trimmed.prefix(60)).replacingText("\n", with: " ")
        return (nil, repairs, trimmed.isEmpty ? "$: the reply is empty" : "$: the reply is prose, not JSON: \"\(opening)\(trimmed.count > 60 ? "…" : "")\"")
    }

    /// The body of a ```` ```json … ``` ```` fence, when the text has one.
    static func unfenced(_ text: String) -> String? {
        guard let open = text.range(of: "```") else { return nil }
        let afterOpen = text[open.upperBound...]
        guard let newline = afterOpen.firstIndex(of: "\n"),
              let close = afterOpen[newline...].range(of: "```") else { return nil }
        return String(afterOpen[newline..<close.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The text with every comma that precedes `}` or `]` (spaces between) removed, outside strings.
    static func withoutTrailingCommas(_ text: String) -> String {
        var output: [Character] = []
        var inString = false, escaped = false
        var pendingComma: Int?
        for character in text {
            if inString {
                output.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"":
                inString = true
                pendingComma = nil
                output.append(character)
            case ",":
                pendingComma = output.count
                output.append(character)
            case "}", "]":
                if let comma = pendingComma { output.remove(at: comma) }
                pendingComma = nil
                output.append(character)
            case " ", "\n", "\t", "\r":
                output.append(character)
            default:
                pendingComma = nil
                output.append(character)
            }
        }
        return String(output)
    }

    private static func parseError(_ text: String) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(text.utf8))
            return "unknown error"
        } catch {
            let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            return description.split(separator: "\n").first.map(String.init) ?? description
        }
    }
}
