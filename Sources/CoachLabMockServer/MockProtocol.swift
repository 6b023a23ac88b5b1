import CoachLab
import CoachLabProviders
import Foundation

/// One of the wire protocols serve-mock speaks: how an incoming body becomes a
/// ``ChatRequest``, and how replies, stream events and errors are written back.
enum MockProtocol: Sendable {
    case openai
    case anthropic
    case gemini(model: String, stream: Bool)
    case proxy

    /// Reads a request body.
    func chatRequest(from body: JSONValue) throws -> (request: ChatRequest, stream: Bool, includeUsage: Bool) {
        func text(_ content: JSONValue?) -> String {
            if let string = content?.string { return string }
            return (content?.array ?? []).compactMap { $0["text"]?.string }.joined()
        }
        switch self {
        case .openai:
            guard let messages = body["messages"]?.array else { throw MockError.badRequest("'messages' is required") }
            var system: [String] = []
            var history: [ChatMessage] = []
            for message in messages {
                let role = message["role"]?.string ?? "user"
                let content = text(message["content"])
                switch role {
                case "system", "developer": system.append(content)
                case "assistant": history.append(ChatMessage(.assistant, content))
                default: history.append(ChatMessage(.user, content))
                }
            }
            let maxTokens = body["max_completion_tokens"]?.int ?? body["max_tokens"]?.int
            let settings = GenerationSettings(model: body["model"]?.string ?? "", temperature: body["temperature"]?.number,
                                              maxTokens: maxTokens)
            return (ChatRequest(system: system.joined(separator: "\n\n"), messages: history, settings: settings),
                    body["stream"]?.bool ?? false, body["stream_options"]?["include_usage"]?.bool ?? false)
        case .anthropic, .proxy:
            guard let messages = body["messages"]?.array else { throw MockError.badRequest("messages: Field required") }
            if case .anthropic = self, body["max_tokens"] == nil { throw MockError.badRequest("max_tokens: Field required") }
            let history = messages.map { message in
                ChatMessage(message["role"]?.string == "assistant" ? .assistant : .user, text(message["content"]))
            }
            let settings = GenerationSettings(model: body["model"]?.string ?? "claude-mock", temperature: body["temperature"]?.number,
                                              maxTokens: body["max_tokens"]?.int)
            return (ChatRequest(system: text(body["system"]), messages: history, settings: settings), body["stream"]?.bool ?? false, true)
        case .gemini(let model, let stream):
            guard let contents = body["contents"]?.array else { throw MockError.badRequest("contents is required") }
            let history = contents.map { content in
                ChatMessage(content["role"]?.string == "model" ? .assistant : .user,
                            (content["parts"]?.array ?? []).compactMap { $0["text"]?.string }.joined())
            }
            let system = (body["systemInstruction"]?["parts"]?.array ?? []).compactMap { $0["text"]?.string }.joined(separator: "\n")
            let config = body["generationConfig"]
            let settings = GenerationSettings(model: model, temperature: config?["temperature"]?.number,
                                              maxTokens: config?["maxOutputTokens"]?.int)
            return (ChatRequest(system: system, messages: history, settings: settings), stream, true)
        }
    }

    /// A whole response body.
    func body(text: String, finish: FinishReason, usage: Usage, model: String, id: String, created: Date) -> JSONValue {
        switch self {
        case .openai:
            return ["id": .string("chatcmpl-\(id)"), "object": "chat.completion", "created": .number(created.timeIntervalSince1970.rounded(.down)),
                    "model": .string(model), "system_fingerprint": "coachlab-mock",
                    "choices": [["index": 0, "message": ["role": "assistant", "content": .string(text), "refusal": .null],
                                 "logprobs": .null, "finish_reason": .string(finish == .length ? "length" : "stop")]],
                    "usage": ["prompt_tokens": .number(Double(usage.inputTokens)), "completion_tokens": .number(Double(usage.outputTokens)),
                              "total_tokens": .number(Double(usage.inputTokens + usage.outputTokens))]]
        case .anthropic, .proxy:
            return ["id": .string("msg_\(id)"), "type": "message", "role": "assistant", "model": .string(model),
                    "content": [["type": "text", "text": .string(text)]],
                    "stop_reason": .string(finish == .length ? "max_tokens" : "end_turn"), "stop_sequence": .null,
                    "usage": ["input_tokens": .number(Double(usage.inputTokens)), "output_tokens": .number(Double(usage.outputTokens))]]
        case .gemini:
            return geminiChunk(text: text, finish: finish, usage: usage, model: model)
        }
    }

    func geminiChunk(text: String, finish: FinishReason?, usage: Usage?, model: String) -> JSONValue {
        var candidate: [String: JSONValue] = ["content": ["role": "model", "parts": [["text": .string(text)]]], "index": 0]
        if let finish { candidate["finishReason"] = .string(finish == .length ? "MAX_TOKENS" : "STOP") }
        var chunk: [String: JSONValue] = ["candidates": [.object(candidate)], "modelVersion": .string(model), "responseId": "coachlab-mock"]
        if let usage {
            chunk["usageMetadata"] = ["promptTokenCount": .number(Double(usage.inputTokens)),
                                      "candidatesTokenCount": .number(Double(usage.outputTokens)),
                                      "totalTokenCount": .number(Double(usage.inputTokens + usage.outputTokens))]
        }
        return .object(chunk)
    }

    /// The stream's events, in order, as SSE text blocks.
    func streamEvents(pieces: [String], finish: FinishReason, usage: Usage, model: String, id: String, includeUsage: Bool,
                      created date: Date) -> [String] {
        func data(_ value: JSONValue) -> String { "data: \(value.text)\n\n" }
        func event(_ name: String, _ value: JSONValue) -> String { "event: \(name)\ndata: \(value.text)\n\n" }
        let created = JSONValue.number(date.timeIntervalSince1970.rounded(.down))
        switch self {
        case .openai:
            func chunk(_ delta: JSONValue, finish: JSONValue = .null) -> JSONValue {
                ["id": .string("chatcmpl-\(id)"), "object": "chat.completion.chunk", "created": created, "model": .string(model),
                 "system_fingerprint": "coachlab-mock",
                 "choices": [["index": 0, "delta": delta, "logprobs": .null, "finish_reason": finish]]]
            }
            var events = [data(chunk(["role": "assistant", "content": ""]))]
            events += pieces.map { data(chunk(["content": .string($0)])) }
            events.append(data(chunk([:], finish: .string(finish == .length ? "length" : "stop"))))
            if includeUsage {
                events.append(data(["id": .string("chatcmpl-\(id)"), "object": "chat.completion.chunk", "created": created,
                                    "model": .string(model), "choices": [],
                                    "usage": ["prompt_tokens": .number(Double(usage.inputTokens)),
                                              "completion_tokens": .number(Double(usage.outputTokens)),
                                              "total_tokens": .number(Double(usage.inputTokens + usage.outputTokens))]]))
            }
            events.append("data: [DONE]\n\n")
            return events
        case .anthropic, .proxy:
            var events = [event("message_start", ["type": "message_start", "message": [
                "id": .string("msg_\(id)"), "type": "message", "role": "assistant", "model": .string(model), "content": [],
                "stop_reason": .null, "stop_sequence": .null,
                "usage": ["input_tokens": .number(Double(usage.inputTokens)), "output_tokens": 1]]])]
            events.append(event("content_block_start", ["type": "content_block_start", "index": 0,
                                                        "content_block": ["type": "text", "text": ""]]))
            events.append(event("ping", ["type": "ping"]))
            events += pieces.map {
                event("content_block_delta", ["type": "content_block_delta", "index": 0, "delta": ["type": "text_delta", "text": .string($0)]])
            }
            events.append(event("content_block_stop", ["type": "content_block_stop", "index": 0]))
            events.append(event("message_delta", ["type": "message_delta",
                                                   "delta": ["stop_reason": .string(finish == .length ? "max_tokens" : "end_turn"),
                                                             "stop_sequence": .null],
                                                   "usage": ["output_tokens": .number(Double(usage.outputTokens))]]))
            events.append(event("message_stop", ["type": "message_stop"]))
            return events
        case .gemini:
            return pieces.enumerated().map { index, piece in
                let last = index == pieces.count - 1
                return "data: " + geminiChunk(text: piece, finish: last ? finish : nil, usage: last ? usage : nil, model: model).text + "\r\n\r\n"
            }
        }
    }

    /// An error body and status for a fault or a bad request.
    func error(_ kind: MockErrorKind, retryAfterMilliseconds: Int) -> (status: Int, body: JSONValue, headers: [(String, String)]) {
        let retryHeaders = [("retry-after", String(max(0, retryAfterMilliseconds / 1000))), ("retry-after-ms", String(retryAfterMilliseconds))]
        switch self {
        case .openai:
            func body(_ message: String, _ type: String, _ code: String?) -> JSONValue {
                ["error": ["message": .string(message), "type": .string(type), "param": .null, "code": code.map(JSONValue.string) ?? .null]]
            }
            switch kind {
            case .rateLimit: return (429, body("Rate limit reached for requests (mock).", "requests", "rate_limit_exceeded"), retryHeaders)
            case .server: return (500, body("The server had an error while processing your request (mock).", "server_error", nil), [])
            case .overloaded: return (529, body("The engine is currently overloaded (mock).", "server_error", "overloaded"), [])
            case .unauthorized(let key): return (401, body("Incorrect API key provided: \(key) (mock).", "invalid_request_error", "invalid_api_key"), [])
            case .quota: return (429, body("You exceeded your current quota (mock).", "insufficient_quota", "insufficient_quota"), [])
            case .contextLength:
                return (400, body("This model's maximum context length is 4096 tokens (mock).", "invalid_request_error", "context_length_exceeded"), [])
            case .badRequest(let message): return (400, body(message, "invalid_request_error", nil), [])
            }
        case .anthropic, .proxy:
            func body(_ type: String, _ message: String) -> JSONValue {
                ["type": "error", "error": ["type": .string(type), "message": .string(message)]]
            }
            switch kind {
            case .rateLimit: return (429, body("rate_limit_error", "Number of requests has exceeded your rate limit (mock)."), retryHeaders)
            case .server: return (500, body("api_error", "Internal server error (mock)."), [])
            case .overloaded: return (529, body("overloaded_error", "Overloaded"), [])
            case .unauthorized(let key): return (401, body("authentication_error", "invalid x-api-key: \(key) (mock)"), [])
            case .quota: return (400, body("invalid_request_error", "Your credit balance is too low (mock)."), [])
            case .contextLength: return (400, body("invalid_request_error", "prompt is too long: 5000 tokens > 4096 maximum (mock)"), [])
            case .badRequest(let message): return (400, body("invalid_request_error", message), [])
            }
        case .gemini:
            func body(_ code: Int, _ status: String, _ message: String, _ details: [JSONValue] = []) -> JSONValue {
                ["error": ["code": .number(Double(code)), "message": .string(message), "status": .string(status), "details": .array(details)]]
            }
            let seconds = String(format: "%.3fs", Double(retryAfterMilliseconds) / 1000)
            switch kind {
            case .rateLimit:
                return (429, body(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (mock).",
                                  [["@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": .string(seconds)]]), [])
            case .server: return (500, body(500, "INTERNAL", "Internal error encountered (mock)."), [])
            case .overloaded: return (503, body(503, "UNAVAILABLE", "The model is overloaded (mock)."), [])
            case .unauthorized(let key):
                return (400, body(400, "INVALID_ARGUMENT", "API key not valid: \(key) (mock).",
                                  [["@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"]]), [])
            case .quota: return (429, body(429, "RESOURCE_EXHAUSTED", "Quota exceeded for this project (mock)."), [])
            case .contextLength: return (400, body(400, "INVALID_ARGUMENT", "The input token count exceeds the maximum context window (mock)."), [])
            case .badRequest(let message): return (400, body(400, "INVALID_ARGUMENT", message), [])
            }
        }
    }
}

enum MockErrorKind: Sendable {
    case rateLimit, server, overloaded, quota, contextLength
    case unauthorized(presented: String)
    case badRequest(String)
}

enum MockError: Error {
    case badRequest(String)
}
