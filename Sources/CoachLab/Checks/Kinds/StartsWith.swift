import Foundation

extension CheckKinds {
    /// The reply, trimmed, starts with the text.
    public struct StartsWith: CheckKind {
        public var text: String

        public static let names = [CheckName("starts-with", takes: "text", needsParameters: true)]
        public static let fields = [FieldSpec("text", .string, "the text.")]

        public static func read(_ reading: inout CheckReading) -> StartsWith? {
            guard let text = reading.value.located("text")?.value else { return reading.missing("text") }
            return StartsWith(text: text)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let trimmed = subject.reply.trimmingCharacters(in: .whitespacesAndNewlines)
            return check.result(trimmed.hasPrefix(text), trimmed.hasPrefix(text) ? "starts with \(CheckEvaluator.quote(text))"
                                : "starts with \(CheckEvaluator.quote(String(trimmed.prefix(text.count + 10)))) instead of \(CheckEvaluator.quote(text))")
        }
    }
}

extension Check.Kind {
    /// The reply starts with the text.
    public static func startsWith(_ text: String) -> Check.Kind { Check.Kind(CheckKinds.StartsWith(text: text)) }
}
