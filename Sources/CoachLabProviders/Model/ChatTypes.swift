import CoachLab
import Foundation

/// Who said a message in the conversation history. The system prompt travels separately.
public enum ChatRole: String, Sendable, Codable, Hashable {
    case user
    case assistant
}

/// One message of the conversation history.
public struct ChatMessage: Sendable, Codable, Hashable {
    /// Who said it.
    public var role: ChatRole
    /// What was said.
    public var content: String

    /// Creates a message.
    public init(_ role: ChatRole, _ content: String) {
        self.role = role
        self.content = content
    }
}

/// Per-call settings.
public struct GenerationSettings: Sendable, Codable, Hashable {
    /// The model name, as the provider knows it.
    public var model: String
    /// Sampling temperature; the provider's default when nil.
    public var temperature: Double?
    /// Maximum output tokens; the provider's default when nil (Anthropic requires one: 1024).
    public var maxTokens: Int?
    /// Stop sequences.
    public var stop: [String]
    /// Seconds the whole request may take (head and body), retries excluded; the provider's
    /// configured timeout when nil.
    public var timeout: Double?
    /// A JSON Schema the reply must follow, where the provider supports structured output.
    public var responseSchema: JSONValue?

    /// Creates settings.
    public init(model: String, temperature: Double? = nil, maxTokens: Int? = nil, stop: [String] = [],
                timeout: Double? = nil, responseSchema: JSONValue? = nil) {
        self.model = model
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.stop = stop
        self.timeout = timeout
        self.responseSchema = responseSchema
    }
}

/// A request to a provider: the compiled system prompt, the history, and settings.
public struct ChatRequest: Sendable, Hashable {
    /// The system prompt.
    public var system: String
    /// The conversation, oldest first, ending with the user's latest message.
    public var messages: [ChatMessage]
    /// Settings; the model may be empty to use the provider's configured one.
    public var settings: GenerationSettings
    /// What the app knows besides the messages (the fixture's profile and context, the coach
    /// and topic): an `http` target's body template may send it, as an app's own backend is
    /// sent it; model providers ignore it.
    public var appData: AppData?

    /// Creates a request.
    public init(system: String, messages: [ChatMessage], settings: GenerationSettings = GenerationSettings(model: "")) {
        self.system = system
        self.messages = messages
        self.settings = settings
    }
}

/// What an app sends its own backend besides the conversation: the data its server builds the
/// prompt from (HealthWallet's `POST /api/v1/chat`).
public struct AppData: Sendable, Hashable {
    /// The user's profile, as the fixture gives it.
    public var profile: JSONValue?
    /// The context (health data, app state), as the fixture gives it.
    public var context: JSONValue?
    /// The coach's id, for packs with several.
    public var coach: String?
    /// The topic's slug.
    public var topic: String?
    /// The intent's id, within the topic.
    public var intent: String?
    /// Insights from past sessions (`id`, `clearedAt`, `insights`), as the fixture gives them.
    public var memory: JSONValue?
    /// The user's local date and time, as `2026-03-01T23:30`.
    public var now: String?

    public init(profile: JSONValue? = nil, context: JSONValue? = nil, coach: String? = nil, topic: String? = nil,
                intent: String? = nil, memory: JSONValue? = nil, now: String? = nil) {
        self.profile = profile
        self.context = context
        self.coach = coach
        self.topic = topic
        self.intent = intent
        self.memory = memory
        self.now = now
    }

    /// The data in a JSON object such as ``json`` gives; members that are not there are nil.
    public init(json: JSONValue) {
        func object(_ key: String) -> JSONValue? {
            if case .object = json[key] { return json[key] }
            return nil
        }
        self.init(profile: object("profile"), context: object("context"), coach: json["coach"]?.string, topic: json["topic"]?.string,
                  intent: json["intent"]?.string, memory: object("memory"), now: json["now"]?.string)
    }

    /// All of it as one JSON object, its unset members left out: what `{{{json.app}}}` sends.
    public var json: JSONValue {
        var members: [String: JSONValue] = [:]
        members["profile"] = profile
        members["context"] = context
        members["memory"] = memory
        members["coach"] = coach.map(JSONValue.string)
        members["topic"] = topic.map(JSONValue.string)
        members["intent"] = intent.map(JSONValue.string)
        members["now"] = now.map(JSONValue.string)
        return .object(members)
    }

    /// The data of a conversation's compile inputs; nil when they hold none.
    public init?(_ inputs: ResolvedInputs) {
        func object(_ entity: Entity?) -> JSONValue? {
            guard let entity, case .object(var members) = JSONValue(yaml: entity.value) else { return nil }
            members["id"] = nil
            return .object(members)
        }
        self.init(profile: object(inputs.profile), context: object(inputs.context), coach: inputs.coach?.id, topic: inputs.topic?.slug,
                  intent: inputs.intent?.id, memory: inputs.memory.map { JSONValue(yaml: $0.value) }, now: inputs.now?.description)
        if self == AppData() { return nil }
    }
}

/// Token usage of one call.
public struct Usage: Sendable, Codable, Hashable {
    /// Input (prompt) tokens.
    public var inputTokens: Int
    /// Output (completion) tokens.
    public var outputTokens: Int
    /// True when CoachLab estimated the counts because the provider reported none.
    public var estimated: Bool

    /// Creates usage.
    public init(inputTokens: Int, outputTokens: Int, estimated: Bool) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.estimated = estimated
    }

    /// Estimated usage for a request and its reply.
    public static func estimate(_ request: ChatRequest, reply: String) -> Usage {
        let input = TokenEstimator.estimate(request.system) + request.messages.reduce(0) { $0 + TokenEstimator.estimate($1.content) + 4 }
        return Usage(inputTokens: input, outputTokens: TokenEstimator.estimate(reply), estimated: true)
    }
}

/// Why generation stopped, normalised across providers.
public enum FinishReason: String, Sendable, Codable, Hashable {
    /// A natural end (`stop`, `end_turn`, `STOP`).
    case stop
    /// The token limit (`length`, `max_tokens`, `MAX_TOKENS`).
    case length
    /// A stop sequence was produced.
    case stopSequence
    /// The provider's safety filter (`content_filter`, `SAFETY`, `RECITATION`).
    case contentFilter
    /// The model refused (`refusal`).
    case refusal
    /// The model asked to call a tool.
    case toolUse
    /// Anything else.
    case other
}

/// A provider's answer.
public struct ProviderReply: Sendable, Codable, Hashable {
    /// The text.
    public var text: String
    /// Token usage.
    public var usage: Usage
    /// Why generation stopped.
    public var finishReason: FinishReason
    /// The provider's own finish reason, as sent.
    public var rawFinishReason: String?
    /// The model that answered, as the provider reports it.
    public var model: String
    /// The id of the provider that answered (in a fallback chain, the one that succeeded).
    public var provider: String
    /// Seconds from the first request to the last byte, retries included.
    public var latency: Double
    /// Seconds from the request that succeeded to its first text (streaming only).
    public var timeToFirstToken: Double?
    /// How many HTTP attempts it took (1 when the first succeeded).
    public var attempts: Int
    /// Providers of a fallback chain that failed before this one answered.
    public var fellBackFrom: [String]
    /// Whether the answer came from the response cache rather than the provider.
    public var cached = false
    /// Whether it came through a batch API, priced at the batch discount.
    public var batched = false

    /// Creates a reply.
    public init(text: String, usage: Usage, finishReason: FinishReason, rawFinishReason: String? = nil, model: String,
                provider: String, latency: Double = 0, timeToFirstToken: Double? = nil, attempts: Int = 1,
                fellBackFrom: [String] = []) {
        self.text = text
        self.usage = usage
        self.finishReason = finishReason
        self.rawFinishReason = rawFinishReason
        self.model = model
        self.provider = provider
        self.latency = latency
        self.timeToFirstToken = timeToFirstToken
        self.attempts = attempts
        self.fellBackFrom = fellBackFrom
    }
}

/// One event of a streamed reply.
public enum StreamEvent: Sendable, Hashable {
    /// A piece of text, in order.
    case delta(String)
    /// The stream broke off after some text and is starting again: discard the text so far.
    case restarted(reason: ProviderError)
    /// The end: the whole reply, with usage and timings.
    case finished(ProviderReply)
}

/// A model behind one interface: complete, or stream.
public protocol ChatProvider: Sendable {
    /// The provider's id (from providers.yaml, or the inline spec).
    var id: String { get }
    /// The model it uses when a request names none.
    var model: String { get }
    /// Sends the request and waits for the whole reply.
    /// - Throws: ``ProviderError`` once retries are exhausted or the error is not retryable;
    ///   `CancellationError` when the task is cancelled.
    func complete(_ request: ChatRequest) async throws -> ProviderReply
    /// Sends the request and yields text as it arrives, then the whole reply.
    func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error>
    /// Whether an answer is only computed, in this process, with nothing to wait for (the
    /// mock without latency, canned replies): more requests at once than there are cores
    /// then buy no speed, only memory.
    var isComputeBound: Bool { get }
    /// Whether this is an app's own endpoint (an `http` target), which keeps its own context:
    /// CoachLab does not rotate its conversations, since the summary would be asked of the app.
    var isApp: Bool { get }
    /// Whether requests go through a batch API (``BatchProvider``): hundreds wait at once, so
    /// the run lets them all in.
    var isBatched: Bool { get }
}

extension ChatProvider {
    public var isComputeBound: Bool { false }
    public var isApp: Bool { false }
    public var isBatched: Bool { false }

    /// Streams and collects: the reply of a stream, for providers whose `complete` streams.
    func collect(_ stream: AsyncThrowingStream<StreamEvent, Error>) async throws -> ProviderReply {
        for try await event in stream {
            if case .finished(let reply) = event { return reply }
        }
        throw ProviderError(.streamInterrupted, provider: id, message: "the stream ended without a final reply")
    }
}
