import CoachLab
import Foundation
import Mustache

/// An app's own chat endpoint, called as a provider (`kind: http` in providers.yaml): the
/// request is a Mustache template over the conversation and the fixture's data, and the reply
/// is found in the response by a JSON Pointer, or in each event of a server-sent stream.
///
/// Header values name environment variables as `${NAME}`. Their values are secrets: every
/// one is redacted from output, reports, logs, cassettes and the cache, as API keys are.
public struct HTTPTarget: Sendable, Hashable {
    /// One request header; `value` may name environment variables as `${NAME}`.
    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// How a streamed reply comes: server-sent events, each a JSON document.
    public struct Stream: Sendable, Hashable {
        /// Where each event's piece of text is.
        public var text: JSONPointer
        /// The data of the event that ends the stream (`[DONE]`); nil when the stream ends by closing.
        public var done: String?
        /// Where an event that reports an error has its message.
        public var error: JSONPointer?
        /// Where the event that carries usage has the input and output token counts.
        public var inputTokens: JSONPointer?
        public var outputTokens: JSONPointer?

        public init(text: JSONPointer, done: String? = nil, error: JSONPointer? = nil,
                    inputTokens: JSONPointer? = nil, outputTokens: JSONPointer? = nil) {
            self.text = text
            self.done = done
            self.error = error
            self.inputTokens = inputTokens
            self.outputTokens = outputTokens
        }
    }

    /// The address, with its scheme.
    public var url: String
    /// The HTTP method. Default POST.
    public var method: String
    /// Request headers.
    public var headers: [Header]
    /// The request body: Mustache over ``TemplateData``. Nil sends no body.
    public var body: String?
    /// The body's content type. Default `application/json`, in which `{{name}}` is escaped for a
    /// JSON string and `{{{json.name}}}` gives a value as JSON.
    public var contentType: String
    /// Where a whole response has the reply's text.
    public var reply: JSONPointer
    /// Where a whole response has the input and output token counts, when the app reports them.
    public var inputTokens: JSONPointer?
    public var outputTokens: JSONPointer?
    /// Where an error response has its message.
    public var error: JSONPointer?
    /// Nil when the app answers whole; a streamed request is then sent whole and its answer
    /// passed on in one piece.
    public var stream: Stream?

    public init(url: String, method: String = "POST", headers: [Header] = [], body: String? = nil,
                contentType: String = "application/json", reply: JSONPointer, inputTokens: JSONPointer? = nil,
                outputTokens: JSONPointer? = nil, error: JSONPointer? = nil, stream: Stream? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.contentType = contentType
        self.reply = reply
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.error = error
        self.stream = stream
    }

    /// Whether the body is JSON, whose `{{name}}` tags are escaped for a JSON string.
    public var sendsJSON: Bool { contentType.lowercased().contains("json") }

    /// The environment variables the headers name, in order, each once.
    public var variables: [String] {
        var seen: Set<String> = []
        return headers.flatMap { Self.variables(in: $0.value) }.filter { seen.insert($0).inserted }
    }

    /// The `${NAME}` references in a header value.
    static func variables(in value: String) -> [String] {
        guard let pattern = try? NSRegularExpression(pattern: #"\$\{([A-Za-z_][A-Za-z0-9_]*)\}"#) else { return [] }
        let text = value as NSString
        return pattern.matches(in: value, range: NSRange(location: 0, length: text.length)).map { text.substring(with: $0.range(at: 1)) }
    }

    /// The headers with each `${NAME}` replaced by the variable's value (an empty one when
    /// `values` has none: a replayed cassette sends nothing).
    public func resolvedHeaders(_ values: [String: String]) -> [HTTPHeader] {
        headers.map { header in
            var value = header.value
            let names = Self.variables(in: header.value)
            for name in names { value = value.replacingOccurrences(of: "${\(name)}", with: values[name] ?? "") }
            return HTTPHeader(header.name, value, isSecret: !names.isEmpty)
        }
    }

    // MARK: providers.yaml

    /// Where a response, or an event of a stream, reports token counts.
    static let usageSpec = ObjectSpec("usage", "Where the response reports token counts.", fields: [
        FieldSpec("input", .string, "A JSON Pointer to the input tokens."),
        FieldSpec("output", .string, "A JSON Pointer to the output tokens."),
    ])

    /// The spec of `url`, `headers`, `body` and the rest in providers.yaml.
    static let fields: [FieldSpec] = [
        FieldSpec("url", .string, "For http: the app's chat endpoint, with http:// or https://."),
        FieldSpec("method", .oneOf(["POST", "PUT", "PATCH", "GET"]), "For http: the method. Default POST."),
        FieldSpec("headers", .map(.string),
                  "For http: request headers. A value names environment variables as ${NAME}; their values are redacted everywhere, like keys."),
        FieldSpec("body", .text, "For http: the request body, a Mustache template over system, message, messages, history, profile, context, coach, topic, model, maxTokens, temperature, stream and json.* (each value as JSON)."),
        FieldSpec("contentType", .string, "For http: the body's content type. Default application/json, where {{name}} is escaped for a JSON string."),
        FieldSpec("reply", .string, "For http: a JSON Pointer to the reply's text in the response, such as /reply or /data/message/text."),
        FieldSpec("usage", .object(usageSpec), "For http: where the app reports usage; estimated when it does not."),
        FieldSpec("error", .string, "For http: a JSON Pointer to an error response's message."),
        FieldSpec("stream", .object(ObjectSpec("stream", "How the app streams: server-sent events of JSON.", fields: [
            FieldSpec("text", .string, required: true, "A JSON Pointer to each event's piece of text."),
            FieldSpec("done", .string, "The data of the event that ends the stream, such as [DONE]; without it the stream ends when the server closes it."),
            FieldSpec("error", .string, "A JSON Pointer to the message of an event that reports an error."),
            FieldSpec("usage", .object(usageSpec), "Where an event reports usage."),
        ])), "For http: set when the app can stream its reply; {{#stream}} in the body is true on a streamed request."),
    ]

    /// Reads a target from its providers.yaml entry, with a located diagnostic for each problem.
    static func parse(_ item: YAMLValue, id: String) -> (HTTPTarget?, [Diagnostic]) {
        var problems: [Diagnostic] = []
        func pointer(_ node: YAMLValue?, _ name: String) -> JSONPointer? {
            guard let node, let text = node.text else { return nil }
            guard let pointer = JSONPointer(text) else {
                problems.append(.error("\(name) '\(text)' is not a JSON Pointer", at: node.location,
                                       hint: "a pointer starts with / and names each member or index: /reply, /choices/0/message/content"))
                return nil
            }
            return pointer
        }
        guard let urlNode = item["url"], let url = urlNode.text else {
            problems.append(.error("http provider '\(id)' needs a url: the app's chat endpoint", at: item.location))
            return (nil, problems)
        }
        if !(url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")) {
            problems.append(.error("url '\(url)' does not start with http:// or https://", at: urlNode.location))
        }
        guard let replyNode = item["reply"] else {
            problems.append(.error("http provider '\(id)' needs reply: a JSON Pointer to the reply's text in the response",
                                   at: item.location, hint: "for example reply: /reply"))
            return (nil, problems)
        }
        var headers: [Header] = []
        for entry in item["headers"]?.entries ?? [] {
            let value = entry.value.text ?? ""
            headers.append(Header(entry.key, value))
            if SecretDetector.kind(of: value) == nil, variables(in: value).isEmpty,
               ["authorization", "cookie", "x-api-key", "api-key"].contains(entry.key.lowercased()) {
                problems.append(.error("the \(entry.key) header holds its value in the file", at: entry.value.location,
                                       hint: "name an environment variable instead: \(entry.key): Bearer ${APP_TOKEN}"))
            }
        }
        var target = HTTPTarget(url: url, method: item["method"]?.text ?? "POST", headers: headers, body: item["body"]?.text,
                                contentType: item["contentType"]?.text ?? "application/json",
                                reply: pointer(replyNode, "reply") ?? JSONPointer("")!,
                                inputTokens: pointer(item["usage"]?["input"], "usage.input"),
                                outputTokens: pointer(item["usage"]?["output"], "usage.output"),
                                error: pointer(item["error"], "error"))
        if let stream = item["stream"] {
            if let text = pointer(stream["text"], "stream.text") {
                target.stream = Stream(text: text, done: stream["done"]?.text, error: pointer(stream["error"], "stream.error"),
                                       inputTokens: pointer(stream["usage"]?["input"], "stream.usage.input"),
                                       outputTokens: pointer(stream["usage"]?["output"], "stream.usage.output"))
            }
        }
        if let bodyNode = item["body"], let body = bodyNode.text {
            problems += HTTPTargetTemplate.problems(body, sendsJSON: target.sendsJSON, at: bodyNode.location)
        }
        return (problems.contains { $0.severity == .error } ? nil : target, problems)
    }
}
