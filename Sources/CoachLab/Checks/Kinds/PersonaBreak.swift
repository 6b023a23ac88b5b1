extension CheckKinds {
    /// The reply never steps out of the persona ("as an AI", "language model").
    public struct PersonaBreak: CheckKind {
        public static let names = [CheckName("persona-break")]
        public static let fields: [FieldSpec] = []

        public static func read(_ reading: inout CheckReading) -> PersonaBreak? { PersonaBreak() }

        /// The phrases, folded once.
        private static let phrases = CheckEvaluator.personaBreakPhrases.map { (text: $0, folded: FoldedText.fold($0)) }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let folded = FoldedText(subject.reply)
            let found = Self.phrases.first { FoldedText.bytes(folded.bytes, contain: $0.folded) }?.text
            return check.result(found == nil, found.map { "breaks persona: says \(CheckEvaluator.quote($0))" } ?? "stays in persona")
        }
    }
}

extension Check.Kind {
    /// The reply never steps out of the persona ("as an AI", "language model").
    public static var personaBreak: Check.Kind { Check.Kind(CheckKinds.PersonaBreak()) }
}
