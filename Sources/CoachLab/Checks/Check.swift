import Foundation

/// One scorer for a reply: what it checks, its weight, and where it was written.
public struct Check: Sendable, Hashable {
    /// What a check tests, with its parameters: a value of one of ``CheckKinds/all``. Each
    /// kind's file also gives it a constructor here (`.contains(…)`, `.noMarkdown`).
    public struct Kind: Sendable, Hashable {
        /// The kind's value.
        public let value: any CheckKind

        public init(_ value: some CheckKind) { self.value = value }

        public static func == (lhs: Kind, rhs: Kind) -> Bool { AnyHashable(lhs.value) == AnyHashable(rhs.value) }

        public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(value)) }
    }

    /// What a judge grades against: criteria, a scale, a threshold and a scope.
    public struct Rubric: Sendable, Hashable {
        /// One thing the judge scores.
        public struct Criterion: Sendable, Hashable {
            public var name: String
            public var description: String?
            /// How to evaluate it, step by step.
            public var steps: [String]
            public init(name: String, description: String? = nil, steps: [String] = []) {
                self.name = name
                self.description = description
                self.steps = steps
            }
        }

        /// The scores a judge gives.
        public enum Scale: String, Sendable, Hashable, CaseIterable {
            case passFail = "pass-fail", oneToFive = "1-5", zeroToOne = "0-1"

            /// The lowest and highest score.
            public var range: ClosedRange<Double> {
                switch self {
                case .passFail, .zeroToOne: 0...1
                case .oneToFive: 1...5
                }
            }

            /// A score as a fraction of the scale, 0…1.
            public func normalised(_ score: Double) -> Double { (score - range.lowerBound) / (range.upperBound - range.lowerBound) }
        }

        /// What the judge reads.
        public enum Scope: Sendable, Hashable {
            /// The reply being scored, after the user's message.
            case reply
            /// One turn's reply (from 1), with the conversation up to it.
            case turn(Int)
            /// The whole conversation up to the reply being scored.
            case conversation
        }

        /// What a good reply does, in the author's words.
        public var text: String
        /// The criteria; none means the rubric text is the one criterion.
        public var criteria: [Criterion]
        public var scale: Scale
        /// The least normalised score (0…1) that passes, per criterion.
        public var threshold: Double
        public var scope: Scope
        /// The named metric it came from (`metric: role-adherence`), if any.
        public var metric: String?

        public init(text: String, criteria: [Criterion] = [], scale: Scale = .passFail, threshold: Double = 1, scope: Scope = .reply,
                    metric: String? = nil) {
            self.text = text
            self.criteria = criteria
            self.scale = scale
            self.threshold = threshold
            self.scope = scope
            self.metric = metric
        }
    }

    /// A named metric's file, `evals/rubrics/NAME.yaml`.
    public static let rubricFileSpec = ObjectSpec("rubric file", "A named rubric judge checks use with metric: NAME.", fields: [
        FieldSpec("rubric", .object(ObjectSpec("rubric", "What the judge scores.", fields: [
            FieldSpec("name", .string, required: true, "The metric's name, as checks write it."),
            FieldSpec("description", .text, required: true, "What it measures; the judge reads it."),
            FieldSpec("criteria", .list(.any), "What is scored, each a name or {name, description, steps}."),
            FieldSpec("scale", .oneOf(Rubric.Scale.allCases.map(\.rawValue)), "pass-fail, 1-5 or 0-1."),
            FieldSpec("threshold", .number, "The least score that passes, as a fraction of the scale."),
            FieldSpec("scope", .any, "reply, conversation, or {turn: N}."),
        ])), required: true, "The rubric."),
    ])

    /// How `similar` measures closeness to a gold reply.
    public enum Similarity: String, Sendable, Hashable, CaseIterable {
        /// Harmonic mean of word precision and recall, ignoring order (SQuAD's F1).
        case f1
        /// F-measure over the longest common subsequence of words, which rewards order.
        case rougeL = "rouge-l"
    }

    /// What `count` counts.
    public enum Metric: String, Sendable, Hashable, CaseIterable {
        case sentences, words, characters, questions
    }

    /// A stable id: given, or the kind's name.
    public var id: String
    /// What it tests.
    public var kind: Kind
    /// Its weight in the weighted score. Default 1.
    public var weight: Double
    /// Where it was written.
    public var location: SourceLocation?

    public init(id: String, kind: Kind, weight: Double = 1, location: SourceLocation? = nil) {
        self.id = id
        self.kind = kind
        self.weight = weight
        self.location = location
    }

    /// Whether an LLM grades this check.
    public var isJudge: Bool { kind.value is CheckKinds.Judge }

    /// What scoring this check needs besides the reply (``CheckKind/callout``).
    public var callout: CheckCallout { kind.value.callout }

    /// Whether a provider scores this check (a judge, or `similar` by embedding): the runner
    /// asks it, and a rescore carries the stored verdict.
    public var callsModel: Bool {
        if case .model = callout { return true }
        return false
    }

    /// Whether an executable outside CoachLab scores this check.
    public var isScript: Bool { callout == .process }
}

/// The outcome of one check on one reply.
public struct CheckResult: Sendable, Hashable, Codable {
    /// The check's id.
    public var check: String
    /// Whether it passed.
    public var passed: Bool
    /// A score in 0…1 (1 for a pass; partial credit where it means something).
    public var score: Double
    /// One line a person can act on.
    public var reason: String
    /// The check's weight.
    public var weight: Double

    public init(check: String, passed: Bool, score: Double? = nil, reason: String, weight: Double = 1) {
        self.check = check
        self.passed = passed
        self.score = score ?? (passed ? 1 : 0)
        self.reason = reason
        self.weight = weight
    }
}

/// What a check sees of one turn.
public struct CheckSubject: Sendable {
    /// The reply.
    public var reply: String
    /// The compiled system prompt the reply answered.
    public var system: String
    /// Its layers, as they stand in `system` (a check that sets some apart needs them).
    public var layers: [CompiledPrompt.Layer]
    /// The screening of the turn's user message.
    public var screening: ScreeningResult?
    /// The persona's (or coach's) name.
    public var personaName: String?
    /// Seconds the call took.
    public var latency: Double?
    /// Output tokens.
    public var outputTokens: Int?
    /// Cost in US dollars, when prices are known.
    public var cost: Double?
    /// The provider's finish reason.
    public var finishReason: String?
    /// The user's messages so far, oldest first: words a reply merely echoes from them never
    /// count as a referral.
    public var userMessages: [String]
    /// The pack's reply contract, when it has one.
    public var contract: ReplyContract?

    public init(reply: String, system: String, layers: [CompiledPrompt.Layer] = [], screening: ScreeningResult? = nil,
                personaName: String? = nil, latency: Double? = nil, outputTokens: Int? = nil, cost: Double? = nil,
                finishReason: String? = nil, userMessages: [String] = [], contract: ReplyContract? = nil) {
        self.reply = reply
        self.system = system
        self.layers = layers
        self.screening = screening
        self.personaName = personaName
        self.latency = latency
        self.outputTokens = outputTokens
        self.cost = cost
        self.finishReason = finishReason
        self.userMessages = userMessages
        self.contract = contract
    }
}
