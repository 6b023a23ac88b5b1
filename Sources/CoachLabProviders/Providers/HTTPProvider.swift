import CoachLab
import Foundation

/// A provider reached over HTTP through a ``WireFormat``: OpenAI, OpenAI-compatible,
/// Anthropic, Gemini and the TicBuddy proxy are all this engine with a different wire.
///
/// It retries by its ``RetryPolicy``, measures latency and time to first token, estimates
/// usage (and says so) when the provider reports none, and never lets the API key reach an
/// error message.
public struct HTTPProvider: ChatProvider {
    public let id: String
    public let model: String
    let wire: any WireFormat
    let baseURL: String
    let apiKey: String?
    let transport: any HTTPTransport
    /// How failed attempts are retried.
    public let retry: RetryPolicy
    let defaults: GenerationSettings
    let sleep: @Sendable (Double) async throws -> Void
    let now: @Sendable () -> Date
    let random: @Sendable () -> Double
    let redactor: SecretRedactor
    let maximumResponseBytes: Int
    /// Answers already paid for, when the run uses a response cache.
    public var cache: ResponseCache?
    /// The most output tokens any request may ask for (`--max-tokens`).
    public var maxTokensCap: Int?
    /// How many requests go at once, adapted to the provider's rate limits; nil for no limit here.
    public var limit: AdaptiveLimit?
    /// The model embeddings are asked of (providers.yaml `embeddingModel`); the chat model when nil.
    public var embeddingModel: String?

    public var isApp: Bool { wire is HTTPTargetWire }

    /// Seconds a request may take when neither it nor the provider sets a timeout.
    public static let defaultTimeout = 60.0

    /// The largest response accepted, whole or streamed, when the configuration sets none.
    public static let defaultMaximumResponseBytes = 16 * 1024 * 1024

    /// Creates a provider.
    /// - Parameters:
    ///   - defaults: Settings used where a request leaves them unset (model, temperature,
    ///     max tokens, timeout).
    ///   - system: The transport, and the clock, sleep and jitter of retries.
    ///   - redactor: Secrets removed from replies and errors; the API key when nil.
    ///   - maximumResponseBytes: The largest response accepted, whole or streamed.
    public init(id: String, wire: any WireFormat, baseURL: String, apiKey: String?, defaults: GenerationSettings,
                system: SystemEnvironment, retry: RetryPolicy = RetryPolicy(), redactor: SecretRedactor? = nil, maximumResponseBytes: Int = HTTPProvider.defaultMaximumResponseBytes) {
        self.id = id
        self.model = defaults.model
        self.wire = wire
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.defaults = defaults
        self.transport = system.transport
        self.now = system.now
        self.retry = retry
        self.sleep = system.sleep
        self.random = system.random
        self.redactor = redactor ?? SecretRedactor(secrets: [apiKey])
        self.maximumResponseBytes = maximumResponseBytes
    }

    /// The exact HTTP request a chat request becomes (the key header included).
    public func wireRequest(_ request: ChatRequest, stream: Bool) -> HTTPRequestSpec {
        let request = resolved(request)
        return wire.request(request, model: request.settings.model, stream: stream, baseURL: baseURL, apiKey: apiKey)
    }

    func resolved(_ request: ChatRequest) -> ChatRequest {
        var request = request
        if request.settings.model.isEmpty { request.settings.model = defaults.model }
        if request.settings.temperature == nil { request.settings.temperature = defaults.temperature }
        if request.settings.maxTokens == nil { request.settings.maxTokens = defaults.maxTokens }
        if let cap = maxTokensCap { request.settings.maxTokens = min(request.settings.maxTokens ?? cap, cap) }
        if request.settings.stop.isEmpty { request.settings.stop = defaults.stop }
        if request.settings.timeout == nil { request.settings.timeout = defaults.timeout ?? Self.defaultTimeout }
        return request
    }

    public func complete(_ request: ChatRequest) async throws -> ProviderReply {
        let request = resolved(request)
        let spec = wire.request(request, model: request.settings.model, stream: false, baseURL: baseURL, apiKey: apiKey)
        let clock = ContinuousClock()
        let start = clock.now
        let timeout = request.settings.timeout ?? Self.defaultTimeout
        return try await retrying { attempt in
            func answer(_ response: HTTPResponse, cached: Bool) async throws -> ProviderReply {
                let body = try await Self.collect(response.body, provider: id, limit: maximumResponseBytes)
                try Self.refuseRedirect(response, provider: id)
                guard (200..<300).contains(response.status) else {
                    throw wire.error(status: response.status, headers: response.headers, body: body, provider: id, now: now())
                }
                let decoded = try wire.decodeReply(body, provider: id)
                if !cached { cache?.store(spec, provider: id, status: response.status, headers: response.headers, body: Array(body), redactor: redactor) }
                var reply = reply(decoded, request: request, latency: (clock.now - start).seconds, timeToFirstToken: nil, attempts: attempt)
                reply.cached = cached
                return reply
            }
            return try await answering(spec, timeout: timeout, with: answer)
        }
    }

    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        let request = resolved(request)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    if wire.streams {
                        try await runStream(request, continuation: continuation)
                    } else {
                        // A server that answers whole: its answer is the stream's one piece.
                        var reply = try await complete(request)
                        reply.timeToFirstToken = reply.latency
                        continuation.yield(.delta(reply.text))
                        continuation.yield(.finished(reply))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func runStream(_ request: ChatRequest, continuation: AsyncThrowingStream<StreamEvent, Error>.Continuation) async throws {
        let spec = wire.request(request, model: request.settings.model, stream: true, baseURL: baseURL, apiKey: apiKey)
        let clock = ContinuousClock()
        let start = clock.now
        // Whether the attempt under way has sent text on: a retry after that tells the reader to
        // start again.
        var yielded = false
        let timeout = request.settings.timeout ?? Self.defaultTimeout
        try await retrying(beforeRetry: { if yielded { continuation.yield(.restarted(reason: $0)) } }) { attempt in
            yielded = false
            let attemptStart = clock.now
            func consume(_ response: HTTPResponse, cached: Bool) async throws {
                try Self.refuseRedirect(response, provider: id)
                guard (200..<300).contains(response.status) else {
                    let body = try await Self.collect(response.body, provider: id, limit: maximumResponseBytes)
                    throw wire.error(status: response.status, headers: response.headers, body: body, provider: id, now: now())
                }
                var parser = SSEParser()
                var decoder = wire.streamDecoder(provider: id)
                var secrets = SecretRedactor.Stream(redactor)
                var firstToken: Double?
                var received = 0
                var raw: [UInt8] = []
                func emit(_ text: String) {
                    guard !text.isEmpty else { return }
                    continuation.yield(.delta(text))
                    yielded = true
                }
                func handle(_ events: [SSEEvent]) throws {
                    for event in events where !decoder.isDone {
                        for piece in try decoder.consume(event) {
                            if firstToken == nil { firstToken = (clock.now - attemptStart).seconds }
                            emit(secrets.feed(piece))
                        }
                    }
                }
                for try await chunk in response.body {
                    received += chunk.count
                    if received > maximumResponseBytes {
                        throw ProviderError(.malformedResponse, provider: id,
                                            message: "the streamed response exceeds \(maximumResponseBytes) bytes (maxResponseBytes)")
                    }
                    if cache != nil, !cached { raw += chunk }
                    try handle(parser.feed(chunk))
                    if decoder.isDone { break }
                }
                if !decoder.isDone { try handle(parser.finish()) }
                guard decoder.isDone || decoder.endsOnClose else {
                    throw ProviderError(.streamInterrupted, provider: id, message: "the stream closed before its end event")
                }
                emit(secrets.finish())
                let summary = decoder.summary
                if !cached { cache?.store(spec, provider: id, status: response.status, headers: response.headers, body: raw, redactor: redactor) }
                var finished = reply(summary, request: request, latency: (clock.now - start).seconds,
                                     timeToFirstToken: firstToken, attempts: attempt)
                finished.cached = cached
                continuation.yield(.finished(finished))
            }
            try await answering(spec, timeout: timeout) { response, cached in
                if !cached, yielded {
                    // A cached answer that no longer decoded had sent text on.
                    continuation.yield(.restarted(reason: ProviderError(.malformedResponse, provider: id,
                                                                        message: "a cached answer no longer decodes; asking the provider")))
                    yielded = false
                }
                try await consume(response, cached: cached)
            }
        }
    }

    /// Runs `body` until an attempt returns, numbering the attempts from 1, and retries what
    /// the retry policy retries (``handle(_:attempt:timeouts:beforeRetry:)``).
    func retrying<T>(beforeRetry: (ProviderError) -> Void = { _ in },
                             _ body: (_ attempt: Int) async throws -> T) async throws -> T {
        var attempt = 0
        var timeouts = 0
        var rateLimits = 0
        while true {
            attempt += 1
            do {
                return try await body(attempt)
            } catch {
                try await handle(error, attempt: attempt, timeouts: &timeouts, rateLimits: &rateLimits, beforeRetry: beforeRetry)
            }
        }
    }

    /// The response from the cache when it holds a fresh one, else from the transport.
    /// `body` over the response: the cache's when it holds a fresh one, else the transport's.
    /// A stored answer that `body` cannot use (it no longer decodes: a stricter decoder after
    /// an upgrade, a hand edit) is not the request's fault: it is removed, and `body` gets the
    /// provider's answer instead.
    func answering<T>(_ spec: HTTPRequestSpec, timeout: Double,
                              with body: (_ response: HTTPResponse, _ cached: Bool) async throws -> T) async throws -> T {
        let (response, cached) = try await send(spec, timeout: timeout)
        do {
            return try await body(response, cached)
        } catch where cached && !(error is CancellationError) {
            cache?.discard(spec, provider: id)
            return try await body(try await transport.send(spec, timeout: timeout, provider: id), false)
        }
    }

    private func send(_ spec: HTTPRequestSpec, timeout: Double) async throws -> (HTTPResponse, cached: Bool) {
        if let hit = cache?.lookup(spec, provider: id) {
            return (HTTPResponse(status: hit.status, headers: hit.headers, body: CassetteTransport.stream(hit.body)), true)
        }
        guard let limit else { return (try await transport.send(spec, timeout: timeout, provider: id), false) }
        // Room is held until the response's head arrives: a rate limit counts requests started.
        let started = try await limit.acquire()
        do {
            let response = try await transport.send(spec, timeout: timeout, provider: id)
            await limit.release(started: started, status: response.status, headers: response.headers)
            return (response, false)
        } catch {
            await limit.release(started: started, status: 0)
            throw error
        }
    }

    /// Rethrows `error` (redacted) unless the policy retries it, in which case it waits.
    private func handle(_ error: Error, attempt: Int, timeouts: inout Int, rateLimits: inout Int,
                        beforeRetry: (ProviderError) -> Void = { _ in }) async throws {
        if error is CancellationError || Task.isCancelled { throw CancellationError() }
        var failure = error as? ProviderError ?? ProviderError(.network, provider: id, message: "\(error)")
        failure.message = redactor.redact(failure.message)
        if failure.code == .timeout { timeouts += 1 }
        if failure.code == .rateLimited { rateLimits += 1 }
        guard let delay = retry.delay(beforeRetry: attempt, after: failure, timeouts: timeouts, rateLimits: rateLimits, random: random()) else {
            if attempt > 1 { failure.message += " (after \(attempt) attempts)" }
            throw failure
        }
        beforeRetry(failure)
        try await sleep(delay)
    }

    func reply(_ decoded: DecodedReply, request: ChatRequest, latency: Double, timeToFirstToken: Double?,
                       attempts: Int) -> ProviderReply {
        let usage: Usage
        if let input = decoded.inputTokens, let output = decoded.outputTokens {
            usage = Usage(inputTokens: input, outputTokens: output, estimated: false)
        } else {
            usage = Usage.estimate(request, reply: decoded.text)
        }
        return ProviderReply(text: redactor.redact(decoded.text), usage: usage, finishReason: decoded.finishReason,
                             rawFinishReason: decoded.rawFinishReason, model: decoded.model ?? request.settings.model,
                             provider: id, latency: latency, timeToFirstToken: timeToFirstToken, attempts: attempts)
    }

    /// A redirect is never followed: it would send the request, and the key, to another
    /// address, and a 302 would turn the POST into a body-less GET whose answer gets scored.
    static func refuseRedirect(_ response: HTTPResponse, provider: String) throws {
        guard (300..<400).contains(response.status) else { return }
        let location = response.headers.first { $0.name.lowercased() == "location" }?.value ?? "an address it did not give"
        throw ProviderError(.configuration, provider: provider, status: response.status,
                            message: "the provider redirected (HTTP \(response.status)) to \(location); redirects are not followed, so set baseURL to the final address")
    }

    static func collect(_ body: AsyncThrowingStream<[UInt8], Error>, provider: String,
                        limit: Int = defaultMaximumResponseBytes) async throws -> Data {
        var data = Data()
        for try await chunk in body {
            data.append(contentsOf: chunk)
            if data.count > limit {
                throw ProviderError(.malformedResponse, provider: provider,
                                    message: "the response body exceeds \(limit) bytes (maxResponseBytes)")
            }
        }
        return data
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
