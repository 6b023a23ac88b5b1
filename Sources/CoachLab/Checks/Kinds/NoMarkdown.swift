extension CheckKinds {
    /// No markdown: headers, lists, bold, tables, block quotes or code fences.
    public struct NoMarkdown: CheckKind {
        public static let names = [CheckName("no-markdown")]
        public static let fields: [FieldSpec] = []

        public static func read(_ reading: inout CheckReading) -> NoMarkdown? { NoMarkdown() }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            let found = CheckEvaluator.markdown(in: subject.reply)
            return check.result(found.isEmpty, found.isEmpty ? "no markdown" : "uses markdown: " + found.joined(separator: "; "))
        }
    }
}

extension Check.Kind {
    /// No markdown: headers, lists, bold, tables or code fences.
    public static var noMarkdown: Check.Kind { Check.Kind(CheckKinds.NoMarkdown()) }
}
