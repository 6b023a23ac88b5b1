import CoachLab
import CoachLabProviders
import Foundation

extension Reporters {
    /// `coachlab chat`, before a reply: a line for each guardrail flag on the user's message,
    /// the deciding one marked as the one whose risk alert the prompt carries.
    public static func chatFlags(_ screening: ScreeningResult) -> [String] {
        screening.flags.map { flag in
            "  [guardrail] \(flag.ruleTitle) (\(flag.ruleId)), stage \(flag.stage) \(flag.kind.rawValue) "
                + "\"\(flag.excerpt)\"\(flag == screening.decision ? ", risk alert added" : "")"
        }
    }

    /// `coachlab chat`, after a reply: the context rotating, the sanitiser's removals, then the
    /// provider (and those it fell back from), model, latency, time to first token and tokens.
    /// - Parameters:
    ///   - rotated: Whether the conversation rotated before this turn.
    ///   - removed: The lines the sanitiser took out; nil when it was off.
    public static func chatNotes(_ reply: ProviderReply, rotated: Bool, removed: [String]?) -> [String] {
        var lines: [String] = []
        if rotated {
            lines.append("  [context] the conversation reached the pack's limit; it continues in a new session carrying a summary")
        }
        if let removed, !removed.isEmpty {
            lines.append("  [sanitiser] removed \(removed.count) line\(removed.count == 1 ? "" : "s") that repeat the system prompt")
        }
        let fallback = reply.fellBackFrom.isEmpty ? "" : " after " + reply.fellBackFrom.joined(separator: ", ") + " failed"
        lines.append(String(format: "  (%@%@ · %@ · %.2f s%@ · %d→%d tokens%@)", reply.provider, fallback, reply.model, reply.latency,
                            reply.timeToFirstToken.map { String(format: " · first token %.2f s", $0) } ?? "",
                            reply.usage.inputTokens, reply.usage.outputTokens, reply.usage.estimated ? " est." : ""))
        return lines
    }
}
