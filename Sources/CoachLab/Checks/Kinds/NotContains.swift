extension CheckKinds {
    /// The reply contains none of the phrases.
    public struct NotContains: CheckKind {
        public var phrases: [String]
        public var caseSensitive: Bool

        public static let names = [CheckName("not-contains", takes: "phrases (caseSensitive)", needsParameters: true)]
        public static let fields = [
            FieldSpec("phrases", .list(.string), "the phrases."),
            FieldSpec("caseSensitive", .boolean, "whether case must match. Default false."),
        ]

        public static func read(_ reading: inout CheckReading) -> NotContains? {
            guard let phrases = reading.requiredPhrases() else { return nil }
            return NotContains(phrases: phrases, caseSensitive: reading.caseSensitive)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let found = phrases.filter { CheckEvaluator.contains(subject.reply, $0, caseSensitive: caseSensitive) }
            return check.result(found.isEmpty, found.isEmpty ? "contains none of \(CheckEvaluator.list(phrases))"
                                                             : "contains \(CheckEvaluator.list(found)), which it must not")
        }
    }
}

extension Check.Kind {
    /// The reply contains none of the phrases.
    public static func notContains(_ phrases: [String], caseSensitive: Bool) -> Check.Kind {
        Check.Kind(CheckKinds.NotContains(phrases: phrases, caseSensitive: caseSensitive))
    }
}
