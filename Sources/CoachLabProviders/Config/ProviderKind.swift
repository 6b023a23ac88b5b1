import CoachLab
import Foundation

/// The kinds of provider CoachLab speaks to.
public enum ProviderKind: String, Sendable, CaseIterable, Hashable {
    case openai
    case openaiCompatible = "openai-compatible"
    case anthropic
    case gemini
    case proxy
    /// An app's own chat endpoint (``HTTPTarget``).
    case http
    case mock
    case canned
    case fallback

    /// The base URL used when none is configured; nil when one must be given.
    public var defaultBaseURL: String? {
        switch self {
        case .openai: "https://api.openai.com/v1"
        case .anthropic: "https://api.anthropic.com"
        case .gemini: "https://generativelanguage.googleapis.com"
        default: nil
        }
    }

    /// The environment variable read for the key when none is configured; nil for kinds
    /// that need no key.
    public var defaultKeyVariable: String? {
        switch self {
        case .openai: "OPENAI_API_KEY"
        case .anthropic: "ANTHROPIC_API_KEY"
        case .gemini: "GEMINI_API_KEY"
        default: nil
        }
    }

    /// Whether the kind's API takes a JSON Schema for the reply (OpenAI `response_format`,
    /// Gemini `responseJsonSchema`; the mock honours any schema). Servers that only claim
    /// OpenAI compatibility, Anthropic and the proxy get strict-JSON instructions instead.
    public var supportsResponseSchema: Bool {
        switch self {
        case .openai, .gemini, .mock: true
        default: false
        }
    }

    /// Whether the kind calls a server.
    public var isRemote: Bool {
        switch self {
        case .openai, .openaiCompatible, .anthropic, .gemini, .proxy, .http: true
        case .mock, .canned, .fallback: false
        }
    }

    /// The wire format of a remote kind; nil for `http`, whose wire is its configuration's
    /// (``HTTPTargetWire``).
    public func wire(systemAsUser: Bool = false) -> (any WireFormat)? {
        switch self {
        case .openai: OpenAIWire(legacyMaxTokens: false, systemAsUser: systemAsUser)
        case .openaiCompatible: OpenAIWire(legacyMaxTokens: true, systemAsUser: systemAsUser)
        case .anthropic: AnthropicWire()
        case .gemini: GeminiWire()
        case .proxy: AnthropicWire(proxy: true)
        case .http, .mock, .canned, .fallback: nil
        }
    }

    /// The request a provider of this kind would be sent for one user message on `system`:
    /// its URL (`{baseURL}` where the kind has no default) and its body, pretty-printed with
    /// sorted keys. The key header is not part of it. The model, temperature and token limit
    /// are the pack's `defaults.model`. Nil for a kind that calls no server.
    public func previewRequest(system: String, message: String, pack: Pack) throws -> (url: String, body: String)? {
        guard isRemote, let wire = wire() else { return nil }
        let defaults = pack.defaults.value?["model"]
        let model = defaults?.located("model")?.value ?? "model"
        let settings = GenerationSettings(model: model, temperature: defaults?.number("temperature"), maxTokens: defaults?.integer("maxTokens"))
        let spec = wire.request(ChatRequest(system: system, messages: [ChatMessage(.user, message)], settings: settings),
                                model: model, stream: false, baseURL: defaultBaseURL ?? "{baseURL}", apiKey: nil)
        let object = try JSONSerialization.jsonObject(with: spec.body)
        let pretty = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return (spec.url, String(decoding: pretty, as: UTF8.self))
    }
}
