import Foundation

/// Stage 2 of screening: a model classifies a message against the pack's guarded rules when
/// the keywords found nothing (or always, when the pack says so). This is the pure part: the
/// prompt, the strict parser, and the verdict as a flag. The call itself is a provider's.
public enum StageTwoClassifier {
    /// What the classifier answered.
    public enum Verdict: Sendable, Equatable {
        /// A rule was named, with the model's reason.
        case flagged(ruleId: String, ruleTitle: String, priority: Int, reason: String)
        /// The model said the message crosses no boundary.
        case safe
        /// The answer could not be parsed; never read as safe.
        case unknown(String)
    }

    /// The first line of the classifier's instructions (the mock recognises it).
    public static let marker = "You screen one message sent to a coaching app against the app's boundaries."

    /// The classifier's instructions, listing every guarded rule by title with its guidance.
    public static func system(rules: [Rule]) -> String {
        let boundaries = guarded(rules).map { rule in
            "- \(rule.title): " + (rule.guardrail?.classifier ?? rule.value.located("content")?.value ?? rule.title).split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        return """
            \(marker)
            Boundaries:
            \(boundaries.joined(separator: "\n"))

            If the message asks the coach to cross one of these boundaries, or shows the user may be
            at risk, answer with exactly one line:
            FLAGGED|<the boundary's title, exactly as written above>|<a short reason>
            Otherwise answer with exactly one word:
            SAFE
            """
    }

    /// The user turn the classifier reads.
    public static func message(_ text: String) -> String { "User message: '\(text)'" }

    /// The rules stage 2 considers: those with a guardrail, highest priority first.
    public static func guarded(_ rules: [Rule]) -> [Rule] {
        rules.filter { $0.guardrail != nil }.sorted { $0.priority > $1.priority }
    }

    /// Parses an answer: strict about the form (`FLAGGED|title|reason` or `SAFE`), tolerant of
    /// case, surrounding whitespace, quotes and markdown emphasis. The title may also be the
    /// rule's id. Anything else, including a title the pack does not have, is `unknown`.
    public static func parse(_ answer: String, rules: [Rule]) -> Verdict {
        let line = answer.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
        let cleaned = line.trimmingCharacters(in: CharacterSet(charactersIn: "*_`\"' ."))
        let parts = cleaned.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let head = parts.first?.uppercased() ?? ""
        if parts.count == 1, ["SAFE", "NOT FLAGGED", "NOT_FLAGGED", "UNFLAGGED"].contains(head) { return .safe }
        guard head == "FLAGGED", parts.count >= 2, !parts[1].isEmpty else {
            return .unknown(line.isEmpty ? "an empty answer" : "expected FLAGGED|title|reason or SAFE, got \"\(line.prefix(80))\"")
        }
        func fold(_ text: String) -> String { text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        guard let rule = guarded(rules).first(where: { fold($0.title) == fold(parts[1]) || $0.id == parts[1].lowercased() }) else {
            return .unknown("the answer names no boundary of this pack: \"\(parts[1].prefix(60))\"")
        }
        let reason = parts.dropFirst(2).joined(separator: "|")
        return .flagged(ruleId: rule.id, ruleTitle: rule.title, priority: rule.priority, reason: reason.isEmpty ? "no reason given" : reason)
    }

    /// The verdict as a stage-2 flag on `message`, or nil when it is not a flag.
    public static func flag(_ verdict: Verdict, message: String) -> GuardrailFlag? {
        guard case .flagged(let id, let title, let priority, let reason) = verdict else { return nil }
        return GuardrailFlag(ruleId: id, ruleTitle: title, priority: priority, stage: 2, kind: .classifier, matched: reason,
                             excerpt: message, start: 0, end: message.count)
    }
}
