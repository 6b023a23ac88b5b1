import Foundation

extension CheckKinds {
    /// A count of the reply's sentences, words, characters or questions lies in a range.
    public struct Count: CheckKind {
        public var metric: Check.Metric
        public var min: Int?
        public var max: Int?

        public static let names = Check.Metric.allCases.map { CheckName($0.rawValue, takes: "min and/or max", needsParameters: true) }
        public static let fields = [
            FieldSpec("min", .number, "the least count that passes."),
            FieldSpec("max", .number, "the most count that passes."),
        ]

        public static func read(_ reading: inout CheckReading) -> Count? {
            let value = reading.value
            // A count is a whole number of at least 0: "max: -1" could never pass, and "max: 2.5"
            // would be read as 2.
            for field in ["min", "max"] {
                guard let bound = value.number(field) else { continue }
                if bound < 0 { return reading.error("\(field) \(Self.shown(bound)) is below zero: a count is never negative", at: value[field]?.location) }
                if bound != bound.rounded() { return reading.error("\(field) \(Self.shown(bound)) is not a whole number", at: value[field]?.location) }
            }
            let min = value.number("min").map { Int($0) }
            let max = value.number("max")
            guard min != nil || max != nil else { return reading.missing("min or max") }
            if let min, let max, Double(min) > max { return reading.error("min \(min) is above max \(Int(max))") }
            return Count(metric: Check.Metric(rawValue: reading.name) ?? .sentences, min: min, max: max.map { Int($0) })
        }

        /// A bound as written: "3", "2.5".
        private static func shown(_ bound: Double) -> String { bound == bound.rounded() ? String(Int(bound)) : String(bound) }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let reply = subject.reply
            let value: Int
            switch metric {
            case .sentences: value = TextMetrics.sentenceCount(reply)
            case .words: value = TextMetrics.wordCount(reply)
            case .characters: value = reply.trimmed(.whitespacesAndNewlines).count
            case .questions: value = TextMetrics.questions(reply)
            }
            let low = min.map { value >= $0 } ?? true
            let high = max.map { value <= $0 } ?? true
            let range = [min.map { "at least \($0)" }, max.map { "at most \($0)" }].compactMap { $0 }.joined(separator: " and ")
            return check.result(low && high, "\(value) \(metric.rawValue)" + (low && high ? " (\(range))" : "; wanted \(range)"))
        }
    }
}

extension Check.Kind {
    /// A count (sentences, words, characters, questions) lies in a range.
    public static func count(_ metric: Check.Metric, min: Int?, max: Int?) -> Check.Kind {
        Check.Kind(CheckKinds.Count(metric: metric, min: min, max: max))
    }
}
