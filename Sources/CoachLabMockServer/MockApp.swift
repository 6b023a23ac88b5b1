import CoachLab
import CoachLabProviders
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// An imitation of a coaching app's own backend, for trying and testing `http` targets
/// (providers.yaml `kind: http`). Like HealthWallet's `POST /api/v1/chat`, it checks a bearer
/// token, takes a request shape of its own, builds the system prompt on the server from the
/// pack and the session data it is sent, and answers with the mock coach, whole or streamed.
///
/// `POST /app/{pack}/api/v1/chat`, with `Authorization: Bearer TOKEN` when a token is set:
///
///     {"message": "…", "history": [{"from": "member" | "coach", "text": "…"}],
///      "session": {"coach", "topic", "intent", "now", "profile", "context", "memory"}, "stream": false}
///
/// It answers `{"message": {"from": "coach", "text": "…"}, "usage": {"in": N, "out": N}}`, or
/// with `"stream": true` server-sent events `{"type": "delta", "text": "…"}`, then
/// `{"type": "done", "usage": {…}}`, then `[END]`. Errors are `{"error": {"code", "detail"}}`;
/// an error inside a stream is an event `{"type": "error", "detail": "…"}`. serve-mock's faults
/// apply, each in this app's own terms.
public struct MockApp: Sendable {
    /// The path segment that names it: the pack's id.
    public let id: String
    let pack: Pack
    let compiler: Compiler
    let fileSystem: FileSystem
    /// The bearer token requests must carry; nil, none.
    let token: String?

    /// An app for the pack in `folder`.
    /// - Throws: ``CoachLabError`` when the pack does not load or compile.
    public init(folder: String, token: String?, fileSystem: FileSystem = .live) throws {
        pack = try PackLoader(fileSystem: fileSystem).load(folder).get()
        compiler = try Compiler(pack: pack)
        id = pack.id
        self.token = token
        self.fileSystem = fileSystem
    }

    /// The path an app is served at.
    public static func path(_ id: String) -> String { "/app/\(id)/api/v1/chat" }

    /// The reply to one request: status, headers and body, or a stream of events.
    func respond(_ request: Request, body data: Data, fault: MockFault?, configuration: MockServerConfiguration) -> Response {
        func failure(_ status: Int, _ code: String, _ detail: String, headers: [(String, String)] = []) -> Response {
            MockServer.json(status, ["error": ["code": .string(code), "detail": .string(detail)]], headers: headers)
        }
        let presented = request.headers[.authorization].map { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : $0 } ?? ""
        if let token, presented != token || fault == .unauthorized {
            // Like some real servers, echo the token presented: the worst case for redaction.
            return failure(401, "unauthenticated", presented.isEmpty ? "no bearer token" : "the token \(presented) is not valid")
        }
        let wait = configuration.retryAfterMilliseconds
        switch fault {
        case .unauthorized: return failure(401, "unauthenticated", "the token \(presented) is not valid")
        case .rateLimit:
            return failure(429, "rate_limited", "slow down", headers: [("retry-after-ms", String(wait)),
                                                                       ("retry-after", String(max(1, (wait + 999) / 1000)))])
        case .serverError: return failure(500, "internal", "the chat service failed (mock)")
        case .overloaded: return failure(503, "unavailable", "the chat service is busy (mock)")
        case .quota: return failure(402, "payment_required", "the subscription has lapsed (mock)")
        case .contextLength: return failure(400, "context_length_exceeded", "the conversation is too long for the model's context window")
        default: break
        }
        guard let body = try? JSONValue.parse(data), let message = body["message"]?.string else {
            return failure(400, "bad_request", "the body needs a message")
        }
        let history = (body["history"]?.array ?? []).map { turn in
            ChatMessage(turn["from"]?.string == "coach" ? .assistant : .user, turn["text"]?.string ?? "")
        }
        let session = AppData(json: body["session"] ?? .object([:]))
        let (chat, cue): (ChatRequest, MockCue)
        do { (chat, cue) = try chatRequest(message: message, history: history, session: session) } catch {
            return failure(400, "bad_request", "\(error)")
        }
        let (text, _) = MockProvider.answer(chat, cue: cue)
        let usage = Usage.estimate(chat, reply: text)
        let counts: JSONValue = ["in": .number(Double(usage.inputTokens)), "out": .number(Double(usage.outputTokens))]
        guard body["stream"]?.bool == true else {
            if fault == .malformed { return MockServer.text(200, "{\"message\": {\"text\": ", type: "application/json") }
            let json = JSONValue.object(["message": ["from": "coach", "text": .string(text)], "usage": counts]).text
            if fault == .cut {
                return Response(status: .ok, headers: [.contentType: "application/json", .contentLength: String(json.utf8.count)],
                                body: ResponseBody { writer in
                                    try await writer.write(ByteBuffer(string: String(json.prefix(json.count / 2))))
                                    throw MockStreamCut()
                                })
            }
            return MockServer.text(200, json, type: "application/json")
        }
        var events = MockProvider.pieces(of: text).map { "data: " + JSONValue.object(["type": "delta", "text": .string($0)]).text + "\n\n" }
        events.append("data: " + JSONValue.object(["type": "done", "usage": counts]).text + "\n\n")
        events.append("data: [END]\n\n")
        switch fault {
        case .malformed: events.insert("data: {\"type\": \"delta\", \"text\": \n\n", at: min(1, events.count))
        case .streamError: events = Array(events.prefix(2)) + ["data: {\"type\": \"error\", \"detail\": \"the model stopped (mock)\"}\n\n"]
        default: break
        }
        let cutAfter: Int? = fault == .cut ? min(2, max(1, events.count / 2)) : nil
        let delay = configuration.chunkDelay
        let finalEvents = events
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: ResponseBody { writer in
            for (index, event) in finalEvents.enumerated() {
                if let cutAfter, index == cutAfter { throw MockStreamCut() }
                if delay > 0, index > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
                try await writer.write(ByteBuffer(string: event))
            }
            try await writer.finish(nil)
        })
    }

    /// What the mock coach is asked: the prompt the server builds for `message` from the pack
    /// and the session data, as CoachLab compiles it, with the alert a flag adds.
    func chatRequest(message: String, history: [ChatMessage], session: AppData) throws -> (request: ChatRequest, cue: MockCue) {
        let inputs = CompileInputs(coach: session.coach, topic: session.topic, intent: session.intent,
                                   now: session.now.flatMap(LocalDateTime.init(parsing:)), screen: message)
        var resolved = try ResolvedInputs(inputs, pack: pack, fileSystem: fileSystem)
        let source = "<app session>"
        if let profile = session.profile { resolved.profile = Entity(id: "session", value: YAMLValue(json: profile, source: source)) }
        if let context = session.context { resolved.context = Entity(id: "session", value: YAMLValue(json: context, source: source)) }
        if let memory = session.memory { resolved.memory = Memory(yaml: YAMLValue(json: memory, source: source)) }
        let compiled = compiler.compile(resolved)
        let compiler = self.compiler
        let cue = MockCue(structure: compiled.structure) { [resolved] in
            guard compiled.screening?.isFlagged == true else { return nil }
            var plain = resolved
            plain.screen = nil
            return compiled.alert(comparedWith: compiler.compile(plain))
        }
        return (ChatRequest(system: compiled.system, messages: history + [ChatMessage(.user, message)]), cue)
    }
}
