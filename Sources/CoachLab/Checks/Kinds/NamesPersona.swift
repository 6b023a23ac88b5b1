extension CheckKinds {
    /// The reply uses the persona's name.
    public struct NamesPersona: CheckKind {
        public static let names = [CheckName("names-persona")]
        public static let fields: [FieldSpec] = []

        public static func read(_ reading: inout CheckReading) -> NamesPersona? { NamesPersona() }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let name = subject.personaName, !name.isEmpty else { return check.result(false, "the persona has no name to look for") }
            let found = CheckEvaluator.contains(subject.reply, name, caseSensitive: false)
            return check.result(found, found ? "uses the name \(CheckEvaluator.quote(name))"
                                             : "never uses the persona's name \(CheckEvaluator.quote(name))")
        }
    }
}

extension Check.Kind {
    /// The reply uses the persona's name.
    public static var namesPersona: Check.Kind { Check.Kind(CheckKinds.NamesPersona()) }
}
