import CoachLab
import Foundation

/// OpenAI Chat Completions, also spoken by OpenAI-compatible servers (OpenRouter, Ollama's
/// `/v1`, llama.cpp, vLLM). The system prompt is the first message. OpenAI itself takes
/// `max_completion_tokens`; compatible servers read only `max_tokens`.
public struct OpenAIWire: WireFormat {
    /// Whether to send `max_tokens` (compatible servers) rather than `max_completion_tokens`.
    public var legacyMaxTokens: Bool
    /// Whether to fold the system prompt into the first user message, for servers whose chat
    /// template has no system role and silently drops it (llama.cpp's `gemma` format).
    public var systemAsUser: Bool

    public init(legacyMaxTokens: Bool, systemAsUser: Bool = false) {
        self.legacyMaxTokens = legacyMaxTokens
        self.systemAsUser = systemAsUser
    }

    public func request(_ request: ChatRequest, model: String, stream: Bool, baseURL: String, apiKey: String?) -> HTTPRequestSpec {
        var history = request.messages
        var messages: [JSONValue] = []
        if systemAsUser, let first = history.firstIndex(where: { $0.role == .user }) {
            history[first].content = request.system + "\n\n" + history[first].content
        } else {
            messages.append(["role": "system", "content": .string(request.system)])
        }
        messages += history.map { ["role": .string($0.role.rawValue), "content": .string($0.content)] }
        var body: [String: JSONValue] = ["model": .string(model), "messages": .array(messages)]
        let settings = request.settings
        if let temperature = settings.temperature { body["temperature"] = .number(temperature) }
        if let maxTokens = settings.maxTokens { body[legacyMaxTokens ? "max_tokens" : "max_completion_tokens"] = .number(Double(maxTokens)) }
        if !settings.stop.isEmpty { body["stop"] = .array(settings.stop.map(JSONValue.string)) }
        if let schema = settings.responseSchema {
            body["response_format"] = ["type": "json_schema", "json_schema": ["name": "reply", "strict": true, "schema": schema]]
        }
        if stream {
            body["stream"] = true
            body["stream_options"] = ["include_usage": true]
        }
        var headers = [HTTPHeader("content-type", "application/json")]
        if let apiKey { headers.append(HTTPHeader("authorization", "Bearer \(apiKey)")) }
        if stream { headers.append(HTTPHeader("accept", "text/event-stream")) }
        return HTTPRequestSpec(url: Wire.joinPath(baseURL, "/chat/completions"), headers: headers, body: Wire.body(.object(body)))
    }

    public func embeddingRequest(_ texts: [String], model: String, baseURL: String, apiKey: String?) -> HTTPRequestSpec? {
        var headers = [HTTPHeader("content-type", "application/json")]
        if let apiKey { headers.append(HTTPHeader("authorization", "Bearer \(apiKey)")) }
        let body: JSONValue = ["model": .string(model), "input": .array(texts.map(JSONValue.string)), "encoding_format": "float"]
        return HTTPRequestSpec(url: Wire.joinPath(baseURL, "/embeddings"), headers: headers, body: Wire.body(body))
    }

    public func decodeEmbeddings(_ body: Data, provider: String) throws -> [[Double]] {
        let json = try Wire.parse(body, provider: provider)
        // Ordered by `index`, as the API numbers them.
        let items = json["data"]?.array?.sorted { ($0["index"]?.int ?? 0) < ($1["index"]?.int ?? 0) }
        return try Wire.vectors(items, key: "embedding", provider: provider)
    }

    public func decodeReply(_ body: Data, provider: String) throws -> DecodedReply {
        let json = try Wire.parse(body, provider: provider)
        guard let choice = json["choices"]?[0] else {
            throw ProviderError(.malformedResponse, provider: provider, message: "the response has no choices")
        }
        let raw = choice["finish_reason"]?.string
        let content = choice["message"]?["content"]?.string
        // No text and no filter to explain it is the provider's fault, not a reply to score: an
        // error, never a fail. (A filtered reply is scored, as Gemini's blocked one is.)
        if content == nil, Self.finishReason(raw) != .contentFilter {
            let refusal = choice["message"]?["refusal"]?.string.map { "; refusal: \($0.prefix(200))" } ?? ""
            throw ProviderError(.malformedResponse, provider: provider,
                                message: "the reply has no content (content is null or missing; finish_reason: \(raw ?? "none")\(refusal))")
        }
        return DecodedReply(text: content ?? "",
                            inputTokens: json["usage"]?["prompt_tokens"]?.int,
                            outputTokens: json["usage"]?["completion_tokens"]?.int,
                            rawFinishReason: raw, finishReason: Self.finishReason(raw), model: json["model"]?.string)
    }

    public func streamDecoder(provider: String) -> any StreamDecoder { Decoder(provider: provider) }

    public func error(status: Int, headers: [HTTPHeader], body: Data, provider: String, now: Date) -> ProviderError {
        let json = try? JSONValue.parse(body)
        let detail = json?["error"]
        let message = detail?["message"]?.string ?? detail?.string ?? String(decoding: body.prefix(300), as: UTF8.self)
        let type = detail?["type"]?.string ?? ""
        let code = detail?["code"]?.string ?? ""
        var kind = Wire.code(forStatus: status)
        if code == "insufficient_quota" || type == "insufficient_quota" { kind = .insufficientQuota }
        else if Wire.looksLikeContextOverflow(code + " " + type + " " + message) { kind = .contextLength }
        else if status == 503 && message.lowercased().contains("loading model") { kind = .overloaded }
        let advice = Wire.RetryAdvice(headers: headers, now: now)
        return ProviderError(kind, provider: provider, status: status, message: message.isEmpty ? "HTTP \(status)" : message,
                             retryAfter: advice.after, shouldRetry: advice.should)
    }

    static func finishReason(_ raw: String?) -> FinishReason {
        switch raw {
        case "stop": .stop
        case "length": .length
        case "content_filter": .contentFilter
        case "tool_calls", "function_call": .toolUse
        case nil: .stop
        default: .other
        }
    }

    struct Decoder: StreamDecoder {
        let provider: String
        var tally = StreamTally()
        var isDone = false
        var endsOnClose: Bool { false }

        mutating func consume(_ event: SSEEvent) throws -> [String] {
            if event.data == "[DONE]" {
                isDone = true
                return []
            }
            let json = try Wire.parse(Data(event.data.utf8), provider: provider)
            if let error = json["error"] {
                throw ProviderError(.streamInterrupted, provider: provider,
                                    message: error["message"]?.string ?? error.text)
            }
            tally.model = json["model"]?.string ?? tally.model
            if let usage = json["usage"], usage != .null {
                tally.inputTokens = usage["prompt_tokens"]?.int ?? tally.inputTokens
                tally.outputTokens = usage["completion_tokens"]?.int ?? tally.outputTokens
            }
            guard let choice = json["choices"]?[0] else { return [] }
            tally.rawFinishReason = choice["finish_reason"]?.string ?? tally.rawFinishReason
            return tally.append(choice["delta"]?["content"]?.string)
        }

        var summary: DecodedReply { tally.summary(OpenAIWire.finishReason) }
    }
}
