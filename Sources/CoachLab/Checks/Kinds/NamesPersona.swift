extension CheckKinds {
    /// The reply uses the persona's name: the one the check pins (`name:`), else the pack's.
    ///
    /// A pinned name is what catches a rename: read from the pack, the expected name follows
    /// the defect it should catch (`coachlab mutate` says so in its hints).
    public struct NamesPersona: CheckKind {
        /// The name to look for; nil: the pack's persona name.
        public var name: String?

        public static let names = [CheckName("names-persona", takes: "name (pinned; default the pack's persona name)")]
        public static let fields = [
            FieldSpec("name", .string, "the name the reply must use. Default: the pack's persona name, which follows a rename; pin it to catch one."),
        ]

        public init(name: String? = nil) { self.name = name }

        public static func read(_ reading: inout CheckReading) -> NamesPersona? {
            let pinned = reading.value.located("name")
            if let pinned, pinned.value.trimmingCharacters(in: .whitespaces).isEmpty {
                return reading.error("an empty name is no name to look for", at: pinned.location)
            }
            return NamesPersona(name: pinned?.value)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let name = self.name ?? subject.personaName, !name.isEmpty else { return check.result(false, "the persona has no name to look for") }
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

    /// The reply uses `name`, whatever the pack calls its persona.
    public static func namesPersona(pinned name: String) -> Check.Kind { Check.Kind(CheckKinds.NamesPersona(name: name)) }
}
