import CoachLab
import CoachLabProviders
import Foundation

extension CheckKinds.Judge: CallingCheck {
    /// A rubric over a turn or the whole conversation is graded once, when it is over.
    public var scoresConversation: Bool { rubric.scope != .reply }

    public func score(as check: Check, in context: CalloutContext) async throws -> [CheckResult] {
        guard let slot = context.model else { return [evaluate(context.subject, as: check)] }
        guard context.reply == nil else {
            return try await Judge.grade(check, rubric: rubric, history: Array(context.history.dropLast()), reply: context.reply, slot: slot)
        }
        let history = context.history
        var graded: String?
        var before = history
        if case .turn(let number) = rubric.scope {
            let replies = history.indices.filter { history[$0].role == .assistant }
            guard replies.count >= number else {
                return [check.result(false, "the rubric grades turn \(number), but the conversation had \(replies.count)")]
            }
            graded = history[replies[number - 1]].content
            before = Array(history[..<replies[number - 1]])
        }
        return try await Judge.grade(check, rubric: rubric, history: before, reply: graded, slot: slot)
    }
}

/// Model-graded checks: the rubric's criteria scored on its scale, as JSON through the
/// structured-generation machinery (a schema where the provider takes one, one correction
/// round), one result per criterion with the judge's reason.
enum Judge {
    /// Grades `reply` (or, when it is nil, the whole `history`) against the rubric.
    /// - Throws: ``ProviderError`` from the judge, or `malformedResponse` when its answer is
    ///   still not valid after the correction round: the case is then an error, not a fail.
    static func grade(_ check: Check, rubric: Check.Rubric, history: [ChatMessage], reply: String?,
                      slot: ProviderSlot) async throws -> [CheckResult] {
        let conversation = history.map { (isUser: $0.role == .user, text: $0.content) }
        let task = StructuredTask.judgement(rubric, conversation: conversation, graded: reply)
        let generator = StructuredGenerator(provider: slot.provider, sendsSchema: slot.configuration.sendsResponseSchema, temperature: 0,
                                            maxTokens: 1024)
        let outcome = try await slot.run { try await generator.generate(task) }
        let criteria = StructuredTask.criteria(of: rubric)
        let single = criteria.count == 1
        guard let value = outcome.value else {
            // A rubric without criteria also takes a bare "PASS: reason" or "FAIL: reason".
            if rubric.criteria.isEmpty, rubric.scale == .passFail, let text = outcome.attempts.last?.reply.text, let (passed, reason) = parse(text) {
                return [check.result(passed, "judge (\(slot.configuration.id)): \(reason)")]
            }
            throw ProviderError(.malformedResponse, provider: slot.configuration.id,
                                message: "the judge's answer to check '\(check.id)' could not be parsed after \(outcome.attempts.count) attempts: "
                                    + outcome.problems.prefix(3).joined(separator: "; "))
        }
        let scores = Dictionary((value["criteria"]?.array ?? []).compactMap { entry -> (String, (Double, String))? in
            guard let name = entry["name"]?.string, case .number(let score)? = entry["score"] else { return nil }
            return (name, (score, entry["reason"]?.string ?? ""))
        }) { first, _ in first }
        return criteria.map { criterion in
            let (score, reason) = scores[criterion.name] ?? (rubric.scale.range.lowerBound, "not scored")
            let normalised = rubric.scale.normalised(score)
            let shown = rubric.scale == .passFail ? (score >= 1 ? "pass" : "fail") : String(format: "%g/%g", score, rubric.scale.range.upperBound)
            return CheckResult(check: single ? check.id : "\(check.id).\(criterion.name)", passed: normalised + 1e-9 >= rubric.threshold,
                               score: normalised, reason: "judge (\(slot.configuration.id)) \(shown): \(reason)",
                               weight: check.weight / Double(criteria.count))
        }
    }

    /// Parses `PASS: reason` or `FAIL: reason` (case, spacing and emphasis tolerated, and a
    /// label before it: "Verdict: FAIL", "Pass/Fail: PASS") from the first line that has one.
    /// The verdict is a whole word ("PASSED" and "FAILED" too), so "Passing" or "Pass/Fail:
    /// FAIL" is never a pass.
    static func parse(_ text: String) -> (passed: Bool, reason: String)? {
        let decoration = CharacterSet(charactersIn: "*`_#>").union(.whitespaces)
        for line in text.split(whereSeparator: \.isNewline) {
            var trimmed = line.trimmingCharacters(in: decoration)
            if let colon = trimmed.firstIndex(of: ":"),
               verdictLabels.contains(trimmed[..<colon].uppercased().filter { !$0.isWhitespace && $0 != "*" && $0 != "_" }) {
                trimmed = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: decoration)
            }
            let upper = trimmed.uppercased()
            for (verdict, passed) in [("PASSED", true), ("FAILED", false), ("PASS", true), ("FAIL", false)] where upper.hasPrefix(verdict) {
                let after = trimmed.dropFirst(verdict.count)
                guard after.first.map({ !$0.isLetter && !$0.isNumber && $0 != "/" }) ?? true else { continue }
                let rest = after.drop { $0 == ":" || $0 == " " || $0 == "-" || $0 == "|" || $0 == "." || $0 == "*" }
                return (passed, rest.isEmpty ? "the judge gave no reason" : String(rest))
            }
        }
        return nil
    }

    /// Labels a judge may put before its verdict, upper-cased and without spaces.
    private static let verdictLabels: Set<String> = ["VERDICT", "FINALVERDICT", "RESULT", "ANSWER", "DECISION", "GRADE", "JUDGEMENT",
                                                     "JUDGMENT", "PASS/FAIL", "OUTCOME"]
}
