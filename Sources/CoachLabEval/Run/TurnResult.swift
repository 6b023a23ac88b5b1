import CoachLab
import CoachLabProviders
import Foundation

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
