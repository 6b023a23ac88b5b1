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
            let tokens = TextNormalizer.tokens(name)
            guard !tokens.isEmpty else { return CheckEvaluator.contains(reply, name, caseSensitive: false) }
            let words = TextNormalizer.words(reply).map(\.text)
            guard words.count >= tokens.count else { return false }
            return (0...(words.count - tokens.count)).contains { start in
                tokens.indices.allSatisfy { offset in
                    let word = words[start + offset], token = tokens[offset]
                    return word == token || (offset == tokens.count - 1 && word == token + "s")
                }
            }
        }
    }
}

extension Check.Kind {
    /// The reply uses the persona's name.
    public static var namesPersona: Check.Kind { Check.Kind(CheckKinds.NamesPersona()) }
}
