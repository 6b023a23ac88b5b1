import Foundation

extension CheckKinds {
    /// The reply, trimmed, ends with the text.
    public struct EndsWith: CheckKind {
        public var text: String

        public static let names = [CheckName("ends-with", takes: "text", needsParameters: true)]
        public static let fields = [FieldSpec("text", .string, "the text.")]

        public static func read(_ reading: inout CheckReading) -> EndsWith? {
            guard let text = reading.value.located("text")?.value else { return reading.missing("text") }
            return EndsWith(text: text)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let trimmed = subject.reply.trimmingCharacters(in: .whitespacesAndNewlines)
            return check.result(trimmed.hasSuffix(text), trimmed.hasSuffix(text) ? "ends with \(CheckEvaluator.quote(text))"
                                : "ends with \(CheckEvaluator.quote(String(trimmed.suffix(text.count + 10)))) instead of \(CheckEvaluator.quote(text))")
        }
    }
}

extension Check.Kind {
    /// The reply ends with the text.
    public static func endsWith(_ text: String) -> Check.Kind { Check.Kind(CheckKinds.EndsWith(text: text)) }
}
