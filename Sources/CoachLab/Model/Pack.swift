/// One app's prompt system, loaded from a folder under `personas/`: its stack, persona,
/// rules, topics, coaches, profiles, memories, contexts, defaults and declared variants.
/// Each entity keeps its YAML value, so every value that reaches a prompt keeps its location.
public struct Pack: Sendable {
    /// The pack's folder, as the user named it.
    public var directory: String
    /// The pack's identity.
    public var id: String
    /// The app's name.
    public var name: String
    /// The `pack:` mapping.
    public var info: YAMLValue
    /// The prompt architecture.
    public var stack: Stack
    /// The persona, when the pack has one.
    public var persona: YAMLValue?
    /// Rules in load order.
    public var rules: [Rule]
    /// Topics in load order.
    public var topics: [Topic]
    /// Coaches in load order.
    public var coaches: [Coach]
    /// Profiles in load order.
    public var profiles: [Entity]
    /// Memories in load order.
    public var memories: [Memory]
    /// Contexts in load order.
    public var contexts: [Entity]
    /// Defaults.
    public var defaults: Defaults
    /// Declared compile variants.
    public var variants: [Variant]
    /// Named word lists that guardrail frames and exceptions reference as `{id}`.
    public var lexicons: [Lexicon] = []
    /// What every reply must be (`reply:`), when the pack says.
    public var reply: ReplyContract? = nil
    /// Every file the pack was loaded from, in load order.
    public var files: [String]
    /// Each file's whole YAML value, in load order.
    public var documents: [YAMLValue]

    /// The rules in prompt order: highest priority first, load order among equals.
    public var rulesByPriority: [Rule] {
        rules.enumerated().sorted { a, b in
            a.element.priority != b.element.priority ? a.element.priority > b.element.priority : a.offset < b.offset
        }.map(\.element)
    }

    /// The topic with this slug.
    public func topic(_ slug: String) -> Topic? { topics.first { $0.slug == slug } }
    /// The coach with this id.
    public func coach(_ id: String) -> Coach? { coaches.first { $0.id == id } }
    /// The profile with this id.
    public func profile(_ id: String) -> Entity? { profiles.first { $0.id == id } }
    /// The memory with this id.
    public func memory(_ id: String) -> Memory? { memories.first { $0.id == id } }
    /// The context with this id.
    public func context(_ id: String) -> Entity? { contexts.first { $0.id == id } }
    /// The rule with this id.
    public func rule(_ id: String) -> Rule? { rules.first { $0.id == id } }

    /// The ids of the rules with a guardrail (the ones the screen flags), in pack order.
    public var guardedRuleIDs: [String] { rules.filter { $0.guardrail != nil }.map(\.id) }
    /// The lexicon with this id.
    public func lexicon(_ id: String) -> Lexicon? { lexicons.first { $0.id == id } }
}

/// A named list of words or phrases (condition names, medicines, doses, self-harm phrasings)
/// that guardrail frames combine with question frames, as `{id}`.
public struct Lexicon: Sendable {
    /// The id frames name it by.
    public var id: String
    /// The entries, each a phrase in the frame syntax without slots.
    public var entries: [Located<String>]
    /// Whether each entry word also matches its inflections (diagnose, diagnosed, diagnosis).
    public var inflect: Bool
    /// The whole mapping.
    public var value: YAMLValue

    public init(id: String, entries: [Located<String>], inflect: Bool, value: YAMLValue) {
        self.id = id
        self.entries = entries
        self.inflect = inflect
        self.value = value
    }
}

/// An entity with an id whose fields are free-form (profiles, contexts).
public struct Entity: Sendable {
    /// The id.
    public var id: String
    /// The whole mapping.
    public var value: YAMLValue

    /// An entity of any shape: a mapping an app sent (``YAMLValue/init(json:source:)``).
    public init(id: String, value: YAMLValue) {
        self.id = id
        self.value = value
    }
}

extension Entity {
    /// An entity an app builds from its own data at run time, as a profile or a context.
    ///
    /// Every value is a quoted scalar, so text such as `yes` or `null` stays text, and, like every
    /// profile's value, it is quoted into the prompt as data, never read as template structure.
    /// - Parameters:
    ///   - id: The id.
    ///   - fields: Each key and its text, in the order the prompt should list them.
    ///   - source: What diagnostics and the source map name as the values' file.
    public init(id: String, fields: KeyValuePairs<String, String>, source: String = "<app data>") {
        let location = SourceLocation(file: source, line: 1, column: 1)
        self.id = id
        value = .mapping(fields.map { key, text in
            YAMLValue.Entry(key: key, keyLocation: location,
                            value: .scalar(.init(text: text, style: .quoted, location: location)))
        }, location)
    }
}

/// The ordered layers of a prompt and how they are joined.
public struct Stack: Sendable {
    /// One layer.
    public struct Layer: Sendable {
        /// The id.
        public var id: String
        /// The header title; nil or empty for no header.
        public var title: Located<String>?
        /// The Mustache template.
        public var template: Located<String>
        /// The condition, when any.
        public var when: Located<String>?
    }

    /// The header template, given `{{title}}`.
    public var header: Located<String>?
    /// Text between layers.
    public var separator: String
    /// Single-brace placeholders, each a Mustache template.
    public var placeholders: [(name: String, template: Located<String>)]
    /// Named partials.
    public var partials: [(name: String, template: Located<String>)]
    /// The layers, first to last.
    public var layers: [Layer]
    /// Layer ids dropped, in order, over the token budget.
    public var trim: [Located<String>]
    /// The `stack:` mapping.
    public var value: YAMLValue
}

/// A rule of engagement.
public struct Rule: Sendable {
    /// The id.
    public var id: String
    /// The title.
    public var title: String
    /// Higher comes first; default 0.
    public var priority: Int
    /// The screening, when the rule has a guardrail.
    public var guardrail: Guardrail?
    /// The whole mapping.
    public var value: YAMLValue
}

/// How messages are screened against a rule.
public struct Guardrail: Sendable {
    /// Phrases matched on word boundaries.
    public var keywords: [Located<String>]
    /// Regular expressions.
    public var patterns: [Located<String>]
    /// Phrases that suppress the rule, in the frame syntax.
    public var exceptions: [Located<String>]
    /// Lexicons any entry of which flags the rule.
    public var lexicons: [Located<String>] = []
    /// Phrase templates combining words, alternatives and `{lexicon}` slots.
    public var frames: [Located<String>] = []
    /// The alert's YAML value.
    public var alert: YAMLValue?
    /// Guidance for the stage-2 classifier.
    public var classifier: String?
}

/// A topic.
public struct Topic: Sendable {
    /// An intent.
    public struct Intent: Sendable {
        /// The id.
        public var id: String
        /// The whole mapping.
        public var value: YAMLValue
    }

    /// A knowledge object.
    public struct Knowledge: Sendable {
        /// Intents it is limited to; empty means all.
        public var intents: [Located<String>]
        /// The whole mapping.
        public var value: YAMLValue
    }

    /// The slug.
    public var slug: String
    /// The intents.
    public var intents: [Intent]
    /// The knowledge objects.
    public var knowledge: [Knowledge]
    /// The whole mapping.
    public var value: YAMLValue

    /// The intent with this id.
    public func intent(_ id: String) -> Intent? { intents.first { $0.id == id } }
}

/// A coach: a rich template or a plain system prompt.
public struct Coach: Sendable {
    /// The id.
    public var id: String
    /// The rich template, when the coach has one.
    public var template: YAMLValue?
    /// The plain system prompt, when the coach has one.
    public var systemPrompt: Located<String>?
    /// Insights before this are ignored.
    public var memoryClearedAt: LocalDateTime?
    /// The whole mapping.
    public var value: YAMLValue
}

/// Insights from past sessions.
public struct Memory: Sendable {
    /// One insight.
    public struct Insight: Sendable {
        /// When it was made.
        public var createdAt: LocalDateTime
        /// The coach it belongs to.
        public var coach: Located<String>?
        /// The whole mapping.
        public var value: YAMLValue
    }

    /// The id.
    public var id: String
    /// When memory was cleared.
    public var clearedAt: LocalDateTime?
    /// The insights, as written.
    public var insights: [Insight]
    /// The whole mapping.
    public var value: YAMLValue
}

/// Model settings and the context budget.
public struct Defaults: Sendable {
    /// An inclusive count range.
    public struct CountRange: Sendable, Hashable {
        /// Fewest allowed.
        public var min: Int
        /// Most allowed.
        public var max: Int

        public init(min: Int, max: Int) {
            self.min = min
            self.max = max
        }

        /// "3-5", or "3" when min equals max.
        public var description: String { min == max ? "\(min)" : "\(min)-\(max)" }
    }

    /// How many insights reach the prompt.
    public var memoryLimit: Int = 3
    /// The context window in tokens.
    public var windowTokens: Int?
    /// Most tokens for the system prompt.
    public var systemMaxTokens: Int?
    /// Tokens kept free for the reply.
    public var reserveForReply: Int?
    /// Rotate the session after this many messages.
    public var rotateAtMessages: Int?
    /// How many messages are summarised on rotation.
    public var summarizeLast: Int?
    /// Whether the stage-2 classifier, when enabled, runs even after keywords flagged.
    public var stage2Always = false
    /// Whether stage 1 reads a word one edit from a screen word as that word ("myslef").
    public var screeningTypos = true
    /// Kindred's count limits for rich coach templates.
    public var phases = CountRange(min: 3, max: 5)
    /// Rules per rich template.
    public var templateRules = CountRange(min: 5, max: 7)
    /// Examples per rich template.
    public var examples = CountRange(min: 3, max: 3)
    /// Starter questions per coach.
    public var starterQuestions = CountRange(min: 3, max: 3)
    /// Fixed replies for when no model answers.
    public var cannedReplies: [String] = []
    /// The `defaults:` mapping, when present.
    public var value: YAMLValue?

    /// The defaults of a pack that declares none (Kindred's count limits).
    public init() {}

    /// The token budget for the system prompt, when the pack declares one.
    public var systemBudget: Int? {
        if let systemMaxTokens { return systemMaxTokens }
        guard let windowTokens else { return nil }
        return windowTokens - (reserveForReply ?? 0)
    }
}

/// A named set of compile inputs.
public struct Variant: Sendable {
    /// The id.
    public var id: String
    /// Coach id.
    public var coach: Located<String>?
    /// Topic slug.
    public var topic: Located<String>?
    /// Intent id.
    public var intent: Located<String>?
    /// Profile id.
    public var profile: Located<String>?
    /// Memory id.
    public var memory: Located<String>?
    /// Context id.
    public var context: Located<String>?
    /// Local date and time.
    public var now: Located<String>?
    /// Message to screen.
    public var screen: Located<String>?
    /// The whole mapping.
    public var value: YAMLValue
}
