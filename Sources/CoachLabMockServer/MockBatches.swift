import CoachLab
import CoachLabProviders
import Foundation
import Hummingbird
import Synchronization

/// How serve-mock's batch APIs behave (``MockBatches``).
public struct MockBatchSettings: Sendable {
    /// Seconds from submission until a batch ends.
    public var seconds: Double
    /// Every Nth request of a batch fails (partial failure); nil, none.
    public var failEvery: Int?
    /// Batches end expired, with only their first half answered.
    public var expire: Bool

    public init(seconds: Double = 2, failEvery: Int? = nil, expire: Bool = false) {
        self.seconds = seconds
        self.failEvery = failEvery
        self.expire = expire
    }
}

/// serve-mock's imitation of the three batch APIs, answering each request with the mock
/// coach as the synchronous API would:
/// - OpenAI: `POST /v1/files` (multipart, purpose `batch`), `POST /v1/batches`,
///   `GET /v1/batches/{id}`, `GET /v1/files/{id}/content`;
/// - Anthropic: `POST /v1/messages/batches`, `GET /v1/messages/batches/{id}` and `…/results`;
/// - Gemini: `POST /v1beta/models/{model}:batchGenerateContent`, `GET /v1beta/batches/{id}`.
///
/// A batch runs for ``MockBatchSettings/seconds``, then ends: completed, or expired with half
/// its requests answered; every Nth request can fail. Nothing is lost when a client stops
/// polling: a batch stays readable for as long as the server runs.
public final class MockBatches: Sendable {
    struct Item {
        var id: String
        /// The response body, or the error message.
        var result: Result<JSONValue, MockBatchError>
    }

    struct MockBatchError: Error {
        var message: String
        var expired: Bool
    }

    struct Batch {
        var id: String
        var api: BatchAPI
        var items: [Item]
        var due: ContinuousClock.Instant
        var expire: Bool
    }

    private struct State {
        var files: [String: Data] = [:]
        var batches: [String: Batch] = [:]
        var submittedRequests = 0
        var submittedBatches = 0
    }

    private let state = Mutex(State())
    let settings: MockBatchSettings

    init(settings: MockBatchSettings) {
        self.settings = settings
    }

    /// Requests submitted in batches so far, over all batches: a resumed client that never
    /// submits twice leaves it at the number of cases.
    public var submittedRequests: Int { state.withLock { $0.submittedRequests } }
    /// Batches submitted so far.
    public var submittedBatches: Int { state.withLock { $0.submittedBatches } }

    // MARK: - Routes

    func register(on router: Router<BasicRequestContext>) {
        router.post("/v1/files") { request, _ in try await self.upload(request) }
        router.post("/v1/batches") { request, _ in try await self.createOpenAI(request) }
        router.get("/v1/batches/:id") { _, context in self.pollOpenAI(context.parameters.get("id") ?? "") }
        router.get("/v1/files/:id/content") { _, context in self.fileContent(context.parameters.get("id") ?? "") }
        router.post("/v1/messages/batches") { request, _ in try await self.createAnthropic(request) }
        router.get("/v1/messages/batches/:id") { request, context in self.pollAnthropic(context.parameters.get("id") ?? "", host: request.head.authority) }
        router.get("/v1/messages/batches/:id/results") { _, context in self.anthropicResults(context.parameters.get("id") ?? "") }
        // Gemini's under v1beta; under v1 its path is OpenAI's, which answers for both.
        router.get("/v1beta/batches/:id") { _, context in self.pollGemini("batches/" + (context.parameters.get("id") ?? "")) }
    }

    /// `…:batchGenerateContent`, routed here by the Gemini handler.
    func createGemini(_ incoming: Request, model: String) async throws -> Response {
        var request = incoming
        let data = Data(try await request.collectBody(upTo: 256 * 1024 * 1024).readableBytesView)
        // Proto JSON: the fields in snake_case (CoachLab, curl) or camelCase (google-genai).
        let config = (try? JSONValue.parse(data)).flatMap { $0["batch"]?["input_config"] ?? $0["batch"]?["inputConfig"] }
        guard let requests = config?["requests"]?["requests"]?.array else {
            return MockServer.json(400, ["error": ["code": 400, "message": "batch.input_config.requests.requests is required", "status": "INVALID_ARGUMENT"]])
        }
        let items = requests.enumerated().map { index, item in
            (item["metadata"]?["key"]?.string ?? "request-\(index + 1)", item["request"] ?? .null)
        }
        let batch = open(.gemini, items: items, wire: .gemini(model: model, stream: false), prefix: "batches/")
        return MockServer.json(200, geminiOperation(batch))
    }

    // MARK: - OpenAI

    private func upload(_ incoming: Request) async throws -> Response {
        var request = incoming
        let data = Data(try await request.collectBody(upTo: 256 * 1024 * 1024).readableBytesView)
        guard let type = request.headers[.contentType], let range = type.range(of: "boundary=") else {
            return MockServer.json(400, openAIError("the upload must be multipart/form-data"))
        }
        let boundary = String(type[range.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        guard let file = Self.formFile(data, boundary: boundary) else { return MockServer.json(400, openAIError("no file part named 'file'")) }
        let id = state.withLock { state -> String in
            let id = "file-\(state.files.count + 1)"
            state.files[id] = file
            return id
        }
        return MockServer.json(200, ["id": .string(id), "object": "file", "purpose": "batch", "bytes": .number(Double(file.count)),
                                     "filename": "coachlab-batch.jsonl", "created_at": 1_767_225_600])
    }

    private func createOpenAI(_ incoming: Request) async throws -> Response {
        var request = incoming
        let data = Data(try await request.collectBody(upTo: 1024 * 1024).readableBytesView)
        guard let body = try? JSONValue.parse(data), let file = body["input_file_id"]?.string,
              let content = state.withLock({ $0.files[file] }) else {
            return MockServer.json(400, openAIError("input_file_id must name an uploaded file"))
        }
        var items: [(String, JSONValue)] = []
        for (index, line) in String(decoding: content, as: UTF8.self).split(separator: "\n").enumerated() {
            guard let value = try? JSONValue.parse(Data(line.utf8)), let id = value["custom_id"]?.string, let request = value["body"] else {
                return MockServer.json(400, openAIError("line \(index + 1) of the input file is not a batch request"))
            }
            items.append((id, request))
        }
        let batch = open(.openai, items: items, wire: .openai, prefix: "batch_")
        return MockServer.json(200, openAIBatch(batch))
    }

    private func pollOpenAI(_ id: String) -> Response {
        if state.withLock({ $0.batches[id] == nil && $0.batches["batches/" + id] != nil }) { return pollGemini("batches/" + id) }
        guard let batch = state.withLock({ $0.batches[id] }) else { return MockServer.json(404, openAIError("no batch \(id)")) }
        return MockServer.json(200, openAIBatch(batch))
    }

    private func openAIBatch(_ batch: Batch) -> JSONValue {
        let ended = ContinuousClock.now >= batch.due
        let (answered, failed) = counts(batch)
        var value: JSONValue = ["id": .string(batch.id), "object": "batch", "endpoint": "/v1/chat/completions", "completion_window": "24h",
                                "input_file_id": "file", "created_at": 1_767_225_600,
                                "status": .string(ended ? (batch.expire ? "expired" : "completed") : "in_progress"),
                                "request_counts": ["total": .number(Double(batch.items.count)),
                                                   "completed": .number(Double(ended ? answered : 0)), "failed": .number(Double(ended ? failed : 0))]]
        if ended, case .object(var fields) = value {
            fields["output_file_id"] = .string(batch.id + "-output")
            fields["error_file_id"] = failed > 0 ? .string(batch.id + "-errors") : .null
            value = .object(fields)
        }
        return value
    }

    private func fileContent(_ id: String) -> Response {
        let (name, errors) = id.hasSuffix("-output") ? (String(id.dropLast(7)), false) : id.hasSuffix("-errors") ? (String(id.dropLast(7)), true) : (id, false)
        guard let batch = state.withLock({ $0.batches[name] }), ContinuousClock.now >= batch.due else {
            return MockServer.json(404, openAIError("no file \(id)"))
        }
        let lines = batch.items.enumerated().compactMap { index, item -> String? in
            switch item.result {
            case .success(let body) where !errors:
                return JSONValue.object(["id": .string("batch_req_\(index + 1)"), "custom_id": .string(item.id), "error": .null,
                                         "response": ["status_code": 200, "request_id": .string("req_\(index + 1)"), "body": body]]).text
            case .failure(let failure) where errors:
                return JSONValue.object(["id": .string("batch_req_\(index + 1)"), "custom_id": .string(item.id), "response": .null,
                                         "error": ["code": .string(failure.expired ? "batch_expired" : "server_error"), "message": .string(failure.message)]]).text
            default: return nil
            }
        }
        return MockServer.text(200, lines.map { $0 + "\n" }.joined(), type: "application/jsonl")
    }

    private func openAIError(_ message: String) -> JSONValue {
        ["error": ["message": .string(message), "type": "invalid_request_error", "param": .null, "code": .null]]
    }

    // MARK: - Anthropic

    private func createAnthropic(_ incoming: Request) async throws -> Response {
        var request = incoming
        let data = Data(try await request.collectBody(upTo: 256 * 1024 * 1024).readableBytesView)
        guard let body = try? JSONValue.parse(data), let requests = body["requests"]?.array else {
            return MockServer.json(400, ["type": "error", "error": ["type": "invalid_request_error", "message": "requests: Field required"]])
        }
        let items = requests.enumerated().map { index, item in (item["custom_id"]?.string ?? "request-\(index + 1)", item["params"] ?? .null) }
        let batch = open(.anthropic, items: items, wire: .anthropic, prefix: "msgbatch_")
        return MockServer.json(200, anthropicBatch(batch, host: request.head.authority))
    }

    private func pollAnthropic(_ id: String, host: String?) -> Response {
        guard let batch = state.withLock({ $0.batches[id] }) else {
            return MockServer.json(404, ["type": "error", "error": ["type": "not_found_error", "message": .string("no batch \(id)")]])
        }
        return MockServer.json(200, anthropicBatch(batch, host: host))
    }

    private func anthropicBatch(_ batch: Batch, host: String?) -> JSONValue {
        let ended = ContinuousClock.now >= batch.due
        let (answered, failed) = counts(batch)
        let expired = batch.items.filter { if case .failure(let failure) = $0.result { failure.expired } else { false } }.count
        return ["id": .string(batch.id), "type": "message_batch", "processing_status": .string(ended ? "ended" : "in_progress"),
                "request_counts": ["processing": .number(Double(ended ? 0 : batch.items.count)), "succeeded": .number(Double(ended ? answered : 0)),
                                   "errored": .number(Double(ended ? failed - expired : 0)), "canceled": 0, "expired": .number(Double(ended ? expired : 0))],
                "results_url": ended ? .string("http://\(host ?? "127.0.0.1")/v1/messages/batches/\(batch.id)/results") : .null,
                "created_at": "2026-01-01T00:00:00Z"]
    }

    private func anthropicResults(_ id: String) -> Response {
        guard let batch = state.withLock({ $0.batches[id] }), ContinuousClock.now >= batch.due else {
            return MockServer.json(404, ["type": "error", "error": ["type": "not_found_error", "message": .string("no results for \(id)")]])
        }
        let lines = batch.items.map { item -> String in
            let result: JSONValue
            switch item.result {
            case .success(let body): result = ["type": "succeeded", "message": body]
            case .failure(let failure) where failure.expired: result = ["type": "expired"]
            case .failure(let failure): result = ["type": "errored", "error": ["type": "error", "error": ["type": "api_error", "message": .string(failure.message)]]]
            }
            return JSONValue.object(["custom_id": .string(item.id), "result": result]).text + "\n"
        }
        return MockServer.text(200, lines.joined(), type: "application/binary")
    }

    // MARK: - Gemini

    private func pollGemini(_ name: String) -> Response {
        guard let batch = state.withLock({ $0.batches[name] }) else {
            return MockServer.json(404, ["error": ["code": 404, "message": .string("no batch \(name)"), "status": "NOT_FOUND"]])
        }
        return MockServer.json(200, geminiOperation(batch))
    }

    private func geminiOperation(_ batch: Batch) -> JSONValue {
        let ended = ContinuousClock.now >= batch.due
        let (answered, failed) = counts(batch)
        let state = ended ? (batch.expire ? "BATCH_STATE_EXPIRED" : "BATCH_STATE_SUCCEEDED") : "BATCH_STATE_RUNNING"
        var operation: [String: JSONValue] = [
            "name": .string(batch.id),
            "metadata": ["@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatch", "name": .string(batch.id),
                         "state": .string(state),
                         "batchStats": ["requestCount": .string(String(batch.items.count)),
                                        "successfulRequestCount": .string(String(ended ? answered : 0)), "failedRequestCount": .string(String(ended ? failed : 0))]],
            "done": .bool(ended),
        ]
        if ended {
            let responses = batch.items.compactMap { item -> JSONValue? in
                switch item.result {
                case .success(let body): return ["response": body, "metadata": ["key": .string(item.id)]]
                case .failure(let failure) where failure.expired: return nil
                case .failure(let failure): return ["error": ["code": 500, "message": .string(failure.message), "status": "INTERNAL"], "metadata": ["key": .string(item.id)]]
                }
            }
            // The output is in the batch (metadata.output, which google-genai reads) and in the
            // finished operation's response, as the REST API gives both.
            let output: JSONValue = ["@type": "type.googleapis.com/google.ai.generativelanguage.v1beta.GenerateContentBatchOutput",
                                     "inlinedResponses": ["inlinedResponses": .array(responses)]]
            operation["response"] = output
            if case .object(var metadata)? = operation["metadata"] {
                metadata["output"] = output
                operation["metadata"] = .object(metadata)
            }
        }
        return .object(operation)
    }

    // MARK: - Shared

    /// Answers every request now, as the synchronous API would, and keeps the answers until the batch is due.
    private func open(_ api: BatchAPI, items: [(String, JSONValue)], wire: MockProtocol, prefix: String) -> Batch {
        let answered = items.enumerated().map { index, item -> Item in
            let (id, body) = item
            if settings.expire, index >= items.count / 2 {
                return Item(id: id, result: .failure(MockBatchError(message: "This request could not be executed before the batch expired (mock).", expired: true)))
            }
            if let every = settings.failEvery, every > 0, (index + 1) % every == 0 {
                return Item(id: id, result: .failure(MockBatchError(message: "The server had an error processing this request (mock).", expired: false)))
            }
            guard let parsed = try? wire.chatRequest(from: body) else {
                return Item(id: id, result: .failure(MockBatchError(message: "the request is not a valid chat request", expired: false)))
            }
            let (text, finish) = MockProvider.answer(parsed.request, cue: nil)
            let usage = Usage.estimate(parsed.request, reply: text)
            let model = parsed.request.settings.model.isEmpty ? MockProvider.modelName : parsed.request.settings.model
            let reply = wire.body(text: text, finish: finish, usage: usage, model: model,
                                  id: StableHash.hex(parsed.request.system + (parsed.request.messages.last?.content ?? "")), created: MockServerConfiguration.fixedClock())
            return Item(id: id, result: .success(reply))
        }
        return state.withLock { state in
            state.submittedBatches += 1
            state.submittedRequests += items.count
            let batch = Batch(id: "\(prefix)\(state.submittedBatches)", api: api, items: answered,
                              due: ContinuousClock.now.advanced(by: .seconds(settings.seconds)), expire: settings.expire)
            state.batches[batch.id] = batch
            return batch
        }
    }

    private func counts(_ batch: Batch) -> (answered: Int, failed: Int) {
        let answered = batch.items.filter { if case .success = $0.result { true } else { false } }.count
        return (answered, batch.items.count - answered)
    }

    /// The content of the form part named `file` in a multipart body.
    static func formFile(_ data: Data, boundary: String) -> Data? {
        let text = String(decoding: data, as: UTF8.self)
        for part in text.components(separatedBy: "--" + boundary) where part.contains("name=\"file\"") {
            guard let start = part.range(of: "\r\n\r\n") else { continue }
            var content = String(part[start.upperBound...])
            if content.hasSuffix("\r\n") { content.removeLast() }  // one grapheme: CR LF
            return Data(content.utf8)
        }
        return nil
    }
}
