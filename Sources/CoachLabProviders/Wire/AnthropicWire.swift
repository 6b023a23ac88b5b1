import CoachLab
import Foundation

/// Anthropic Messages: `system` is top-level, messages take only `user` and `assistant`,
/// `max_tokens` is required, and errors are classified by `error.type`, including errors
/// that arrive inside a stream after HTTP 200. The TicBuddy proxy speaks the same responses
/// behind `POST /api/chat` with `{messages, system}`.
public struct AnthropicWire: WireFormat {
    /// Whether this is the TicBuddy proxy's request shape rather than the Messages API's.
    public var proxy: Bool

    public init(proxy: Bool = false) { self.proxy = proxy }

    /// The version header CoachLab sends.
    public static let version = "2023-06-01"
    /// `max_tokens` when a request sets none (the API requires one).
    public static let defaultMaxTokens = 1024

    public func request(_ request: ChatRequest, model: String, stream: Bool, baseURL: String, apiKey: String?) -> HTTPRequestSpec {
        let messages: [JSONValue] = request.messages.map { ["role": .string($0.role.rawValue), "content": .string($0.content)] }
        var body: [String: JSONValue] = ["messages": .array(messages), "system": .string(request.system)]
        if stream { body["stream"] = true }
        var headers = [HTTPHeader("content-type", "application/json")]
        if stream { headers.append(HTTPHeader("accept", "text/event-stream")) }
        if proxy {
            return HTTPRequestSpec(url: Wire.joinPath(baseURL, "/api/chat"), headers: headers, body: Wire.body(.object(body)))
        }
        body["model"] = .string(model)
        body["max_tokens"] = .number(Double(request.settings.maxTokens ?? Self.defaultMaxTokens))
        if let temperature = request.settings.temperature { body["temperature"] = .number(temperature) }
        if !request.settings.stop.isEmpty { body["stop_sequences"] = .array(request.settings.stop.map(JSONValue.string)) }
        headers.append(HTTPHeader("anthropic-version", Self.version))
        if let apiKey { headers.append(HTTPHeader("x-api-key", apiKey)) }
        return HTTPRequestSpec(url: Wire.joinPath(baseURL, "/v1/messages"), headers: headers, body: Wire.body(.object(body)))
    }

    public func decodeReply(_ body: Data, provider: String) throws -> DecodedReply {
        let json = try Wire.parse(body, provider: provider)
        if json["type"]?.string == "error" {
            throw Self.error(json["error"], status: nil, advice: .none, provider: provider)
        }
        guard let content = json["content"]?.array else {
            throw ProviderError(.malformedResponse, provider: provider, message: "the response has no content")
        }
        let text = content.filter { $0["type"]?.string == "text" }.compactMap { $0["text"]?.string }.joined()
        let raw = json["stop_reason"]?.string
        return DecodedReply(text: text, inputTokens: json["usage"]?["input_tokens"]?.int,
                            outputTokens: json["usage"]?["output_tokens"]?.int, rawFinishReason: raw,
                            finishReason: Self.finishReason(raw), model: json["model"]?.string)
    }

    public func streamDecoder(provider: String) -> any StreamDecoder { Decoder(provider: provider) }

    public func error(status: Int, headers: [HTTPHeader], body: Data, provider: String, now: Date) -> ProviderError {
        let json = try? JSONValue.parse(body)
        var error = Self.error(json?["error"], status: status, advice: Wire.RetryAdvice(headers: headers, now: now), provider: provider)
        if json?["error"] == nil {
            error.message = String(decoding: body.prefix(300), as: UTF8.self)
            if error.message.isEmpty { error.message = "HTTP \(status)" }
        }
        return error
    }

    static func error(_ detail: JSONValue?, status: Int?, advice: Wire.RetryAdvice, provider: String) -> ProviderError {
        let type = detail?["type"]?.string ?? ""
        let message = detail?["message"]?.string ?? (type.isEmpty ? "HTTP \(status ?? 0)" : type)
        let code: ProviderError.Code
        switch type {
        case "invalid_request_error": code = Wire.looksLikeContextOverflow(message) ? .contextLength : .invalidRequest
        case "authentication_error": code = .authentication
        case "permission_error": code = .permission
        case "not_found_error": code = .notFound
        case "request_too_large": code = .contextLength
        case "rate_limit_error": code = .rateLimited
        case "api_error": code = .server
        case "overloaded_error": code = .overloaded
        default: code = status.map(Wire.code(forStatus:)) ?? .server
        }
        return ProviderError(code, provider: provider, status: status, message: message,
                             retryAfter: advice.after, shouldRetry: advice.should)
    }

    static func finishReason(_ raw: String?) -> FinishReason {
        switch raw {
        case "end_turn", nil: .stop
        case "max_tokens": .length
        case "stop_sequence": .stopSequence
        case "tool_use": .toolUse
        case "refusal": .refusal
        default: .other
        }
    }

    struct Decoder: StreamDecoder {
        let provider: String
        var tally = StreamTally()
        var isDone = false
        var endsOnClose: Bool { false }

        mutating func consume(_ event: SSEEvent) throws -> [String] {
            let json = try Wire.parse(Data(event.data.utf8), provider: provider)
            let type = event.event ?? json["type"]?.string ?? ""
            switch type {
            case "message_start":
                tally.model = json["message"]?["model"]?.string
                tally.inputTokens = json["message"]?["usage"]?["input_tokens"]?.int
                tally.outputTokens = json["message"]?["usage"]?["output_tokens"]?.int
            case "content_block_delta" where json["delta"]?["type"]?.string == "text_delta":
                return tally.append(json["delta"]?["text"]?.string)
            case "message_delta":
                tally.rawFinishReason = json["delta"]?["stop_reason"]?.string ?? tally.rawFinishReason
                tally.outputTokens = json["usage"]?["output_tokens"]?.int ?? tally.outputTokens
            case "message_stop":
                isDone = true
            case "error":
                var error = AnthropicWire.error(json["error"], status: nil, advice: .none, provider: provider)
                if error.code.isRetryable, error.code != .overloaded { error.code = .streamInterrupted }
                throw error
            default:
                break  // ping, content_block_start, content_block_stop
            }
            return []
        }

        var summary: DecodedReply { tally.summary(AnthropicWire.finishReason) }
    }
}
