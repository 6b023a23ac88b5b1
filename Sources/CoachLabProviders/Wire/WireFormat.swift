import CoachLab
import Foundation

/// An HTTP header.
public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String
    /// Whether the value is a secret whatever the header's name (an `http` target's header
    /// that names an environment variable): it is scrubbed as a key header's is.
    public var isSecret: Bool
    public init(_ name: String, _ value: String, isSecret: Bool = false) {
        self.name = name
        self.value = value
        self.isSecret = isSecret
    }
}

/// An HTTP request, before it is sent.
public struct HTTPRequestSpec: Sendable, Hashable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: Data

    public init(method: String = "POST", url: String, headers: [HTTPHeader], body: Data) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A reply decoded from a whole (non-streamed) response body.
public struct DecodedReply: Sendable, Hashable {
    public var text: String
    public var inputTokens: Int?
    public var outputTokens: Int?
    public var rawFinishReason: String?
    public var finishReason: FinishReason
    public var model: String?
}

/// Decodes a provider's stream event by event.
public protocol StreamDecoder: Sendable {
    /// Consumes one event; returns the text deltas it carries.
    /// - Throws: ``ProviderError`` when the event reports an error.
    mutating func consume(_ event: SSEEvent) throws -> [String]
    /// Whether the provider signalled the end (`[DONE]`, `message_stop`); Gemini just closes.
    var isDone: Bool { get }
    /// Whether the stream may end by closing without an explicit end event.
    var endsOnClose: Bool { get }
    /// What the stream reported, once it ended.
    var summary: DecodedReply { get }
}

/// A provider's wire protocol: how a ``ChatRequest`` becomes an HTTP request, and how
/// responses, streams and errors come back.
public protocol WireFormat: Sendable {
    /// The request for a chat, streamed or whole.
    func request(_ request: ChatRequest, model: String, stream: Bool, baseURL: String, apiKey: String?) -> HTTPRequestSpec
    /// Decodes a whole response body.
    /// - Throws: ``ProviderError`` (`malformedResponse`) for a body that does not follow the protocol.
    func decodeReply(_ body: Data, provider: String) throws -> DecodedReply
    /// A fresh decoder for one stream.
    func streamDecoder(provider: String) -> any StreamDecoder
    /// Classifies an error response.
    func error(status: Int, headers: [HTTPHeader], body: Data, provider: String, now: Date) -> ProviderError
    /// Whether the server can stream its reply; when not, a streamed request is sent whole and
    /// its answer passed on in one piece.
    var streams: Bool { get }
    /// The request for the embeddings of `texts`; nil when the protocol has none.
    func embeddingRequest(_ texts: [String], model: String, baseURL: String, apiKey: String?) -> HTTPRequestSpec?
    /// Decodes an embeddings response: one vector per text, in order.
    func decodeEmbeddings(_ body: Data, provider: String) throws -> [[Double]]
}

extension WireFormat {
    public var streams: Bool { true }
    public func embeddingRequest(_ texts: [String], model: String, baseURL: String, apiKey: String?) -> HTTPRequestSpec? { nil }
    public func decodeEmbeddings(_ body: Data, provider: String) throws -> [[Double]] {
        throw ProviderError(.configuration, provider: provider, message: "this protocol has no embeddings")
    }
}

extension Wire {
    /// The vectors of a response's list of `{embedding: [...]}` (OpenAI) or `{values: [...]}` (Gemini).
    static func vectors(_ items: [JSONValue]?, key: String, provider: String) throws -> [[Double]] {
        guard let items else { throw ProviderError(.malformedResponse, provider: provider, message: "the response has no embeddings") }
        return try items.map { item in
            let values = item[key]?.array ?? []
            // llama.cpp's server, for a model without pooling, gives a vector per token: their mean.
            let rows = values.compactMap(\.array).map { $0.compactMap(\.number) }.filter { !$0.isEmpty }
            if !rows.isEmpty, rows.allSatisfy({ $0.count == rows[0].count }) {
                return (0..<rows[0].count).map { index in rows.reduce(0) { $0 + $1[index] } / Double(rows.count) }
            }
            let numbers = values.compactMap(\.number)
            guard !numbers.isEmpty else {
                throw ProviderError(.malformedResponse, provider: provider, message: "an embedding has no \(key)")
            }
            return numbers
        }
    }
}

/// What a stream has reported so far; each provider's decoder feeds one.
struct StreamTally: Sendable {
    var text = ""
    var inputTokens: Int?
    var outputTokens: Int?
    var rawFinishReason: String?
    var model: String?

    /// Appends a text piece; returns it as the event's deltas (none when empty).
    mutating func append(_ piece: String?) -> [String] {
        guard let piece, !piece.isEmpty else { return [] }
        text += piece
        return [piece]
    }

    /// The whole reply, with the provider's finish-reason mapping.
    func summary(_ finishReason: (String?) -> FinishReason) -> DecodedReply {
        DecodedReply(text: text, inputTokens: inputTokens, outputTokens: outputTokens, rawFinishReason: rawFinishReason,
                     finishReason: finishReason(rawFinishReason), model: model)
    }
}

enum Wire {
    /// Encodes a JSON body with sorted keys, so equal requests are equal bytes.
    static func body(_ value: JSONValue) -> Data { value.data }

    static func parse(_ data: Data, provider: String) throws -> JSONValue {
        do { return try JSONValue.parse(data) } catch {
            let excerpt = String(decoding: data.prefix(200), as: UTF8.self)
            throw ProviderError(.malformedResponse, provider: provider, message: "the body is not JSON: \(excerpt)")
        }
    }

    static func joinPath(_ base: String, _ path: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// The generic classification of an HTTP status, before provider-specific details.
    static func code(forStatus status: Int) -> ProviderError.Code {
        switch status {
        case 400, 413, 422: .invalidRequest
        case 401: .authentication
        case 402: .insufficientQuota
        case 403: .permission
        case 404: .notFound
        case 408, 409: .server
        case 429: .rateLimited
        case 503, 529: .overloaded
        case 500...599: .server
        default: .invalidRequest
        }
    }

    static func shouldRetryHeader(_ headers: [HTTPHeader]) -> Bool? {
        switch headers.first(where: { $0.name.lowercased() == "x-should-retry" })?.value.lowercased() {
        case "true": true
        case "false": false
        default: nil
        }
    }

    /// What a response's headers say about retrying: the wait `Retry-After` (or
    /// `retry-after-ms`) asks for, a date in it counted from `now`, and `x-should-retry`.
    /// An error inside a stream has no headers of its own: ``none``.
    struct RetryAdvice {
        var after: Double?
        var should: Bool?

        static let none = RetryAdvice(after: nil, should: nil)

        init(after: Double?, should: Bool?) {
            self.after = after
            self.should = should
        }

        init(headers: [HTTPHeader], now: Date) {
            after = RetryPolicy.serverDelay(headers: headers.map { ($0.name, $0.value) }, now: now)
            should = Wire.shouldRetryHeader(headers)
        }
    }

    static func looksLikeContextOverflow(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return ["context_length_exceeded", "exceed_context_size", "context length", "context window", "too many tokens",
                "maximum context", "prompt is too long"].contains { lowered.contains($0) }
    }
}
