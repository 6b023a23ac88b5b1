extension CheckKinds {
    /// A model grades the reply (or a turn, or the conversation) against a rubric, criterion by
    /// criterion. The eval runner asks the judge; scored here, without a model, it fails and says so.
    public struct Judge: CheckKind {
        public var rubric: Check.Rubric
        /// The grading provider; the suite's `judge:` when nil.
        public var provider: String?

        public static let names = [CheckName("judge", takes: "rubric or metric; criteria, scale, threshold, scope, provider", needsParameters: true)]
        public static let fields = [
            FieldSpec("rubric", .text, "what a good reply does."),
            FieldSpec("metric", .string, "a named rubric in evals/rubrics/NAME.yaml (role-adherence, escalation, …)."),
            FieldSpec("criteria", .list(.any), "what is scored, each a name or {name, description, steps}."),
            FieldSpec("scale", .oneOf(Check.Rubric.Scale.allCases.map(\.rawValue)), "pass-fail (default), 1-5 or 0-1."),
            FieldSpec("threshold", .number, "the least score that passes, as a fraction of the scale (0-1). Default 1 for pass-fail, 0.6 otherwise."),
            FieldSpec("scope", .any, "reply (default), conversation, or {turn: N}."),
            FieldSpec("provider", .string, "the grading provider. Default: the suite's judge."),
        ]

        public static func read(_ reading: inout CheckReading) -> Judge? {
            let metric = reading.value.located("metric")?.value
            guard let rubric = CheckParser.parseRubric(reading.value, metric: metric, into: &reading.diagnostics) else {
                return metric == nil && reading.value["rubric"] == nil ? reading.missing("a rubric, or a metric naming one in evals/rubrics/") : nil
            }
            return Judge(rubric: rubric, provider: reading.value.located("provider")?.value)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            check.result(false, "judge checks need a model; run them with coachlab eval")
        }

        public var callout: CheckCallout { .model(provider: provider) }
    }
}

extension Check.Kind {
    /// A model grades the reply, a turn or the conversation against a rubric.
    public static func judge(_ rubric: Check.Rubric, provider: String?) -> Check.Kind {
        Check.Kind(CheckKinds.Judge(rubric: rubric, provider: provider))
    }
}
