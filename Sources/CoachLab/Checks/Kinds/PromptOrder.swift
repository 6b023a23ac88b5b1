import Foundation

extension CheckKinds {
    /// The compiled system prompt holds every phrase, each after the one before (layer order).
    public struct PromptOrder: CheckKind {
        public var phrases: [String]

        public static let names = [
            CheckName("prompt-order", takes: "phrases (each found in the compiled system prompt after the one before)", needsParameters: true),
        ]
        public static let fields = [FieldSpec("phrases", .list(.string), "the phrases.")]

        public static func read(_ reading: inout CheckReading) -> PromptOrder? {
            let phrases = reading.phrases
            guard phrases.count >= 2 else { return reading.missing("two or more phrases") }
            return PromptOrder(phrases: phrases)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let system = subject.system
            var position = system.startIndex
            for (index, phrase) in phrases.enumerated() {
                guard let range = system.range(of: phrase, range: position..<system.endIndex) else {
                    let anywhere = system.contains(phrase)
                    return check.result(false, anywhere ? "\(CheckEvaluator.quote(phrase)) comes before \(CheckEvaluator.quote(phrases[index - 1])), not after it"
                                                        : "the prompt lacks \(CheckEvaluator.quote(phrase))",
                                        score: Double(index) / Double(phrases.count))
                }
                position = range.upperBound
            }
            return check.result(true, "the prompt has \(CheckEvaluator.list(phrases)) in that order")
        }
    }
}

extension Check.Kind {
    /// The compiled system prompt holds every phrase, each after the one before.
    public static func promptOrder(_ phrases: [String]) -> Check.Kind { Check.Kind(CheckKinds.PromptOrder(phrases: phrases)) }
}
