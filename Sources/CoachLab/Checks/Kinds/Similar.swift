import Foundation

extension CheckKinds {
    /// The reply is at least `minimum` similar to a gold reply, by word-level F1 or ROUGE-L.
    public struct Similar: CheckKind {
        public var gold: String
        public var minimum: Double
        public var metric: Check.Similarity

        public static let names = [CheckName("similar", takes: "to (a gold reply), min (0-1), metric (f1 or rouge-l)", needsParameters: true)]
        public static let fields = [
            FieldSpec("to", .text, "the gold reply."),
            FieldSpec("min", .number, "the least similarity that passes, 0-1."),
            FieldSpec("metric", .string, "f1 (default) or rouge-l."),
        ]

        public static func read(_ reading: inout CheckReading) -> Similar? {
            let value = reading.value
            guard let gold = value.located("to")?.value, !gold.consists(of: .whitespacesAndNewlines) else {
                return reading.missing("'to': the gold reply")
            }
            guard let minimum = value.number("min") else { return reading.missing("min: the least similarity that passes, 0-1") }
            guard (0...1).contains(minimum) else {
                return reading.error("min \(minimum) is not a similarity from 0 to 1", at: value["min"]?.location)
            }
            var metric = Check.Similarity.f1
            if let node = value["metric"] {
                guard let given = node.text.flatMap(Check.Similarity.init(rawValue:)) else {
                    return reading.error("similar's metric is f1 or rouge-l", at: node.location)
                }
                metric = given
            }
            return Similar(gold: gold, minimum: minimum, metric: metric)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let score = TextSimilarity.score(subject.reply, gold, metric: metric)
            let name = metric == .f1 ? "word F1" : "ROUGE-L"
            return check.result(score + 1e-9 >= minimum, String(format: "%@ %.2f with the gold reply; wanted at least %.2f", name, score, minimum),
                                score: score)
        }
    }
}

extension Check.Kind {
    /// The reply is at least `minimum` similar to a gold reply.
    public static func similar(to gold: String, minimum: Double, metric: Check.Similarity) -> Check.Kind {
        Check.Kind(CheckKinds.Similar(gold: gold, minimum: minimum, metric: metric))
    }
}
