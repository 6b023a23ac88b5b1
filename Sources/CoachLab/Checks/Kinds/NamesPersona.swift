extension CheckKinds {
    /// The reply uses the persona's name.
    public struct NamesPersona: CheckKind {
        public static let names = [CheckName("names-persona")]
        public static let fields: [FieldSpec] = []

        public static func read(_ reading: inout CheckReading) -> NamesPersona? { NamesPersona() }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let name = subject.personaName, !name.isEmpty else { return check.result(false, "the persona has no name to look for") }
            let found = Self.uses(subject.reply, name: name)
            return check.result(found, found ? "uses the name \(CheckEvaluator.quote(name))"
                                             : "never uses the persona's name \(CheckEvaluator.quote(name))")
        }

        /// Whether `reply` says `name` as whole words, folded as stage 1 folds them ("Zoë" is
        /// "zoe"), or its possessive ("Luna's"): "Ava" is not in "available", nor "Sam" in "same".
        static func uses(_ reply: String, name: String) -> Bool {
            // A name of no letters or digits has no words to look for.
            guard !TextNormalizer.tokens(name).isEmpty else { return CheckEvaluator.contains(reply, name, caseSensitive: false) }
            let words = TextNormalizer.words(reply).map(\.text)
            // "Luna's" folds to the word "lunas".
            return CheckEvaluator.firstPhrase([name, name + "s"], words: words, echoed: Array(repeating: false, count: words.count)) != nil
        }
    }
}

extension Check.Kind {
    /// The reply uses the persona's name.
    public static var namesPersona: Check.Kind { Check.Kind(CheckKinds.NamesPersona()) }
}
