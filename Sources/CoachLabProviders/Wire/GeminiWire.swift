import CoachLab
import Foundation

/// Gemini generateContent and streamGenerateContent (`alt=sse`): `systemInstruction`, roles
/// `user` and `model`, `generationConfig`. A stream has no end marker; it closes. A bad key is
/// a 400 `INVALID_ARGUMENT` with `API_KEY_INVALID`; rate limits carry `RetryInfo.retryDelay`.
public struct GeminiWire: WireFormat {
    public init() {}

    public func embeddingRequest(_ texts: [String], model: String, baseURL: String, apiKey: String?) -> HTTPRequestSpec? {
        var headers = [HTTPHeader("content-type", "application/json")]
        if let apiKey { headers.append(HTTPHeader("x-goog-api-key", apiKey)) }
        let escaped = model.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/:"))) ?? model
        let requests = texts.map { text -> JSONValue in ["model": .string("models/\(model)"), "content": ["parts": [["text": .string(text)]]]] }
        return HTTPRequestSpec(url: Wire.joinPath(baseURL, "/v1beta/models/\(escaped):batchEmbedContents"), headers: headers,
                               body: Wire.body(["requests": .array(requests)]))
    }

    public func decodeEmbeddings(_ body: Data, provider: String) throws -> [[Double]] {
        try Wire.vectors(try Wire.parse(body, provider: provider)["embeddings"]?.array, key: "values", provider: provider)
    }

    public func request(_ request: ChatRequest, model: String, stream: Bool, baseURL: String, apiKey: String?) -> HTTPRequestSpec {
        let contents: [JSONValue] = request.messages.map { message in
            ["role": .string(message.role == .user ? "user" : "model"), "parts": [["text": .string(message.content)]]]
        }
        var config: [String: JSONValue] = [:]
        if let temperature = request.settings.temperature { config["temperature"] = .number(temperature) }
        if let maxTokens = request.settings.maxTokens { config["maxOutputTokens"] = .number(Double(maxTokens)) }
        if !request.settings.stop.isEmpty { config["stopSequences"] = .array(request.settings.stop.map(JSONValue.string)) }
        if let schema = request.settings.responseSchema {
            config["responseMimeType"] = "application/json"
            config["responseJsonSchema"] = schema
        }
        var body: [String: JSONValue] = ["contents": .array(contents), "systemInstruction": ["parts": [["text": .string(request.system)]]]]
        if !config.isEmpty { body["generationConfig"] = .object(config) }
        let action = stream ? ":streamGenerateContent?alt=sse" : ":generateContent"
        var headers = [HTTPHeader("content-type", "application/json")]
        if let apiKey { headers.append(HTTPHeader("x-goog-api-key", apiKey)) }
        let escaped = model.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/:"))) ?? model
        return HTTPRequestSpec(url: Wire.joinPath(baseURL, "/v1beta/models/\(escaped)\(action)"), headers: headers,
                               body: Wire.body(.object(body)))
    }

    public func decodeReply(_ body: Data, provider: String) throws -> DecodedReply {
        let json = try Wire.parse(body, provider: provider)
        if let error = json["error"] { throw Self.error(error, status: error["code"]?.int, advice: .none, provider: provider) }
        guard let candidate = json["candidates"]?[0] else {
            let blocked = json["promptFeedback"]?["blockReason"]?.string
            if let blocked {
                return DecodedReply(text: "", inputTokens: json["usageMetadata"]?["promptTokenCount"]?.int, outputTokens: 0,
                                    rawFinishReason: blocked, finishReason: .contentFilter, model: json["modelVersion"]?.string)
            }
            throw ProviderError(.malformedResponse, provider: provider, message: "the response has no candidates")
        }
        let raw = candidate["finishReason"]?.string
        return DecodedReply(text: Self.text(of: candidate), inputTokens: json["usageMetadata"]?["promptTokenCount"]?.int,
                            outputTokens: json["usageMetadata"]?["candidatesTokenCount"]?.int, rawFinishReason: raw,
                            finishReason: Self.finishReason(raw), model: json["modelVersion"]?.string)
    }

    public func streamDecoder(provider: String) -> any StreamDecoder { Decoder(provider: provider) }

    public func error(status: Int, headers: [HTTPHeader], body: Data, provider: String, now: Date) -> ProviderError {
        let json = try? JSONValue.parse(body)
        let detail = json?["error"] ?? json?[0]?["error"]
        guard let detail else {
            let message = String(decoding: body.prefix(300), as: UTF8.self)
            return ProviderError(Wire.code(forStatus: status), provider: provider, status: status,
                                 message: message.isEmpty ? "HTTP \(status)" : message,
                                 retryAfter: Wire.RetryAdvice(headers: headers, now: now).after)
        }
        return Self.error(detail, status: status, advice: Wire.RetryAdvice(headers: headers, now: now), provider: provider)
    }

    static func error(_ detail: JSONValue, status: Int?, advice: Wire.RetryAdvice, provider: String) -> ProviderError {
        let message = detail["message"]?.string ?? detail.text
        let statusName = detail["status"]?.string ?? ""
        let details = detail["details"]?.array ?? []
        let reasons = details.compactMap { $0["reason"]?.string }
        var retryAfter = advice.after
        for item in details where item["@type"]?.string?.hasSuffix("google.rpc.RetryInfo") == true {
            if let delay = item["retryDelay"]?.string.flatMap(RetryPolicy.duration) { retryAfter = delay }
        }
        let code: ProviderError.Code
        if reasons.contains("API_KEY_INVALID") || statusName == "UNAUTHENTICATED" { code = .authentication }
        else if statusName == "RESOURCE_EXHAUSTED" { code = .rateLimited }
        else if statusName == "UNAVAILABLE" { code = .overloaded }
        else if statusName == "PERMISSION_DENIED" { code = .permission }
        else if statusName == "NOT_FOUND" { code = .notFound }
        else if statusName == "DEADLINE_EXCEEDED" { code = .timeout }
        else if statusName == "INVALID_ARGUMENT" { code = Wire.looksLikeContextOverflow(message) ? .contextLength : .invalidRequest }
        else { code = Wire.code(forStatus: status ?? 500) }
        return ProviderError(code, provider: provider, status: status, message: message, retryAfter: retryAfter,
                             shouldRetry: advice.should)
    }

    static func text(of candidate: JSONValue) -> String {
        (candidate["content"]?["parts"]?.array ?? []).compactMap { $0["text"]?.string }.joined()
    }

    static func finishReason(_ raw: String?) -> FinishReason {
        switch raw {
        case "STOP", nil: .stop
        case "MAX_TOKENS": .length
        case "SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII": .contentFilter
        default: .other
        }
    }

    struct Decoder: StreamDecoder {
        let provider: String
        var tally = StreamTally()
        var isDone: Bool { false }
        var endsOnClose: Bool { true }

        mutating func consume(_ event: SSEEvent) throws -> [String] {
            let json = try Wire.parse(Data(event.data.utf8), provider: provider)
            if let error = json["error"] {
                var failure = GeminiWire.error(error, status: error["code"]?.int, advice: .none, provider: provider)
                if failure.code.isRetryable { failure.code = .streamInterrupted }
                throw failure
            }
            tally.model = json["modelVersion"]?.string ?? tally.model
            tally.inputTokens = json["usageMetadata"]?["promptTokenCount"]?.int ?? tally.inputTokens
            tally.outputTokens = json["usageMetadata"]?["candidatesTokenCount"]?.int ?? tally.outputTokens
            guard let candidate = json["candidates"]?[0] else { return [] }
            tally.rawFinishReason = candidate["finishReason"]?.string ?? tally.rawFinishReason
            return tally.append(GeminiWire.text(of: candidate))
        }

        var summary: DecodedReply { tally.summary(GeminiWire.finishReason) }
    }
}
