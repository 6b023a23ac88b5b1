extension CheckKinds {
    /// The reply's last sentence is a question.
    public struct EndsWithQuestion: CheckKind {
        public static let names = [CheckName("ends-with-question")]
        public static let fields: [FieldSpec] = []

        public static func read(_ reading: inout CheckReading) -> EndsWithQuestion? { EndsWithQuestion() }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard !TextMetrics.endsWithQuestion(subject.reply) else { return check.result(true, "ends with a question") }
            let last = TextMetrics.sentences(String(subject.reply.suffix(2000))).last ?? ""
            return check.result(false, "ends with \(CheckEvaluator.quote(String(last.suffix(60)))), not a question")
        }
    }
}

extension Check.Kind {
    /// The reply's last sentence is a question.
    public static var endsWithQuestion: Check.Kind { Check.Kind(CheckKinds.EndsWithQuestion()) }
}
