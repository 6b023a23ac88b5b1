import CoachLab
import Foundation
import Mustache

/// The body template of an ``HTTPTarget``: what it may name, how it renders a request, and
/// what lint says of it before anything is sent.
enum HTTPTargetTemplate {
    /// The names a body template may use at its top level.
    static let names: Set<String> = ["system", "message", "messages", "history", "profile", "context", "memory", "coach", "topic",
                                     "intent", "now", "model", "maxTokens", "temperature", "stream", "json"]
    /// The names of each element of `messages` and `history`.
    static let messageNames: Set<String> = ["role", "content", "user", "assistant"]
    /// The values `json.*` gives as JSON text.
    static let jsonNames: Set<String> = ["system", "message", "messages", "history", "profile", "context", "memory", "coach", "topic",
                                         "intent", "now", "app"]

    /// Escapes text for a JSON string (without the quotation marks): a JSON body's `{{name}}`.
    struct JSONString: MustacheContentType {
        func escapeText(_ text: String) -> String {
            let quoted = JSONValue.string(text).text
            return String(quoted.dropFirst().dropLast())
        }
    }

    /// The content type is registered once, before the first template is parsed.
    static let registered: Bool = {
        MustacheContentTypes.register(JSONString(), named: "COACHLAB_JSON")
        return true
    }()

    /// The template, parsed, with the content type its body needs.
    static func parse(_ source: String, sendsJSON: Bool) throws -> MustacheTemplate {
        _ = registered
        return try MustacheTemplate(string: pragma(sendsJSON: sendsJSON) + source)
    }

    /// The pragma put before the author's template.
    static func pragma(sendsJSON: Bool) -> String { "{{% CONTENT_TYPE: \(sendsJSON ? "COACHLAB_JSON" : "TEXT")}}" }

    /// What the template renders over for `request`.
    static func data(_ request: ChatRequest, model: String, stream: Bool) -> [String: Any] {
        let messages = request.messages
        func element(_ message: ChatMessage) -> [String: Any] {
            ["role": message.role.rawValue, "content": message.content, "user": message.role == .user,
             "assistant": message.role == .assistant]
        }
        func json(_ list: ArraySlice<ChatMessage>) -> String {
            JSONValue.array(list.map { ["role": .string($0.role.rawValue), "content": .string($0.content)] }).text
        }
        let last = messages.last(where: { $0.role == .user })?.content ?? ""
        let history = messages.dropLast(messages.last?.role == .user ? 1 : 0)
        let app = request.appData
        func object(_ value: JSONValue?) -> Any { value.map(plain) ?? [String: Any]() }
        func text(_ value: String?) -> String { value.map { JSONValue.string($0).text } ?? "null" }
        var data: [String: Any] = [
            "system": request.system, "message": last, "messages": messages.map(element), "history": history.map(element),
            "profile": object(app?.profile), "context": object(app?.context), "memory": object(app?.memory),
            "coach": app?.coach ?? "", "topic": app?.topic ?? "", "intent": app?.intent ?? "", "now": app?.now ?? "",
            "model": model, "stream": stream,
            "json": [
                "system": JSONValue.string(request.system).text, "message": JSONValue.string(last).text,
                "messages": json(messages[...]), "history": json(history),
                "profile": (app?.profile ?? .object([:])).text, "context": (app?.context ?? .object([:])).text,
                "memory": (app?.memory ?? .null).text,
                "coach": text(app?.coach), "topic": text(app?.topic), "intent": text(app?.intent), "now": text(app?.now),
                "app": (app ?? AppData()).json.text,
            ] as [String: Any],
        ]
        if let maxTokens = request.settings.maxTokens { data["maxTokens"] = maxTokens }
        if let temperature = request.settings.temperature { data["temperature"] = temperature }
        return data
    }

    /// A JSON value as Mustache renders it: objects as dictionaries, lists as arrays.
    private static func plain(_ value: JSONValue) -> Any {
        switch value {
        case .null: ""
        case .bool(let flag): flag
        case .number(let number): number.rounded() == number && abs(number) < 1e15 ? Int(number) as Any : number
        case .string(let text): text
        case .array(let items): items.map(plain)
        case .object(let members): members.mapValues(plain)
        }
    }

    /// What is wrong with a body template, located at `location`: a tag that does not parse,
    /// a name it does not know (which would render as nothing), and, for a JSON body, a
    /// rendering that is not JSON.
    static func problems(_ source: String, sendsJSON: Bool, at location: SourceLocation) -> [Diagnostic] {
        let template: MustacheTemplate
        do { template = try parse(source, sendsJSON: sendsJSON) } catch let error as MustacheTemplate.ParserError {
            let line = error.context.lineNumber
            let column = max(1, error.context.columnNumber - (line == 1 ? pragma(sendsJSON: sendsJSON).count : 0))
            return [.error("the body template does not parse at its line \(line), column \(column): \(error.error)", at: location)]
        } catch {
            return [.error("the body template does not parse: \(error)", at: location)]
        }
        var problems: [Diagnostic] = []
        for name in tagNames(source) {
            let parts = name.split(separator: ".").map(String.init)
            guard let head = parts.first, !name.hasSuffix("()"), name != "." else { continue }
            if !names.contains(head), !messageNames.contains(head) {
                problems.append(.error("the body template names '\(name)', which a request does not have: it would be sent empty",
                                       at: location, hint: ContentValidator.suggestion(for: head, in: Array(names.union(messageNames)))))
            } else if head == "json", parts.count > 1, !jsonNames.contains(parts[1]) {
                problems.append(.error("the body template names '\(name)', which a request does not have: it would be sent empty",
                                       at: location, hint: ContentValidator.suggestion(for: parts[1], in: Array(jsonNames))))
            }
        }
        guard problems.isEmpty, sendsJSON else { return problems }
        // A sample request with text that needs escaping: a body that is JSON only for plain text is not JSON.
        var sample = ChatRequest(system: "You are \"Sam\".\nBe kind.", messages: [ChatMessage(.user, "Hi"), ChatMessage(.assistant, "Hello!"),
                                                                                  ChatMessage(.user, "He said \"no\" \\ then left")])
        sample.appData = AppData(profile: ["name": "Ana"], context: ["steps": 4200], coach: "coach", topic: "topic")
        sample.settings.maxTokens = 300
        sample.settings.temperature = 0.7
        for stream in [false, true] {
            let rendered = template.render(data(sample, model: "model", stream: stream))
            if (try? JSONValue.parse(Data(rendered.utf8))) == nil {
                return [.error("the body template does not render JSON\(stream ? " for a streamed request" : ""): \(rendered.prefix(160))",
                               at: location,
                               hint: "write text inside quotation marks (\"{{message}}\") and lists and objects without them ({{{json.history}}})")]
            }
        }
        return []
    }

    /// The names inside the template's tags, less comments, pragmas and partials.
    static func tagNames(_ source: String) -> [String] {
        guard let pattern = try? NSRegularExpression(pattern: #"\{\{(\{?)([^}]*)\}?\}\}"#) else { return [] }
        let text = source as NSString
        return pattern.matches(in: source, range: NSRange(location: 0, length: text.length)).compactMap { match in
            var tag = text.substring(with: match.range(at: 2)).trimmingCharacters(in: .whitespaces)
            guard let sigil = tag.first else { return nil }
            if "!%>=".contains(sigil) { return nil }
            if "#^/&".contains(sigil) { tag = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces) }
            return tag.isEmpty ? nil : tag
        }
    }
}
