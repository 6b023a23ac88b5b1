import CoachLab
import CoachLabProviders
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `coachlab serve-mock`: one local server that speaks the OpenAI, Anthropic, Gemini and
/// TicBuddy proxy protocols at each provider's own paths, streaming and not, answering with
/// the mock coach. An official SDK works against it with only its base URL changed.
///
/// Paths: `POST /v1/chat/completions`, `POST /v1/messages`,
/// `POST /v1beta/models/{model}:generateContent` and `…:streamGenerateContent?alt=sse` (and the same under `/v1`),
/// `POST /api/chat`, and `GET /v1/models`, `GET /health`, `GET /stats` (requests answered, refused
/// by the rate limit, submitted in batches).
public struct MockServer: Sendable {
    /// The settings.
    public let configuration: MockServerConfiguration
    let schedule: FaultSchedule
    /// The rate limit, when the configuration sets one; its rate can be changed while serving.
    public let rateLimit: MockRateLimit?
    /// The batch APIs' state: what was submitted, for tests that count it.
    public let batches: MockBatches

    public init(configuration: MockServerConfiguration) {
        self.configuration = configuration
        self.schedule = FaultSchedule(configuration.faults)
        batches = MockBatches(settings: configuration.batches)
        rateLimit = configuration.requestsPerSecond != nil || configuration.tokensPerMinute != nil
            ? MockRateLimit(requestsPerSecond: configuration.requestsPerSecond, tokensPerMinute: configuration.tokensPerMinute) : nil
    }

    /// Requests answered so far.
    public var requestCount: Int { schedule.count }

    /// Runs until the task is cancelled; `onRunning` receives the bound port.
    public func run(logger: Logger? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router()
        router.get("/health") { _, _ in "ok" }
        // What the server has seen, for benchmarks that compare clients on it: requests answered,
        // refused by the rate limit, and submitted in batches.
        router.get("/stats") { _, _ in
            let (admitted, refused) = rateLimit?.counts ?? (0, 0)
            return Self.json(200, ["requests": .number(Double(requestCount)),
                                   "rateLimit": ["admitted": .number(Double(admitted)), "refused": .number(Double(refused)),
                                                 "refusedForTokens": .number(Double(rateLimit?.refusedForTokens ?? 0))],
                                   "batches": ["submitted": .number(Double(batches.submittedBatches)), "requests": .number(Double(batches.submittedRequests))]])
        }
        router.get("/v1/models") { _, _ in
            Self.json(200, ["object": "list", "data": [["id": .string(MockProvider.modelName), "object": "model", "owned_by": "coachlab"]]])
        }
        router.post("/v1/chat/completions") { request, _ in try await handle(request, protocol: .openai) }
        router.post("/v1/messages") { request, _ in try await handle(request, protocol: .anthropic) }
        router.post("/v1/embeddings") { request, _ in try await handleEmbeddings(request) }
        router.post("/api/chat") { request, _ in try await handle(request, protocol: .proxy) }
        router.post("/app/:pack/api/v1/chat") { request, context in
            try await handleApp(request, id: context.parameters.get("pack") ?? "")
        }
        batches.register(on: router)
        for version in ["v1beta", "v1"] {  // Gemini serves both API versions; google-genai uses v1
            router.post("/\(version)/models/:target") { request, context in
                try await handleGemini(request, target: context.parameters.get("target") ?? "")
            }
        }
        var quietLogger = logger ?? Logger(label: "coachlab.serve-mock") { StoppingQuietly(StreamLogHandler.standardError(label: $0)) }
        if logger == nil { quietLogger.logLevel = .warning }
        let app = Application(router: router,
                              configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                                   serverName: "coachlab-serve-mock"),
                              onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
                              logger: quietLogger)
        try await app.run()
    }

    /// OpenAI's `/v1/embeddings`: the mock's deterministic vectors (``MockEmbedding``), with
    /// serve-mock's latency, faults and rate limit.
    private func handleEmbeddings(_ incoming: Request) async throws -> Response {
        let due = ContinuousClock.now.advanced(by: .seconds(configuration.latency))
        let fault = incoming.headers[HTTPField.Name("x-coachlab-fault")!].flatMap(MockFault.init(rawValue:)) ?? schedule.next()
        let wire = MockProtocol.openai
        if fault == nil, let rateLimit, let wait = rateLimit.admit() {
            let (status, body, headers) = wire.error(.rateLimit, retryAfterMilliseconds: wait)
            return Self.json(status, body, headers: headers + rateLimit.headers(waitMilliseconds: wait))
        }
        var request = incoming
        let data = Data(try await request.collectBody(upTo: 8 * 1024 * 1024).readableBytesView)
        func failure(_ kind: MockErrorKind) -> Response {
            let (status, body, headers) = wire.error(kind, retryAfterMilliseconds: configuration.retryAfterMilliseconds)
            return Self.json(status, body, headers: headers)
        }
        let response: Response
        switch fault {
        case .rateLimit: response = failure(.rateLimit)
        case .serverError: response = failure(.server)
        case .overloaded: response = failure(.overloaded)
        case .unauthorized: response = failure(.unauthorized(presented: request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) } ?? ""))
        case .quota: response = failure(.quota)
        default:
            guard let body = try? JSONValue.parse(data) else { return failure(.badRequest("the request body is not valid JSON")) }
            let texts = body["input"]?.string.map { [$0] } ?? body["input"]?.array?.compactMap(\.string) ?? []
            guard !texts.isEmpty else { return failure(.badRequest("'input' is required")) }
            // The official SDK asks for base64 (little-endian float32s) unless told otherwise.
            let base64 = body["encoding_format"]?.string == "base64"
            let items = texts.enumerated().map { index, text -> JSONValue in
                let vector = MockEmbedding.vector(text)
                let encoded: JSONValue = base64
                    ? .string(Data(vector.flatMap { value -> [UInt8] in withUnsafeBytes(of: Float(value).bitPattern.littleEndian, Array.init) }).base64EncodedString())
                    : .array(vector.map(JSONValue.number))
                return ["object": "embedding", "index": .number(Double(index)), "embedding": encoded]
            }
            let tokens = texts.reduce(0) { $0 + TokenEstimator.estimate($1) }
            response = Self.json(200, ["object": "list", "data": .array(items), "model": .string(body["model"]?.string ?? "coachlab-embed-1"),
                                       "usage": ["prompt_tokens": .number(Double(tokens)), "total_tokens": .number(Double(tokens))]])
        }
        try await Task.sleep(until: due, clock: .continuous)
        return response
    }

    /// An imitation app backend (``MockApp``): the same latency, faults and rate limit as the
    /// model protocols, in the app's own terms.
    private func handleApp(_ incoming: Request, id: String) async throws -> Response {
        guard let app = configuration.apps.first(where: { $0.id == id }) else {
            let known = configuration.apps.map(\.id)
            return Self.json(404, ["error": ["code": "not_found",
                                             "detail": .string("no app '\(id)' is served here" + (known.isEmpty ? "; start serve-mock with --app PACK" : "; apps: " + known.joined(separator: ", ")))]])
        }
        let due = ContinuousClock.now.advanced(by: .seconds(configuration.latency))
        let fault = incoming.headers[HTTPField.Name("x-coachlab-fault")!].flatMap(MockFault.init(rawValue:)) ?? schedule.next()
        if fault == nil, let rateLimit, let wait = rateLimit.admit() {
            return Self.json(429, ["error": ["code": "rate_limited", "detail": "slow down"]],
                             headers: [("retry-after-ms", String(wait))] + rateLimit.headers(waitMilliseconds: wait))
        }
        var request = incoming
        let data = Data(try await request.collectBody(upTo: 8 * 1024 * 1024).readableBytesView)
        let response = app.respond(request, body: data, fault: fault, configuration: configuration)
        try await Task.sleep(until: due, clock: .continuous)
        if fault == .slowFirstByte { try await Task.sleep(for: .seconds(configuration.slowDelay)) }
        return response
    }

    private func handleGemini(_ request: Request, target: String) async throws -> Response {
        guard let colon = target.lastIndex(of: ":") else {
            return Self.json(404, ["error": ["code": 404, "message": "unknown method", "status": "NOT_FOUND"]])
        }
        let model = String(target[..<colon])
        let action = target[target.index(after: colon)...]
        if action == "batchGenerateContent" { return try await batches.createGemini(request, model: model) }
        guard action == "generateContent" || action == "streamGenerateContent" else {
            return Self.json(404, ["error": ["code": 404, "message": .string("unknown method \(action)"), "status": "NOT_FOUND"]])
        }
        return try await handle(request, protocol: .gemini(model: model, stream: action == "streamGenerateContent"))
    }

    /// Answers after the configured latency, counted from the request's arrival: the server's
    /// own work (reading the body, composing the reply) happens within it, as a remote model's
    /// does, so a client on the same machine is not charged for it as extra latency. The
    /// `slow` fault's delay comes on top.
    private func handle(_ incoming: Request, protocol wire: MockProtocol) async throws -> Response {
        let due = ContinuousClock.now.advanced(by: .seconds(configuration.latency))
        let headerFault = incoming.headers[HTTPField.Name("x-coachlab-fault")!].flatMap(MockFault.init(rawValue:))
        let fault = headerFault ?? schedule.next()
        if fault == nil, let rateLimit, let wait = rateLimit.admit() {
            // Refused at once, as a provider's gateway refuses: no latency of a model's answer.
            let (status, body, headers) = wire.error(.rateLimit, retryAfterMilliseconds: wait)
            return Self.json(status, body, headers: headers + rateLimit.headers(waitMilliseconds: wait))
        }
        let response = try await respond(incoming, protocol: wire, fault: fault)
        try await Task.sleep(until: due, clock: .continuous)
        if fault == .slowFirstByte { try await Task.sleep(for: .seconds(configuration.slowDelay)) }
        return response
    }

    private func respond(_ incoming: Request, protocol wire: MockProtocol, fault: MockFault?) async throws -> Response {
        var request = incoming
        let data = try await request.collectBody(upTo: 8 * 1024 * 1024)

        let retryAfter = configuration.retryAfterMilliseconds
        func failure(_ kind: MockErrorKind) -> Response {
            let (status, body, headers) = wire.error(kind, retryAfterMilliseconds: retryAfter)
            return Self.json(status, body, headers: headers)
        }
        switch fault {
        case .rateLimit: return failure(.rateLimit)
        case .serverError: return failure(.server)
        case .overloaded: return failure(.overloaded)
        case .unauthorized:
            // Like some real servers, echo the key that was presented: the worst case for redaction.
            let presented = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) }
                ?? request.headers[HTTPField.Name("x-api-key")!] ?? request.headers[HTTPField.Name("x-goog-api-key")!] ?? ""
            return failure(.unauthorized(presented: presented))
        case .quota: return failure(.quota)
        case .contextLength: return failure(.contextLength)
        default: break
        }

        let body: JSONValue
        do { body = try JSONValue.parse(Data(data.readableBytesView)) } catch {
            return failure(.badRequest("the request body is not valid JSON"))
        }
        let parsed: (request: ChatRequest, stream: Bool, includeUsage: Bool)
        do { parsed = try wire.chatRequest(from: body) } catch MockError.badRequest(let message) {
            return failure(.badRequest(message))
        }
        let chat = parsed.request
        // Tokens a minute are drawn as OpenAI draws them: the prompt and the most the reply may take.
        if fault == nil, let rateLimit,
           let wait = rateLimit.admit(tokens: Usage.estimate(chat, reply: "").inputTokens + (chat.settings.maxTokens ?? 256)) {
            let (status, body, headers) = wire.error(.rateLimit, retryAfterMilliseconds: wait)
            return Self.json(status, body, headers: headers + rateLimit.tokenHeaders(waitMilliseconds: wait))
        }
        let scripted = request.headers[HTTPField.Name("x-coachlab-mock-reply")!]
        let (text, finish) = MockProvider.answer(chat, cue: MockCue(scriptedReply: scripted))
        let usage = Usage.estimate(chat, reply: text)
        let model = chat.settings.model.isEmpty ? MockProvider.modelName : chat.settings.model
        let id = StableHash.hex(chat.system + (chat.messages.last?.content ?? ""))

        guard parsed.stream else {
            if fault == .malformed { return Self.text(200, "{\"id\": \"broken\", \"choices\": [", type: "application/json") }
            let json = wire.body(text: text, finish: finish, usage: usage, model: model, id: id, created: configuration.clock()).text
            if fault == .cut {
                let half = String(json.prefix(json.count / 2))
                var headers = HTTPFields()
                headers[.contentType] = "application/json"
                headers[.contentLength] = String(json.utf8.count)
                return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: half))
                    throw MockStreamCut()
                })
            }
            return Self.text(200, json, type: "application/json")
        }

        var events = wire.streamEvents(pieces: MockProvider.pieces(of: text), finish: finish, usage: usage, model: model, id: id,
                                       includeUsage: parsed.includeUsage, created: configuration.clock())
        let cutAfter: Int? = fault == .cut ? min(3, max(1, events.count / 2)) : nil
        switch fault {
        case .malformed: events.insert("data: {not json\n\n", at: min(2, events.count))
        case .streamError:
            let error: String
            switch wire {
            case .gemini: error = "data: {\"error\": {\"code\": 503, \"message\": \"The model is overloaded (mock).\", \"status\": \"UNAVAILABLE\"}}\r\n\r\n"
            case .openai: error = "data: {\"error\": {\"message\": \"The server had an error while streaming (mock).\", \"type\": \"server_error\"}}\n\n"
            case .anthropic, .proxy: error = "event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n"
            }
            events = Array(events.prefix(3)) + [error]
        default: break
        }
        let delay = configuration.chunkDelay
        let finalEvents = events
        let responseBody = ResponseBody { writer in
            for (index, event) in finalEvents.enumerated() {
                if let cutAfter, index == cutAfter { throw MockStreamCut() }
                if delay > 0, index > 0 { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
                try await writer.write(ByteBuffer(string: event))
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: responseBody)
    }

    static func json(_ status: Int, _ value: JSONValue, headers extra: [(String, String)] = []) -> Response {
        var response = text(status, value.text, type: "application/json")
        for (name, value) in extra {
            if let field = HTTPField.Name(name) { response.headers[field] = value }
        }
        return response
    }

    static func text(_ status: Int, _ text: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// Thrown inside a streamed body to drop the connection mid-stream.
struct MockStreamCut: Error {}

/// A mock server running in the background, for tests and benchmarks.
public final class RunningMockServer: Sendable {
    /// The bound port.
    public let port: Int
    /// The server.
    public let server: MockServer
    private let task: Task<Void, Error>

    /// The base URL for OpenAI-style clients (`…/v1`).
    public var openAIBaseURL: String { "http://127.0.0.1:\(port)/v1" }
    /// The base URL for Anthropic, Gemini and proxy clients.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, server: MockServer, task: Task<Void, Error>) {
        self.port = port
        self.server = server
        self.task = task
    }

    /// Starts a server on a free loopback port and waits until it listens.
    public static func start(_ configuration: MockServerConfiguration = MockServerConfiguration(port: 0)) async throws -> RunningMockServer {
        var configuration = configuration
        configuration.host = "127.0.0.1"
        let server = MockServer(configuration: configuration)
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            defer { continuation.finish() }
            try await server.run { port in continuation.yield(port) }
        }
        for await port in ports {
            return RunningMockServer(port: port, server: server, task: task)
        }
        let failure = await task.result
        if case .failure(let error) = failure { throw error }
        throw MockError.badRequest("the mock server stopped before it listened")
    }

    /// Stops the server.
    public func stop() async {
        task.cancel()
        _ = await task.result
    }

    /// Runs `body` with a server started for it, and stops the server when `body` returns or
    /// throws, waiting until it has stopped: nothing outlives the scope.
    @discardableResult
    public static func with<T: Sendable>(_ configuration: MockServerConfiguration = MockServerConfiguration(port: 0),
                                         _ body: (RunningMockServer) async throws -> T) async throws -> T {
        let server = try await start(configuration)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}

/// Serve-mock's log: warnings and errors, less the one a stop is not. Cancelling the server's
/// task (Ctrl-C, or a test that is done with it) makes the HTTP server log "Waiting on child
/// channel: CancellationError()" at error level; a stop asked for is no error, so a passing run
/// logs none.
struct StoppingQuietly: LogHandler {
    var base: any LogHandler

    init(_ base: any LogHandler) { self.base = base }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        if event.message.description.hasSuffix("CancellationError()") || event.error is CancellationError { return }
        base.log(event: event)
    }
}
