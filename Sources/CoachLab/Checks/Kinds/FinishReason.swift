extension CheckKinds {
    /// The provider's finish reason is one of these.
    public struct FinishReason: CheckKind {
        public var allowed: [String]

        public static let names = [CheckName("finish-reason", takes: "allowed", needsParameters: true)]
        public static let fields = [FieldSpec("allowed", .list(.string), "the finish reasons that pass: stop, length, contentFilter, …")]

        public static func read(_ reading: inout CheckReading) -> FinishReason? {
            let allowed = reading.value.locatedList("allowed").map(\.value)
            guard !allowed.isEmpty else { return reading.missing("allowed finish reasons") }
            return FinishReason(allowed: allowed)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let reason = subject.finishReason ?? "unknown"
            return check.result(allowed.contains(reason), "finished with \(CheckEvaluator.quote(reason))"
                                + (allowed.contains(reason) ? "" : "; wanted \(CheckEvaluator.list(allowed))"))
        }
    }
}

extension Check.Kind {
    /// The finish reason is one of these.
    public static func finishReason(_ allowed: [String]) -> Check.Kind { Check.Kind(CheckKinds.FinishReason(allowed: allowed)) }
}
