extension CheckKinds {
    /// The reply contains any (or all) of the phrases.
    public struct Contains: CheckKind {
        public var phrases: [String]
        public var all: Bool
        public var caseSensitive: Bool

        public static let names = [CheckName("contains", takes: "phrases (mode: any|all, caseSensitive)", needsParameters: true)]
        public static let fields = [
            FieldSpec("phrases", .list(.string), "the phrases."),
            FieldSpec("mode", .oneOf(["any", "all"]), "any (default) or all of the phrases."),
            FieldSpec("caseSensitive", .boolean, "whether case must match. Default false."),
        ]

        public static func read(_ reading: inout CheckReading) -> Contains? {
            guard let phrases = reading.requiredPhrases() else { return nil }
            return Contains(phrases: phrases, all: reading.value["mode"]?.text == "all", caseSensitive: reading.caseSensitive)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let found = phrases.filter { CheckEvaluator.contains(subject.reply, $0, caseSensitive: caseSensitive) }
            if all {
                let missing = phrases.filter { !found.contains($0) }
                return check.result(missing.isEmpty,
                                    missing.isEmpty ? "contains all of \(CheckEvaluator.list(phrases))" : "missing \(CheckEvaluator.list(missing))",
                                    score: phrases.isEmpty ? 1 : Double(found.count) / Double(phrases.count))
            }
            return check.result(!found.isEmpty, found.isEmpty ? "contains none of \(CheckEvaluator.list(phrases))"
                                                              : "contains \(CheckEvaluator.quote(found[0]))")
        }
    }
}

extension Check.Kind {
    /// The reply contains any (or all) of the phrases.
    public static func contains(_ phrases: [String], all: Bool, caseSensitive: Bool) -> Check.Kind {
        Check.Kind(CheckKinds.Contains(phrases: phrases, all: all, caseSensitive: caseSensitive))
    }
}
