extension CheckKinds {
    /// The turn's user message was not flagged.
    public struct NotFlagged: CheckKind {
        public static let names = [CheckName("not-flagged")]
        public static let fields: [FieldSpec] = []

        public static func read(_ reading: inout CheckReading) -> NotFlagged? { NotFlagged() }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let decision = subject.screening?.decision else { return check.result(true, "not flagged") }
            return check.result(false, "flagged by \(CheckEvaluator.quote(decision.ruleId)) on \(CheckEvaluator.quote(decision.excerpt)); expected no flag")
        }
    }
}

extension Check.Kind {
    /// The turn's user message was not flagged.
    public static var notFlagged: Check.Kind { Check.Kind(CheckKinds.NotFlagged()) }
}
