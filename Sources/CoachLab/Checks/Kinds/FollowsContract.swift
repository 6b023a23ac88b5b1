extension CheckKinds {
    /// The reply keeps the pack's reply contract (`reply:`): its sentence and word limits, its
    /// questions, the forms it never uses, its role and its secrecy. The contract is the pack's
    /// own, so a template line that stops rendering a limit is caught here: the limit still
    /// binds the reply, though the prompt no longer asks for it.
    public struct FollowsContract: CheckKind {
        /// Ids of layers a confidential reply may still quote, as for `leaked-prompt`.
        public var quotable: [Located<String>]

        public static let names = [CheckName("follows-contract", takes: "quotable")]
        public static let fields = [
            FieldSpec("quotable", .list(.string), "ids of layers a reply may quote (knowledge it passes on, the user's own data): runs from them do not count"),
        ]

        public init(quotable: [Located<String>] = []) { self.quotable = quotable }

        public static func read(_ reading: inout CheckReading) -> FollowsContract? {
            let quotable = reading.value.locatedList("quotable")
            if let empty = quotable.first(where: { $0.value.isEmpty }) {
                return reading.error("an empty layer id names no layer", at: empty.location)
            }
            return FollowsContract(quotable: quotable)
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            guard let contract = subject.contract, !contract.isEmpty else {
                return check.result(false, "the pack declares no reply contract (reply:) to follow")
            }
            let broken = Self.breaches(of: contract, by: subject, as: check, quotable: quotable)
            return check.result(broken.isEmpty, broken.isEmpty ? "keeps the reply contract" : "breaks the reply contract: " + broken.joined(separator: "; "))
        }

        /// What the reply does that the contract forbids, described, in the contract's order.
        static func breaches(of contract: ReplyContract, by subject: CheckSubject, as check: Check, quotable: [Located<String>] = []) -> [String] {
            let reply = subject.reply
            var broken: [String] = []
            if let range = contract.sentences {
                let count = TextMetrics.sentenceCount(reply)
                if !(range.min...range.max).contains(count) { broken.append("\(count) sentences, wanted \(range.description)") }
            }
            if let most = contract.words {
                let count = TextMetrics.wordCount(reply)
                if count > most { broken.append("\(count) words, wanted at most \(most)") }
            }
            if let most = contract.questions {
                let count = TextMetrics.questions(reply)
                if count > most { broken.append("\(count) questions, wanted at most \(most)") }
            }
            if contract.endWithQuestion, !TextMetrics.endsWithQuestion(reply) { broken.append("does not end on a question") }
            // Markdown covers headings, lists and bold: each construct is reported once.
            let markdownKinds: Set<ReplyContract.Form> = [.headings, .lists, .bold]
            for form in contract.forbid where !(contract.forbid.contains(.markdown) && markdownKinds.contains(form)) {
                if let found = Self.first(form, in: reply) { broken.append("uses \(found)") }
            }
            if contract.stayInRole, case let result = PersonaBreak().evaluate(subject, as: check), !result.passed {
                broken.append(result.reason)
            }
            if contract.confidential, case let result = LeakedPrompt(words: 12, quotable: quotable).evaluate(subject, as: check), !result.passed {
                broken.append(result.reason)
            }
            if let most = contract.tokens, let used = subject.outputTokens, used > most {
                broken.append("\(used) output tokens, wanted at most \(most)")
            }
            return broken
        }

        /// The first use of a forbidden form, described; nil when the reply has none.
        static func first(_ form: ReplyContract.Form, in reply: String) -> String? {
            switch form {
            case .markdown:
                return CheckEvaluator.markdown(in: reply).first
            case .headings:
                return CheckEvaluator.markdown(in: reply).first { $0.hasPrefix("a header") }
            case .lists:
                return CheckEvaluator.markdown(in: reply).first { $0.hasPrefix("a list item") }
            case .bold:
                return CheckEvaluator.markdown(in: reply).first { $0.hasPrefix("bold text") }
            case .emoji:
                return reply.unicodeScalars.first { $0.properties.isEmojiPresentation || ($0.properties.isEmoji && $0.value > 0x2000) }
                    .map { "an emoji (\($0))" }
            case .exclamations:
                return reply.contains("!") ? "an exclamation mark" : nil
            }
        }
    }
}

extension Check.Kind {
    /// The reply keeps the pack's reply contract.
    public static var followsContract: Check.Kind { Check.Kind(CheckKinds.FollowsContract()) }
}
