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
    /// A reply the mock provider must give (a fixture's scripted reply); others ignore it.
    public var scriptedReply: String?
    /// The lines the latest message's flag added to `system` (``CompiledPrompt/alert(comparedWith:)``):
    /// the mock provider reads them as the live alert however the pack words it; others
    /// ignore it, and nothing of it is sent.
    public var alert: String?
    /// Where each value in `system` came from (``CompiledPrompt/structure``): the mock provider
    /// takes names, facts and the alert's instructions from it before it reads any wording;
    /// others ignore it, and nothing of it is sent.
    public var structure: PromptStructure?

    /// Creates a request.
    public init(system: String, messages: [ChatMessage], settings: GenerationSettings = GenerationSettings(model: ""),
                scriptedReply: String? = nil, alert: String? = nil, structure: PromptStructure? = nil) {
        self.system = system
        self.messages = messages
        self.settings = settings
        self.scriptedReply = scriptedReply
        self.alert = alert
        self.structure = structure
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
}

extension ChatProvider {
    public var isComputeBound: Bool { false }

    /// Streams and collects: the reply of a stream, for providers whose `complete` streams.
    func collect(_ stream: AsyncThrowingStream<StreamEvent, Error>) async throws -> ProviderReply {
        for try await event in stream {
            if case .finished(let reply) = event { return reply }
        }
        throw ProviderError(.streamInterrupted, provider: id, message: "the stream ended without a final reply")
    }
}
