import CoachLab
import Foundation
import Synchronization

/// A provider whose requests go through its batch API (``BatchAPI``) instead of one call each:
/// at about half the price, answered within the provider's window (hours at most, often
/// minutes). Requests that arrive together are gathered into one batch: a batch is sent when
/// `maximumBatch` requests wait, or when none has arrived for `gather` seconds. A conversation
/// that needs each reply before its next request sends one request per batch round, turn by
/// turn. Results come back whole, so nothing streams.
///
/// Every submitted batch is written to a journal (``BatchJournal``) before it is polled, and
/// its results when they come. A run stopped after submitting (even by `kill -9`) and resumed
/// with the same journal answers each request from the journal, or polls the batch it was
/// already sent in: no request is submitted twice.
public struct BatchProvider: ChatProvider {
    public var id: String { base.id }
    public var model: String { base.model }
    public var isBatched: Bool { true }
    let base: HTTPProvider
    let coordinator: BatchCoordinator

    /// Wraps `base`, whose kind must have a batch API.
    public init(base: HTTPProvider, api: BatchAPI, journal: BatchJournal, poll: Double = 10, maximumBatch: Int = 10_000,
                gather: Double = 0.25, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.base = base
        coordinator = BatchCoordinator(base: base, api: api, journal: journal, poll: poll, maximumBatch: maximumBatch, gather: gather, log: log)
    }

    public func complete(_ request: ChatRequest) async throws -> ProviderReply {
        let request = base.resolved(request)
        let spec = base.wire.request(request, model: request.settings.model, stream: false, baseURL: base.baseURL, apiKey: base.apiKey)
        let clock = ContinuousClock()
        let start = clock.now
        if let hit = base.cache?.lookup(spec, provider: id), let decoded = try? base.wire.decodeReply(Data(hit.body), provider: id) {
            var reply = base.reply(decoded, request: request, latency: (clock.now - start).seconds, timeToFirstToken: nil, attempts: 1)
            reply.cached = true
            reply.batched = true
            return reply
        }
        let body = try await coordinator.answer(spec)
        let decoded = try base.wire.decodeReply(body, provider: id)
        base.cache?.store(spec, provider: id, status: 200, headers: [], body: Array(body), redactor: base.redactor)
        var reply = base.reply(decoded, request: request, latency: (clock.now - start).seconds, timeToFirstToken: nil, attempts: 1)
        reply.batched = true
        return reply
    }

    /// A batch answers whole: the reply comes as one piece.
    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let reply = try await complete(request)
                    continuation.yield(.delta(reply.text))
                    continuation.yield(.finished(reply))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Gathers requests into batches, submits them, polls them with backoff and hands each
/// request its result.
actor BatchCoordinator {
    private let base: HTTPProvider
    private let api: BatchAPI
    private let journal: BatchJournal
    private let poll: Double
    private let maximumBatch: Int
    private let gather: Double
    private let log: @Sendable (String) -> Void

    private var pending: [(id: String, spec: HTTPRequestSpec)] = []
    private var waiting: [String: CheckedContinuation<Data, Error>] = [:]
    /// How many requests of each content were asked for: the same request twice (repeats) is
    /// two requests, with ids `HASH-1` and `HASH-2`.
    private var occurrences: [String: Int] = [:]
    private var polling: Set<String> = []
    private var gathering: Task<Void, Never>?
    private var lastArrival = ContinuousClock.now

    init(base: HTTPProvider, api: BatchAPI, journal: BatchJournal, poll: Double, maximumBatch: Int, gather: Double,
         log: @escaping @Sendable (String) -> Void) {
        self.base = base
        self.api = api
        self.journal = journal
        self.poll = poll
        self.maximumBatch = maximumBatch
        self.gather = gather
        self.log = log
    }

    /// The response body for `spec`, from the journal, a batch already submitted, or a new one.
    func answer(_ spec: HTTPRequestSpec) async throws -> Data {
        let hash = StableHash.hex(spec.url + "\u{0}" + String(decoding: spec.body, as: UTF8.self))
        occurrences[hash, default: 0] += 1
        let id = "\(hash)-\(occurrences[hash]!)"
        if let answer = journal.answer(of: id, provider: base.id) { return answer }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting[id] = continuation
                if let batch = journal.batch(holding: id, provider: base.id) {
                    startPolling(batch, headers: BatchAPI.authHeaders(spec))
                } else {
                    pending.append((id, spec))
                    lastArrival = .now
                    if pending.count >= maximumBatch { flush() } else { scheduleGathering() }
                }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    private func cancel(_ id: String) {
        pending.removeAll { $0.id == id }
        waiting.removeValue(forKey: id)?.resume(throwing: CancellationError())
    }

    private func scheduleGathering() {
        guard gathering == nil else { return }
        gathering = Task {
            while true {
                let due = lastArrival.advanced(by: .seconds(gather))
                try? await Task.sleep(until: due, clock: .continuous)
                if ContinuousClock.now >= lastArrival.advanced(by: .seconds(gather)) { break }
            }
            gathering = nil
            flush()
        }
    }

    private func flush() {
        let items = pending
        pending.removeAll()
        guard !items.isEmpty else { return }
        Task { await submit(items) }
    }

    private func submit(_ items: [(id: String, spec: HTTPRequestSpec)]) async {
        do {
            let steps = api.submission(items, baseURL: base.baseURL)
            var answer = try await base.batchCall(steps[0])
            if api == .openai {
                let file = try api.batchId(answer, provider: base.id)
                let endpoint = URLComponents(string: items[0].spec.url)?.path ?? "/v1/chat/completions"
                answer = try await base.batchCall(api.createBatch(file: file, endpoint: endpoint, baseURL: base.baseURL, headers: BatchAPI.authHeaders(items[0].spec)))
            }
            let batch = try api.batchId(answer, provider: base.id)
            try journal.submitted(batch, provider: base.id, ids: items.map(\.id))
            log("\(base.id): batch \(batch) submitted with \(items.count) request\(items.count == 1 ? "" : "s")")
            startPolling(batch, headers: BatchAPI.authHeaders(items[0].spec))
        } catch {
            let failure = error as? ProviderError ?? ProviderError(.network, provider: base.id, message: "\(error)")
            for item in items { waiting.removeValue(forKey: item.id)?.resume(throwing: failure) }
        }
    }

    private func startPolling(_ batch: String, headers: [HTTPHeader]) {
        guard polling.insert(batch).inserted else { return }
        Task { await follow(batch, headers: headers) }
    }

    /// Polls until the batch ends, with the interval growing by half each time up to five
    /// minutes, then hands out its results.
    private func follow(_ batch: String, headers: [HTTPHeader]) async {
        let ids = journal.ids(of: batch, provider: base.id)
        var interval = poll
        do {
            while true {
                let polled = try await base.batchCall(api.poll(batch, baseURL: base.baseURL, headers: headers))
                switch try api.status(polled, provider: base.id) {
                case .running:
                    try await Task.sleep(for: .seconds(interval))
                    interval = min(interval * 1.5, 300)
                    continue
                case .failed(let message):
                    throw ProviderError(.server, provider: base.id, message: "batch \(batch) failed: \(message)")
                case .ended(let state):
                    var outcomes: [String: BatchAPI.Outcome] = [:]
                    let files = try api.resultRequests(polled, batch: batch, baseURL: base.baseURL, headers: headers)
                    if files.isEmpty { outcomes = api.outcomes(polled, provider: base.id) }
                    for file in files { outcomes.merge(api.outcomes(try await base.batchCall(file), provider: base.id)) { first, _ in first } }
                    for id in ids where outcomes[id] == nil {
                        outcomes[id] = .failure(ProviderError(.timeout, provider: base.id, message: "batch \(batch) ended (\(state)) with no result for this request"))
                    }
                    try journal.collected(batch, provider: base.id, outcomes: outcomes)
                    let failed = outcomes.values.filter { if case .failure = $0 { true } else { false } }.count
                    log("\(base.id): batch \(batch) \(state): \(outcomes.count - failed) answered, \(failed) failed")
                    for (id, outcome) in outcomes { waiting.removeValue(forKey: id)?.resume(with: outcome.mapError { $0 as Error }) }
                    polling.remove(batch)
                    return
                }
            }
        } catch {
            let failure = error as? ProviderError ?? ProviderError(.network, provider: base.id, message: "\(error)")
            for id in ids { waiting.removeValue(forKey: id)?.resume(throwing: failure) }
            polling.remove(batch)
        }
    }
}

extension HTTPProvider {
    /// One call of a batch API (submit, poll, read results) with the provider's retries,
    /// limits and redaction; never cached.
    func batchCall(_ spec: HTTPRequestSpec) async throws -> Data {
        try await retrying { _ in
            let response = try await transport.send(spec, timeout: Self.defaultTimeout, provider: id)
            let body = try await Self.collect(response.body, provider: id, limit: maximumResponseBytes * 64)
            try Self.refuseRedirect(response, provider: id)
            guard (200..<300).contains(response.status) else {
                throw wire.error(status: response.status, headers: response.headers, body: body, provider: id, now: now())
            }
            return body
        }
    }
}

/// The record of a run's batches, one JSON object a line, kept beside its result store: each
/// batch when it is submitted (its id and its requests' ids) and its results when they come
/// (keys redacted; a resumed run polls with the provider's own headers). Written and flushed before the run
/// goes on, so a run stopped at any moment finds every batch it sent.
public final class BatchJournal: Sendable {
    private struct State {
        var path: String?
        var batches: [String: [String]] = [:]
        var batchOf: [String: String] = [:]
        var answers: [String: Data] = [:]
        /// Batches whose results were read.
        var collected: Set<String> = []
    }

    private let state = Mutex(State())
    private let redactor: SecretRedactor

    /// - Parameter redactor: The keys to keep out of the file.
    public init(redactor: SecretRedactor) {
        self.redactor = redactor
    }

    /// Opens the journal at `path`, reading what an earlier, stopped run of it wrote; the file
    /// is made when the first batch is submitted.
    public func open(_ path: String) {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        state.withLock { state in
            state.path = path
            for line in existing.split(separator: "\n") {
                guard let value = try? JSONValue.parse(Data(line.utf8)), let batch = value["batch"]?.string,
                      let provider = value["provider"]?.string else { continue }
                let key = provider + "\u{0}" + batch
                if value["outcomes"] != nil { state.collected.insert(key) }
                if let ids = value["ids"]?.array?.compactMap(\.string) {
                    state.batches[key] = ids
                    for id in ids { state.batchOf[provider + "\u{0}" + id] = batch }
                }
                // Only answers are kept: a request that failed (partial failure, expiry) is sent
                // again by --retry-errors, in a new batch.
                guard case .object(let entries)? = value["outcomes"] else { continue }
                for (id, result) in entries {
                    if let body = result["body"] { state.answers[provider + "\u{0}" + id] = body.data }
                }
            }
        }
    }

    /// The answer a batch of this run already gave the request.
    func answer(of id: String, provider: String) -> Data? {
        state.withLock { $0.answers[provider + "\u{0}" + id] }
    }

    func batch(holding id: String, provider: String) -> String? {
        state.withLock { state in
            state.batchOf[provider + "\u{0}" + id].flatMap { state.collected.contains(provider + "\u{0}" + $0) ? nil : $0 }
        }
    }

    func ids(of batch: String, provider: String) -> [String] {
        state.withLock { $0.batches[provider + "\u{0}" + batch] ?? [] }
    }

    func submitted(_ batch: String, provider: String, ids: [String]) throws {
        try state.withLock { state in
            state.batches[provider + "\u{0}" + batch] = ids
            for id in ids { state.batchOf[provider + "\u{0}" + id] = batch }
            try append(["provider": .string(provider), "batch": .string(batch), "ids": .array(ids.map(JSONValue.string))], to: state.path)
        }
    }

    func collected(_ batch: String, provider: String, outcomes: [String: BatchAPI.Outcome]) throws {
        try state.withLock { state in
            var written: [String: JSONValue] = [:]
            state.collected.insert(provider + "\u{0}" + batch)
            for (id, outcome) in outcomes {
                if case .success(let body) = outcome { state.answers[provider + "\u{0}" + id] = body }
                switch outcome {
                case .success(let body): written[id] = ["body": (try? JSONValue.parse(body)) ?? .string(String(decoding: body, as: UTF8.self))]
                case .failure(let error): written[id] = ["error": .string(redactor.redact(error.message)), "code": .string(error.code.description)]
                }
            }
            try append(["provider": .string(provider), "batch": .string(batch), "outcomes": .object(written)], to: state.path)
        }
    }

    private func append(_ value: JSONValue, to path: String?) throws {
        guard let path else { return }
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CoachLabError(.io, "cannot create the batch journal", at: SourceLocation(file: path, line: 1, column: 1))
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CoachLabError(.io, "cannot write the batch journal", at: SourceLocation(file: path, line: 1, column: 1))
        }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((redactor.redact(value.text) + "\n").utf8))
        try handle.synchronize()
    }
}
