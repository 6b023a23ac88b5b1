import CoachLab
import Foundation

extension Reporters {
    /// `coachlab guard --dataset`: precision, recall and F1 per rule, the confusion matrix, and
    /// every false negative, false positive and unknown classifier answer at its file:line:col.
    public static func guardrails(_ score: GuardrailScore) -> String {
        var rows = [["RULE", "TP", "FP", "FN", "TN", "NEAR-MISSES OK", "PRECISION", "RECALL", "F1"]]
        for row in score.rules + [score.overall] {
            rows.append([row.rule, "\(row.truePositives)", "\(row.falsePositives)", "\(row.falseNegatives)", "\(row.trueNegatives)",
                         "\(row.nearMissesPassed)/\(row.nearMisses)", String(format: "%.3f", row.precision),
                         String(format: "%.3f", row.recall), String(format: "%.3f", row.f1)])
        }
        var out = "\(score.dataset)" + (score.split.map { " (\($0.rawValue) split)" } ?? "") + ": \(score.items) messages\n\n" + TextTable.text(rows)
        let labels = Array(Set(score.confusion.keys).union(score.confusion.values.flatMap(\.keys))).sorted { a, b in
            a == "none" ? false : b == "none" ? true : a < b
        }
        var matrix = [["EXPECTED \\ DECIDED"] + labels]
        for expected in labels where score.confusion[expected] != nil {
            matrix.append([expected] + labels.map { "\(score.confusion[expected]?[$0] ?? 0)" })
        }
        out += "\n" + TextTable.text(matrix)
        func list(_ title: String, _ misses: [GuardrailScore.Miss]) {
            guard !misses.isEmpty else { return }
            out += "\n\(title) (\(misses.count)):\n"
            for miss in misses {
                out += "  \(miss.location): expected \(miss.expected ?? "none"), decided \(miss.decided ?? "none")"
                    + (miss.matched.map { " on \"\($0)\"" } ?? "") + ": \"\(miss.message)\"\n"
            }
        }
        list("false negatives", score.falseNegatives)
        list("false positives", score.falsePositives)
        list("unknown classifier answers", score.unknown)
        return out
    }
}
