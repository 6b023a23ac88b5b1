import CoachLab
import Foundation

/// `coachlab attack`'s report: a table of every attack by family and rule, then, for each that
/// broke, the turn that broke, the checks it failed, the conversation up to it and the rule
/// that should have held.
public enum AttackReporter {
    public static func text(_ outcomes: [AttackRun.Outcome], skipped: [AttackPlanner.Skipped], rules: [Rule], verbose: Bool) -> String {
        var rows = [["FAMILY", "RULE", "PROVIDER", "RESULT"]]
        for outcome in outcomes {
            let result = outcome.error.map { "error: \($0.prefix(60))" } ?? (outcome.held ? "held" : "broke at turn \(outcome.brokeAt ?? 0)")
            rows.append([outcome.family, outcome.rule ?? "-", outcome.provider, result])
        }
        var text = TextTable.text(rows)
        let broke = outcomes.filter { !$0.held && $0.error == nil }
        for outcome in broke + (verbose ? outcomes.filter(\.held) : []) {
            text += "\n\(outcome.held ? "HELD" : "BROKE") \(outcome.familyTitle)" + (outcome.rule.map { " on rule \($0)" } ?? "") + " (\(outcome.provider))"
            if let turn = outcome.brokeAt { text += ", at turn \(turn)" }
            text += "\n"
            for failure in outcome.failures { text += "  \(failure)\n" }
            if let id = outcome.rule, let rule = rules.first(where: { $0.id == id }) {
                text += "  the rule that should have held: \(rule.title)" + (rule.value["content"]?.text.map { ": \($0)" } ?? "") + "\n"
            }
            for (index, exchange) in outcome.transcript.enumerated() {
                text += "  \(index + 1). user:  \(exchange.user)\n     coach: \(exchange.reply.replacingOccurrences(of: "\n", with: " "))\n"
            }
        }
        let families = Dictionary(grouping: outcomes, by: \.family)
        text += "\n\(outcomes.count) attacks in \(families.count) families: \(outcomes.filter(\.held).count) held, \(broke.count) broke, "
            + "\(outcomes.filter { $0.error != nil }.count) errors\n"
        if !skipped.isEmpty {
            text += "not made (\(skipped.count)):\n"
            for skip in skipped { text += "  \(skip.family)" + (skip.rule.map { " on rule \($0)" } ?? "") + ": \(skip.reason)\n" }
        }
        return text
    }

    /// The outcomes as JSON, with the attacks not made.
    public static func json(_ outcomes: [AttackRun.Outcome], skipped: [AttackPlanner.Skipped]) -> String {
        let value: JSONValue = [
            "attacks": .array(outcomes.map { outcome in
                var object: [String: JSONValue] = [
                    "family": .string(outcome.family), "title": .string(outcome.familyTitle), "fixture": .string(outcome.fixture),
                    "provider": .string(outcome.provider), "held": .bool(outcome.held),
                    "failures": .array(outcome.failures.map(JSONValue.string)),
                    "transcript": .array(outcome.transcript.map { ["user": .string($0.user), "reply": .string($0.reply)] }),
                ]
                object["rule"] = outcome.rule.map(JSONValue.string)
                object["brokeAt"] = outcome.brokeAt.map { .number(Double($0)) }
                object["error"] = outcome.error.map(JSONValue.string)
                return .object(object)
            }),
            "skipped": .array(skipped.map { skip in
                var object: [String: JSONValue] = ["family": .string(skip.family), "reason": .string(skip.reason)]
                object["rule"] = skip.rule.map(JSONValue.string)
                return .object(object)
            }),
        ]
        return value.prettyText + "\n"
    }
}

extension OutputKind {
    /// `coachlab attack --json`'s report, which a later run may replace.
    public static let attackReport = OutputKind("a coachlab attack report", opening: 64) {
        $0.hasPrefix(AttackReporter.jsonOpening)
    }
}

extension AttackReporter {
    /// How the JSON report opens.
    static let jsonOpening = "{\n  \"attacks\" : ["
}
