import CoachLab

/// One flagged interaction, as the guardrail log keeps it (BetterOne's GuardrailLog).
public struct GuardrailLogEntry: Sendable, Codable, Hashable {
    public var at: String
    /// `eval` or `chat`.
    public var source: String
    public var runId: String?
    public var caseId: String?
    public var turn: Int?
    public var pack: String
    /// `rule_based` (stage 1) or `ai_classifier` (stage 2).
    public var trigger: String
    public var stage: Int
    public var ruleId: String
    public var ruleTitle: String
    /// The keyword, pattern or classifier reason.
    public var matched: String
    /// The part of the user's message that matched.
    public var excerpt: String
    /// The user's message.
    public var message: String
    /// The assistant's reply.
    public var reply: String

    public init(at: String, source: String, runId: String? = nil, caseId: String? = nil, turn: Int? = nil, pack: String, trigger: String,
                stage: Int, ruleId: String, ruleTitle: String, matched: String, excerpt: String, message: String, reply: String) {
        self.at = at
        self.source = source
        self.runId = runId
        self.caseId = caseId
        self.turn = turn
        self.pack = pack
        self.trigger = trigger
        self.stage = stage
        self.ruleId = ruleId
        self.ruleTitle = ruleTitle
        self.matched = matched
        self.excerpt = excerpt
        self.message = message
        self.reply = reply
    }

    /// An entry for a flag.
    public init(at: String, source: String, runId: String? = nil, caseId: String? = nil, turn: Int? = nil, pack: String,
                flag: GuardrailFlag, message: String, reply: String) {
        self.init(at: at, source: source, runId: runId, caseId: caseId, turn: turn, pack: pack,
                  trigger: flag.stage == 1 ? "rule_based" : "ai_classifier", stage: flag.stage, ruleId: flag.ruleId,
                  ruleTitle: flag.ruleTitle, matched: flag.matched, excerpt: flag.excerpt, message: message, reply: reply)
    }
}
