import CoachLab
import CoachLabProviders
import Foundation

extension Reporters {
    /// `coachlab guard MESSAGE`: the deciding flag with its span, the other flags, and stage 2's
    /// verdict. `classifier` names the stage-2 provider, nil when stage 2 was not asked for.
    public static func screening(_ outcome: TwoStageScreener.Outcome, classifier: String?) -> String {
        var out = ""
        if let decision = outcome.screening.decision {
            out += "flagged: \(decision.ruleId) \"\(decision.ruleTitle)\" (stage \(decision.stage), \(decision.kind.rawValue) \"\(decision.matched)\")\n"
            if let entries = decision.lexiconEntries { out += "lexicon: \(entries.joined(separator: "; "))\n" }
            if decision.stage == 1 { out += "span: \(decision.start)-\(decision.end) \"\(decision.excerpt)\"\n" }
            for other in outcome.screening.flags.dropFirst() {
                out += "also: \(other.ruleId) (stage \(other.stage), priority \(other.priority), \"\(other.matched)\")\n"
            }
        } else {
            out += "not flagged\n"
        }
        if let verdict = outcome.verdict {
            out += "stage 2 (\(classifier ?? "")): \(self.verdict(verdict))\n"
        } else if classifier == nil, outcome.screening.decision == nil {
            out += "stage 2 did not run (add --stage2)\n"
        }
        return out
    }

    /// `coachlab guard MESSAGE --format json`: `flagged`, every flag, and the deciding rule,
    /// stage and span when one flagged; `stage2` with the provider, verdict and raw answer when
    /// the classifier ran.
    public static func screeningJSON(_ outcome: TwoStageScreener.Outcome, classifier: String?) -> String {
        let decision = outcome.screening.decision
        var object: [String: JSONValue] = ["flagged": .bool(decision != nil), "flags": .array(outcome.screening.flags.map(json))]
        if let decision {
            object["rule"] = .object(["id": .string(decision.ruleId), "title": .string(decision.ruleTitle)])
            object["stage"] = .number(Double(decision.stage))
            object["span"] = .object(["start": .number(Double(decision.start)), "end": .number(Double(decision.end)),
                                      "excerpt": .string(decision.excerpt)])
        }
        if let verdict = outcome.verdict {
            object["stage2"] = .object(["provider": .string(classifier ?? ""), "verdict": .string(self.verdict(verdict)),
                                        "answer": .string(outcome.answer ?? "")])
        }
        return JSONValue.object(object).prettyText + "\n"
    }

    /// A stage-2 verdict as the screen reports it: `FLAGGED rule: reason`, `SAFE`, or
    /// `UNKNOWN (why)`.
    public static func verdict(_ verdict: StageTwoClassifier.Verdict) -> String {
        switch verdict {
        case .flagged(let id, _, _, let reason): "FLAGGED \(id): \(reason)"
        case .safe: "SAFE"
        case .unknown(let why): "UNKNOWN (\(why))"
        }
    }

    private static func json(_ flag: GuardrailFlag) -> JSONValue {
        .object(["rule": .string(flag.ruleId), "title": .string(flag.ruleTitle), "stage": .number(Double(flag.stage)),
                 "kind": .string(flag.kind.rawValue), "matched": .string(flag.matched), "excerpt": .string(flag.excerpt),
                 "start": .number(Double(flag.start)), "end": .number(Double(flag.end)), "priority": .number(Double(flag.priority)),
                 "lexicon": flag.lexiconEntries.map { .array($0.map(JSONValue.string)) } ?? .null])
    }

    /// `coachlab guard log`: each flagged interaction, newest first as given, with its trigger,
    /// rule, where it happened, the matched words in the user's message, and the reply.
    public static func guardrailLog(_ entries: [GuardrailLogEntry]) -> String {
        entries.map { entry in
            let source = entry.source == "eval" ? "eval \(entry.caseId ?? "") turn \(entry.turn ?? 0)" : entry.source
            return "\(String(entry.at.prefix(19)))  \(entry.trigger) — \(entry.ruleTitle) [\(entry.ruleId), stage \(entry.stage)]  \(source)\n"
                + "  user:  \"\(entry.excerpt)\" in \"\(entry.message)\"\n"
                + "  reply: \(entry.reply)\n"
        }.joined()
    }
}
