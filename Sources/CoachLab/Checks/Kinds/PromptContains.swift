import Foundation

extension CheckKinds {
    /// The compiled system prompt the reply answered contains (`prompt-contains`) or lacks
    /// (`prompt-not-contains`) every phrase.
    public struct PromptContains: CheckKind {
        public var phrases: [String]
        public var negate: Bool

        public static let names = [
            CheckName("prompt-contains", takes: "phrases (checked against the compiled system prompt)", needsParameters: true),
            CheckName("prompt-not-contains", takes: "phrases (checked against the compiled system prompt)", needsParameters: true),
        ]
        public static let fields = [FieldSpec("phrases", .list(.string), "the phrases.")]

        public static func read(_ reading: inout CheckReading) -> PromptContains? {
            guard let phrases = reading.requiredPhrases() else { return nil }
            return PromptContains(phrases: phrases, negate: reading.name == "prompt-not-contains")
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let found = phrases.filter { subject.system.contains($0) }
            if negate {
                return check.result(found.isEmpty, found.isEmpty ? "the prompt has none of \(CheckEvaluator.list(phrases))"
                                                                 : "the prompt contains \(CheckEvaluator.list(found))")
            }
            let missing = phrases.filter { !found.contains($0) }
            return check.result(missing.isEmpty, missing.isEmpty ? "the prompt contains \(CheckEvaluator.list(phrases))"
                                                                 : "the prompt lacks \(CheckEvaluator.list(missing))")
        }
    }
}

extension Check.Kind {
    /// The compiled system prompt contains (or, with `negate`, lacks) every phrase.
    public static func promptContains(_ phrases: [String], negate: Bool) -> Check.Kind {
        Check.Kind(CheckKinds.PromptContains(phrases: phrases, negate: negate))
    }
}
