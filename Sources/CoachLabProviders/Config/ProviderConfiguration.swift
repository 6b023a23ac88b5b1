import CoachLab
import Foundation

/// One configured provider, from `providers.yaml` or an inline `--provider kind:model`.
public struct ProviderConfiguration: Sendable, Hashable {
    /// Prices in US dollars per million tokens.
    public struct Prices: Sendable, Hashable, Codable {
        public var input: Double
        public var output: Double
        public init(input: Double, output: Double) {
            self.input = input
            self.output = output
        }

        /// The cost of a call's usage.
        public func cost(_ usage: Usage) -> Double {
            (Double(usage.inputTokens) * input + Double(usage.outputTokens) * output) / 1_000_000
        }

        /// What OpenAI's, Anthropic's and Gemini's batch APIs charge, as a share of the list price.
        public static let batchShare = 0.5

        /// The cost of a call's usage, at the batch price when it went through a batch API.
        public func cost(_ usage: Usage, batched: Bool) -> Double {
            cost(usage) * (batched ? Self.batchShare : 1)
        }
    }

    public var id: String
    public var kind: ProviderKind
    public var model: String
    public var baseURL: String?
    /// The environment variable that holds the key. The key itself is never stored here.
    public var apiKeyVariable: String?
    public var temperature: Double?
    public var maxTokens: Int?
    /// A limit no request goes past, not even one that asks for more (a structured
    /// generation asks for 2048): the command line's `--max-tokens`.
    public var maxTokensCap: Int?
    public var timeout: Double
    public var concurrency: Int
    public var maxRetries: Int
    /// Retries of timeouts, within `maxRetries`. Default 1.
    public var timeoutRetries = 1
    /// Retries of rate limits, apart from `maxRetries`. Default 8.
    public var rateLimitRetries = 8
    /// The largest response accepted, whole or streamed, in bytes.
    public var maxResponseBytes: Int = HTTPProvider.defaultMaximumResponseBytes
    public var prices: Prices?
    /// Fallback links, by id.
    public var chain: [String]
    /// Canned replies.
    public var replies: [String]
    /// For canned: a pack whose `defaults.cannedReplies` to use.
    public var pack: String?
    /// Mock latency in seconds.
    public var latency: Double
    /// Whether the system prompt travels as part of the first user message (`systemRole: user`).
    public var systemAsUser = false
    /// Whether requests may carry a JSON Schema for structured output; the kind's default
    /// (``ProviderKind/supportsResponseSchema``) unless providers.yaml says `structuredOutput:`.
    public var structuredOutput: Bool?
    /// Whether structured generations send their JSON Schema to this provider.
    public var sendsResponseSchema: Bool { structuredOutput ?? kind.supportsResponseSchema }
    /// The model embeddings are asked of (`similar` by embedding); the chat model when nil.
    public var embeddingModel: String?
    /// For `http`: the app's endpoint, its request and where its reply is.
    public var target: HTTPTarget?
    /// Where it was configured, for messages.
    public var location: SourceLocation?

    public init(id: String, kind: ProviderKind, model: String, baseURL: String? = nil, apiKeyVariable: String? = nil,
                temperature: Double? = nil, maxTokens: Int? = nil, timeout: Double = 60, concurrency: Int = 4,
                maxRetries: Int = 3, prices: Prices? = nil, chain: [String] = [], replies: [String] = [], latency: Double = 0,
                location: SourceLocation? = nil) {
        self.id = id
        self.kind = kind
        self.model = model
        self.baseURL = baseURL
        self.apiKeyVariable = apiKeyVariable
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.timeout = timeout
        self.concurrency = concurrency
        self.maxRetries = maxRetries
        self.prices = prices
        self.chain = chain
        self.replies = replies
        self.latency = latency
        self.location = location
    }

    /// The retry policy the configuration asks for.
    public var retryPolicy: RetryPolicy {
        RetryPolicy(maxRetries: maxRetries, maxTimeoutRetries: timeoutRetries, maxRateLimitRetries: rateLimitRetries)
    }

    /// The configuration with a run's command-line settings applied.
    public func applying(_ overrides: ProviderOverrides) -> ProviderConfiguration {
        var configuration = self
        if let maxTokens = overrides.maxTokens {
            configuration.maxTokens = maxTokens
            configuration.maxTokensCap = maxTokens
        }
        if let temperature = overrides.temperature { configuration.temperature = temperature }
        if let timeout = overrides.timeout { configuration.timeout = timeout }
        if let retries = overrides.timeoutRetries { configuration.timeoutRetries = retries }
        return configuration
    }

    /// The variable the key is read from: the configured one, or the kind's default.
    public var keyVariable: String? { apiKeyVariable ?? kind.defaultKeyVariable }

    /// The spec of one entry in providers.yaml.
    public static let spec = ObjectSpec("provider", "A provider CoachLab can call.", fields: [
        FieldSpec("id", .string, required: true, "How --provider names it."),
        FieldSpec("kind", .oneOf(ProviderKind.allCases.map(\.rawValue)), required: true, "The protocol."),
        FieldSpec("model", .string, "The model name (not needed for canned, fallback and http)."),
        FieldSpec("baseURL", .string, "The server; required for openai-compatible and proxy."),
        FieldSpec("apiKeyEnv", .string, "The environment variable holding the key. Keys never go in this file."),
        FieldSpec("temperature", .number, "Default sampling temperature."),
        FieldSpec("maxTokens", .integer, "Default maximum output tokens."),
        FieldSpec("timeoutSeconds", .number, "Seconds a request may take. Default 60."),
        FieldSpec("concurrency", .integer, "Requests in flight at once. Default 4."),
        FieldSpec("maxRetries", .integer, "Retries of overloads, server errors, dropped connections and timeouts. Default 3."),
        FieldSpec("rateLimitRetries", .integer, "Retries of rate limits (429), counted apart: a provider pacing a run is no failing request. Default 8."),
        FieldSpec("timeoutRetries", .integer, "Of those, retries after a timeout. Default 1: a request that ran out of time once usually does again."),
        FieldSpec("maxResponseBytes", .integer, "The largest response accepted, whole or streamed, in bytes. Default 16 MiB."),
        FieldSpec("prices", .object(ObjectSpec("prices", "US dollars per million tokens.", fields: [
            FieldSpec("input", .number, required: true, "Per million input tokens."),
            FieldSpec("output", .number, required: true, "Per million output tokens."),
        ])), "Prices for cost reports."),
        FieldSpec("chain", .list(.string), "For fallback: provider ids, tried in order."),
        FieldSpec("replies", .list(.text), "For canned: the replies."),
        FieldSpec("pack", .string, "For canned: a pack folder whose defaults.cannedReplies are the replies."),
        FieldSpec("latencyMs", .integer, "For mock: simulated latency."),
        FieldSpec("embeddingModel", .string, "The model that serves embeddings, for similar by embedding (text-embedding-3-small, gemini-embedding-001); default: model."),
        FieldSpec("structuredOutput", .boolean,
                  "Whether structured generations send a JSON Schema (OpenAI response_format, Gemini responseJsonSchema). Default true for openai, gemini and mock; elsewhere CoachLab asks for strict JSON and repairs."),
        FieldSpec("systemRole", .oneOf(["system", "user"]),
                  "OpenAI and compatible: send the system prompt as a system message (default), or fold it into the first user message for models whose chat template drops system messages."),
    ] + HTTPTarget.fields)

    /// The spec of providers.yaml.
    public static let fileSpec = ObjectSpec("providers file", "CoachLab's provider configuration.", fields: [
        FieldSpec("providers", .list(.object(spec)), required: true, "The providers."),
    ])
}

/// Settings a command line gives every provider of a run (`--max-tokens`, `--temperature`,
/// `--timeout`, `--timeout-retries`), over what providers.yaml says. They reach inline
/// providers too, which have no file to set them in.
public struct ProviderOverrides: Sendable, Hashable, Codable {
    public var maxTokens: Int?
    public var temperature: Double?
    public var timeout: Double?
    public var timeoutRetries: Int?

    public init(maxTokens: Int? = nil, temperature: Double? = nil, timeout: Double? = nil, timeoutRetries: Int? = nil) {
        self.maxTokens = maxTokens
        self.temperature = temperature
        self.timeout = timeout
        self.timeoutRetries = timeoutRetries
    }

    /// These settings with `newer`'s over them, where it sets any.
    public func overridden(by newer: ProviderOverrides) -> ProviderOverrides {
        ProviderOverrides(maxTokens: newer.maxTokens ?? maxTokens, temperature: newer.temperature ?? temperature,
                          timeout: newer.timeout ?? timeout, timeoutRetries: newer.timeoutRetries ?? timeoutRetries)
    }

    /// Whether no setting is overridden.
    public var isEmpty: Bool { self == ProviderOverrides() }
}
