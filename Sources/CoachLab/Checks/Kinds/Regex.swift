import Foundation

extension CheckKinds {
    /// The reply matches (`regex`) or does not match (`not-regex`) a regular expression.
    public struct Regex: CheckKind {
        public var pattern: String
        public var negate: Bool

        public static let names = [CheckName("regex", takes: "pattern", needsParameters: true),
                                   CheckName("not-regex", takes: "pattern", needsParameters: true)]
        public static let fields = [FieldSpec("pattern", .string, "the regular expression (ICU syntax).")]

        public static func read(_ reading: inout CheckReading) -> Regex? {
            guard let pattern = reading.value.located("pattern") else { return reading.missing("a pattern") }
            // Compiled here, into the process's cache, and taken from it for every case.
            guard RegexCache.shared.expression(pattern.value, caseSensitive: true) != nil else {
                return reading.error("pattern is not a valid regular expression", at: pattern.location)
            }
            return Regex(pattern: pattern.value, negate: reading.name == "not-regex")
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let reply = subject.reply
            guard let expression = RegexCache.shared.expression(pattern, caseSensitive: true) else {
                return check.result(false, "the pattern \(CheckEvaluator.quote(pattern)) is not a valid regular expression")
            }
            let match = expression.firstMatch(in: reply, range: NSRange(reply.startIndex..., in: reply))
            let excerpt = match.flatMap { Range($0.range, in: reply) }.map { CheckEvaluator.quote(String(reply[$0])) } ?? ""
            if negate {
                return check.result(match == nil, match == nil ? "does not match /\(pattern)/" : "matches /\(pattern)/ at \(excerpt), which it must not")
            }
            return check.result(match != nil, match != nil ? "matches /\(pattern)/ at \(excerpt)" : "does not match /\(pattern)/")
        }
    }
}

extension Check.Kind {
    /// The reply matches (or, with `negate`, does not match) a regular expression.
    public static func regex(_ pattern: String, negate: Bool) -> Check.Kind { Check.Kind(CheckKinds.Regex(pattern: pattern, negate: negate)) }
}
