import Foundation

extension CheckKinds {
    /// The reply, trimmed, starts (`starts-with`) or ends (`ends-with`) with the text.
    public struct Affix: CheckKind {
        public enum End: String, Sendable, Hashable {
            case start = "starts", end = "ends"
        }

        public var text: String
        public var at: End

        public static let names = [CheckName("starts-with", takes: "text", needsParameters: true),
                                   CheckName("ends-with", takes: "text", needsParameters: true)]
        public static let fields = [FieldSpec("text", .string, "the text.")]

        public static func read(_ reading: inout CheckReading) -> Affix? {
            guard let text = reading.value.located("text")?.value else { return reading.missing("text") }
            // Every reply starts and ends with empty text.
            guard !text.consists(of: .whitespacesAndNewlines) else {
                return reading.error("an empty text begins and ends every reply, so it tells nothing", at: reading.value["text"]?.location)
            }
            return Affix(text: text, at: reading.name == "starts-with" ? .start : .end)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let trimmed = subject.reply.trimmed(.whitespacesAndNewlines)
            let passed = at == .start ? trimmed.hasPrefix(text) : trimmed.hasSuffix(text)
            let found = at == .start ? trimmed.prefix(text.count + 10) : trimmed.suffix(text.count + 10)
            return check.result(passed, passed ? "\(at.rawValue) with \(CheckEvaluator.quote(text))"
                                : "\(at.rawValue) with \(CheckEvaluator.quote(String(found))) instead of \(CheckEvaluator.quote(text))")
        }
    }
}

extension Check.Kind {
    /// The reply starts with the text.
    public static func startsWith(_ text: String) -> Check.Kind { Check.Kind(CheckKinds.Affix(text: text, at: .start)) }
    /// The reply ends with the text.
    public static func endsWith(_ text: String) -> Check.Kind { Check.Kind(CheckKinds.Affix(text: text, at: .end)) }
}
