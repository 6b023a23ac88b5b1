import CoachLab
import CoachLabProviders
import Foundation

/// A judge measured against people: on labelled transcripts, how often it agrees with the
/// person per criterion, Cohen's kappa (agreement beyond chance), the confusion matrix and
/// every disagreement. Verdicts are compared as pass or fail at the rubric's threshold.
public struct Calibration: Sendable {
    /// One criterion of one transcript.
    public struct Pair: Sendable, Hashable {
        public var judgement: String
        public var criterion: String
        public var humanPassed: Bool
        /// Nil when the judge gave no usable answer.
        public var judgePassed: Bool?
        public var judgeReason: String
    }

    public var judge: String
    public var pairs: [Pair]

    public init(judge: String, pairs: [Pair]) {
        self.judge = judge
        self.pairs = pairs
    }

    /// Both passed, only the person passed, only the judge passed, both failed.
    public var confusion: (bothPassed: Int, humanOnly: Int, judgeOnly: Int, bothFailed: Int) {
        var counts = (0, 0, 0, 0)
        for pair in pairs {
            guard let judge = pair.judgePassed else { continue }
            switch (pair.humanPassed, judge) {
            case (true, true): counts.0 += 1
            case (true, false): counts.1 += 1
            case (false, true): counts.2 += 1
            case (false, false): counts.3 += 1
            }
        }
        return counts
    }

    /// Pairs the judge answered.
    public var answered: Int { pairs.filter { $0.judgePassed != nil }.count }
    /// The share of answered pairs where the judge agreed with the person.
    public var agreement: Double {
        let (a, b, c, d) = confusion
        let n = a + b + c + d
        return n == 0 ? 0 : Double(a + d) / Double(n)
    }
    /// Cohen's kappa over the answered pairs.
    public var kappa: Double { let (a, b, c, d) = confusion; return Self.kappa(a, b, c, d) }

    /// Cohen's kappa of a 2×2 table: rows the person (pass, fail), columns the judge.
    public static func kappa(_ bothPassed: Int, _ humanOnly: Int, _ judgeOnly: Int, _ bothFailed: Int) -> Double {
        let n = Double(bothPassed + humanOnly + judgeOnly + bothFailed)
        guard n > 0 else { return 0 }
        let observed = Double(bothPassed + bothFailed) / n
        let humanPass = Double(bothPassed + humanOnly) / n, judgePass = Double(bothPassed + judgeOnly) / n
        let expected = humanPass * judgePass + (1 - humanPass) * (1 - judgePass)
        // When both always give the same single verdict, chance agreement is total.
        return expected >= 1 ? (observed >= 1 ? 1 : 0) : (observed - expected) / (1 - expected)
    }

    /// Runs the judge on every judgement.
    /// - Throws: ``ProviderError`` when the judge cannot be reached; an answer that cannot be
    ///   parsed counts as no verdict instead.
    public static func run(_ judgements: [Judgement], judge configuration: ProviderConfiguration,
                           provider: any ChatProvider) async throws -> Calibration {
        let slot = ProviderSlot(provider: provider, configuration: configuration,
                                           semaphore: AsyncSemaphore(configuration.concurrency))
        let pairs = try await withThrowingTaskGroup(of: [Pair].self) { group in
            for judgement in judgements {
                group.addTask { try await grade(judgement, slot: slot) }
            }
            var all: [Pair] = []
            for try await pairs in group { all += pairs }
            return all.sorted { ($0.judgement, $0.criterion) < ($1.judgement, $1.criterion) }
        }
        return Calibration(judge: configuration.id, pairs: pairs)
    }

    static func grade(_ judgement: Judgement, slot: ProviderSlot) async throws -> [Pair] {
        let messages = judgement.transcript.map { ChatMessage($0.isUser ? .user : .assistant, $0.text) }
        var history = messages, graded: String?
        switch judgement.rubric.scope {
        case .reply:
            graded = messages.last?.content
            history = Array(messages.dropLast())
        case .turn(let number):
            let replies = messages.indices.filter { messages[$0].role == .assistant }
            if replies.count >= number {
                graded = messages[replies[number - 1]].content
                history = Array(messages[..<replies[number - 1]])
            }
        case .conversation:
            break
        }
        let check = Check(id: judgement.id, kind: .judge(judgement.rubric, provider: slot.configuration.id))
        let criteria = StructuredTask.criteria(of: judgement.rubric)
        var results: [CheckResult]
        do {
            results = try await Judge.grade(check, rubric: judgement.rubric, history: history, reply: graded, slot: slot)
        } catch let error as ProviderError where error.code == .malformedResponse {
            return criteria.compactMap { criterion in
                judgement.humanPassed(criterion.name).map {
                    Pair(judgement: judgement.id, criterion: criterion.name, humanPassed: $0, judgePassed: nil, judgeReason: error.message)
                }
            }
        }
        return criteria.enumerated().compactMap { index, criterion in
            guard let human = judgement.humanPassed(criterion.name), results.indices.contains(index) else { return nil }
            return Pair(judgement: judgement.id, criterion: criterion.name, humanPassed: human, judgePassed: results[index].passed,
                        judgeReason: results[index].reason)
        }
    }

    /// The terminal report.
    public func text() -> String {
        let (a, b, c, d) = confusion
        var out = "judge \(judge) on \(Set(pairs.map(\.judgement)).count) labelled transcripts, \(pairs.count) criterion verdicts"
        out += answered < pairs.count ? " (\(pairs.count - answered) got no usable answer)\n" : "\n"
        out += String(format: "agreement %.1f%%, Cohen's kappa %.2f\n\n", agreement * 100, kappa)
        out += "                 judge pass  judge fail\n"
        out += String(format: "  person pass    %10d  %10d\n  person fail    %10d  %10d\n", a, b, c, d)
        let disagreements = pairs.filter { $0.judgePassed != nil && $0.judgePassed != $0.humanPassed }
        if !disagreements.isEmpty {
            out += "\ndisagreements:\n"
            for pair in disagreements {
                out += "  \(pair.judgement) \(pair.criterion): the person said \(pair.humanPassed ? "pass" : "fail"), the judge \(pair.judgeReason)\n"
            }
        }
        let unanswered = pairs.filter { $0.judgePassed == nil }
        if !unanswered.isEmpty {
            out += "\nno usable answer:\n"
            for pair in unanswered.prefix(10) { out += "  \(pair.judgement) \(pair.criterion): \(pair.judgeReason.prefix(160))\n" }
        }
        return out
    }
}
