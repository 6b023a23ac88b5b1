extension CheckKinds {
    /// The reply never steps out of the persona ("as an AI", "language model").
    public struct PersonaBreak: CheckKind {
        public static let names = [CheckName("persona-break")]
        public static let fields: [FieldSpec] = []

        public static func read(_ reading: inout CheckReading) -> PersonaBreak? { PersonaBreak() }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            // Whole words, as stage 1 folds them: "As an aide" or "as an airline pilot" says
            // nothing of what the coach is, though its letters begin "as an ai".
            let words = TextNormalizer.words(subject.reply).map(\.text)
            let found = CheckEvaluator.firstPhrase(CheckEvaluator.personaBreakList, words: words,
                                                   echoed: Array(repeating: false, count: words.count))
            return check.result(found == nil, found.map { "breaks persona: says \(CheckEvaluator.quote($0))" } ?? "stays in persona")
        }
    }
}

extension Check.Kind {
    /// The reply never steps out of the persona ("as an AI", "language model").
    public static var personaBreak: Check.Kind { Check.Kind(CheckKinds.PersonaBreak()) }
}
