extension CheckKinds {
    /// The reply has at most this many output tokens.
    public struct Tokens: CheckKind {
        public var max: Int

        public static let names = [CheckName("tokens", takes: "max (output tokens)", needsParameters: true)]
        public static let fields = [FieldSpec("max", .number, "the most output tokens that pass.")]

        public static func read(_ reading: inout CheckReading) -> Tokens? {
            guard let max = reading.value.number("max") else { return reading.missing("max (output tokens)") }
            guard max >= 0 else { return reading.error("max \(Int(max)) is below zero, so no reply could pass", at: reading.value["max"]?.location) }
            return Tokens(max: Int(max))
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let tokens = subject.outputTokens else { return check.result(false, "no token count") }
            return check.result(tokens <= max, "\(tokens) output tokens (at most \(max))")
        }
    }
}

extension Check.Kind {
    /// Output tokens at most this many.
    public static func tokens(max: Int) -> Check.Kind { Check.Kind(CheckKinds.Tokens(max: max)) }
}
