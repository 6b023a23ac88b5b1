extension CheckKinds {
    /// The turn's user message was flagged (by a given rule, when named).
    public struct Flagged: CheckKind {
        /// The rule expected to flag it; any rule when nil.
        public var rule: String?

        public static let names = [CheckName("flagged", takes: "rule (optional)")]
        public static let fields = [FieldSpec("rule", .string, "the rule id expected.")]

        public static func read(_ reading: inout CheckReading) -> Flagged? { Flagged(rule: reading.value.located("rule")?.value) }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let decision = subject.screening?.decision else {
                return check.result(false, "the message was not flagged" + (rule.map { "; expected rule \(CheckEvaluator.quote($0))" } ?? ""))
            }
            if let rule, !(subject.screening?.flags.contains { $0.ruleId == rule } ?? false) {
                return check.result(false, "flagged by \(CheckEvaluator.quote(decision.ruleId)), not by \(CheckEvaluator.quote(rule))")
            }
            return check.result(true, "flagged by \(CheckEvaluator.quote(rule ?? decision.ruleId)) on \(CheckEvaluator.quote(decision.excerpt))")
        }
    }
}

extension Check.Kind {
    /// The turn's user message was flagged (by `rule`, when named).
    public static func flagged(rule: String?) -> Check.Kind { Check.Kind(CheckKinds.Flagged(rule: rule)) }
}
