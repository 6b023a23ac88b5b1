import CoachLab
import CoachLabProviders
import Foundation

/// How a case ended. `error` (the provider failed) is distinct from `fail` (a check failed).
public enum Outcome: String, Sendable, Codable, Hashable {
    case pass, fail, error
}

/// One scored reply.
public struct TurnResult: Sendable, Codable, Hashable {
    /// The turn's index in the fixture, from 1; 0 is the fixture's structured generation.
    public var turn: Int
    public var user: String
    public var reply: String
    public var checks: [CheckResult]
    /// The rule that flagged the user's message, if any.
    public var flaggedRule: String?
    /// The deciding flag in full (stage, what matched, the excerpt), if any.
    public var flag: GuardrailFlag?
    /// Every flag the user's message raised, when any did: the screening the turn's checks
    /// saw. Messages that compile to one system prompt share its stored row, so the turn
    /// keeps its own screening for a rescore.
    public var screening: ScreeningResult?
    public var latency: Double
    public var timeToFirstToken: Double?
    public var inputTokens: Int
    public var outputTokens: Int
    public var usageEstimated: Bool
    /// US dollars, when the provider has prices.
    public var cost: Double?
    public var finishReason: String
    /// The compiled prompt's hash, so a report can tell which prompt a reply answered.
    public var promptHash: String
    /// The lines the reply sanitiser removed from the provider's reply (``ReplySanitizer``);
    /// nil when the run did not sanitise. `reply` is the text after sanitising.
    public var sanitized: [String]?
    /// Whether the reply came from the response cache rather than the provider.
    public var cached = false
    /// Whether a simulated user wrote `user` (rather than the fixture).
    public var simulated = false

    public init(turn: Int, user: String, reply: String, checks: [CheckResult], flaggedRule: String? = nil, flag: GuardrailFlag? = nil,
                latency: Double,
                timeToFirstToken: Double? = nil, inputTokens: Int, outputTokens: Int, usageEstimated: Bool, cost: Double? = nil,
                finishReason: String, promptHash: String) {
        self.turn = turn
        self.user = user
        self.reply = reply
        self.checks = checks
        self.flaggedRule = flaggedRule ?? flag?.ruleId
        self.flag = flag
        self.latency = latency
        self.timeToFirstToken = timeToFirstToken
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.usageEstimated = usageEstimated
        self.cost = cost
        self.finishReason = finishReason
        self.promptHash = promptHash
    }
}

/// The outcome of one case: a fixture on a provider, one repeat.
public struct CaseResult: Sendable, Codable, Hashable {
    public var suite: String
    public var fixture: String
    public var provider: String
    public var model: String
    /// The repeat, from 1.
    public var repeatIndex: Int
    public var outcome: Outcome
    /// The weighted check score in 0…1.
    public var score: Double
    public var turns: [TurnResult]
    /// The provider's error, for `error` outcomes.
    public var error: String?
    public var tags: [String]
    /// The fixture's pack folder.
    public var pack: String
    /// The compiled prompts the turns answered (each once), for the store to keep; not part
    /// of the JSON form, which names each turn's prompt by hash.
    public var prompts: [CompiledPrompt] = []

    enum CodingKeys: String, CodingKey {
        case suite, fixture, provider, model, repeatIndex, outcome, score, turns, error, tags, pack
    }

    public init(suite: String, fixture: String, provider: String, model: String, repeatIndex: Int, outcome: Outcome, score: Double,
                turns: [TurnResult], error: String?, tags: [String], pack: String = "") {
        self.pack = pack
        self.suite = suite
        self.fixture = fixture
        self.provider = provider
        self.model = model
        self.repeatIndex = repeatIndex
        self.outcome = outcome
        self.score = score
        self.turns = turns
        self.error = error
        self.tags = tags
    }

    /// A stable id: suite/fixture/provider#repeat.
    public var id: String { "\(suite)/\(fixture)/\(provider)#\(repeatIndex)" }

    /// The checks that failed, with their turns.
    public var failures: [(turn: Int, check: CheckResult)] {
        turns.flatMap { turn in turn.checks.filter { !$0.passed }.map { (turn.turn, $0) } }
    }

    public static func == (lhs: CaseResult, rhs: CaseResult) -> Bool { lhs.id == rhs.id && lhs.outcome == rhs.outcome && lhs.turns == rhs.turns }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Pass-rate statistics with a 95 % Wilson interval.
///
/// The repeats of one case (a fixture on a provider) are not independent samples: a fixture
/// that fails once tends to fail again. Given ``groups``, the interval counts the cases as
/// many as they are worth (``effectiveTotal``), so ten fixtures run ten times each are not
/// taken for a hundred independent conversations.
public struct PassRate: Sendable, Codable, Hashable {
    public var passed: Int
    public var total: Int
    /// How the scored cases fall into groups of repeats; nil, each case its own.
    public var groups: RepeatGroups?

    public init(passed: Int, total: Int, groups: RepeatGroups? = nil) {
        self.passed = passed
        self.total = total
        self.groups = groups
    }

    public var rate: Double { total == 0 ? 0 : Double(passed) / Double(total) }

    /// The number of independent cases the scored ones are worth: `total` divided by the
    /// design effect of their grouping (Kish), the variance of the rate from the spread of
    /// the groups' outcomes (cluster-robust, with the small-sample factor g/(g-1)) over the
    /// variance independent cases would give. Kept between the number of groups (repeats
    /// that always agree add nothing) and `total` (repeats are never worth more than fresh
    /// cases). With every case passing, or every one failing, the spread says nothing, so the
    /// groups count once each. Without groups, or one case a group, it is `total`.
    public var effectiveTotal: Double {
        let n = Double(total)
        guard let groups, groups.count > 0, groups.count < total else { return n }
        let g = Double(groups.count)
        guard groups.count > 1, passed > 0, passed < total else { return g }
        let p = rate
        // The sum over groups of (passed - scored × p)², from the three sums the groups keep.
        let spread = groups.passedSquared - 2 * p * groups.passedTimesScored + p * p * groups.scoredSquared
        return RepeatGroups.effectiveSize(samples: n, groups: g, spread: spread, independentVariance: p * (1 - p) / n)
    }

    /// The 95 % Wilson score interval, over ``effectiveTotal`` cases.
    public var wilson: (low: Double, high: Double) {
        guard total > 0 else { return (0, 0) }
        let z = 1.959963984540054
        let n = effectiveTotal, p = rate
        let denominator = 1 + z * z / n
        let centre = (p + z * z / (2 * n)) / denominator
        let margin = z * ((p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / denominator
        // At 0 or all passing the bound is exactly 0 or 1; keep rounding from saying otherwise.
        return (passed == 0 ? 0 : max(0, centre - margin), passed == total ? 1 : min(1, centre + margin))
    }
}

/// How the scored cases behind a pass rate fall into groups of repeats (one fixture on one
/// provider): the sums that the spread of the rate between groups is computed from.
public struct RepeatGroups: Sendable, Codable, Hashable {
    /// Groups with at least one scored case.
    public private(set) var count = 0
    /// Over the groups: passes squared, passes times scored cases, scored cases squared.
    public private(set) var passedSquared = 0.0, passedTimesScored = 0.0, scoredSquared = 0.0

    public init() {}

    /// Adds a group: its passing cases of its scored (passed or failed) ones.
    public mutating func add(passed: Int, scored: Int) {
        guard scored > 0 else { return }
        let (passed, scored) = (Double(passed), Double(scored))
        count += 1
        passedSquared += passed * passed
        passedTimesScored += passed * scored
        scoredSquared += scored * scored
    }

    /// The independent samples `samples` grouped ones are worth: `samples` over the design
    /// effect (Kish), the cluster-robust variance of the estimate (the `spread` of the groups'
    /// deviations from it, with the small-sample factor g/(g-1)) over `independentVariance`,
    /// the variance the samples would give were they independent. Kept between the number of
    /// groups and `samples`; with no spread the groups add nothing to the count, and with no
    /// independent variance each group counts once.
    static func effectiveSize(samples n: Double, groups g: Double, spread: Double, independentVariance: Double) -> Double {
        let clustered = g / (g - 1) * spread / (n * n)
        guard clustered > 0 else { return n }
        guard independentVariance > 0 else { return g }
        return min(n, max(g, n * independentVariance / clustered))
    }

    /// Adds groups already summed (another shard's, or the same sums read from SQL).
    public mutating func add(count: Int, passedSquared: Double, passedTimesScored: Double, scoredSquared: Double) {
        self.count += count
        self.passedSquared += passedSquared
        self.passedTimesScored += passedTimesScored
        self.scoredSquared += scoredSquared
    }
}
