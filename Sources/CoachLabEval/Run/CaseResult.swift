import CoachLab
import CoachLabProviders
import Foundation

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
