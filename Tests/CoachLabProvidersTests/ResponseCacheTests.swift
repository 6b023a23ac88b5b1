import CoachLab
@testable import CoachLabProviders
import Foundation
import Testing
import CoachLabTestSupport

/// Counts the requests that reach it and answers each with the next body.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var sent = 0
    private let bodies: [String]
    private let status: Int

    init(bodies: [String], status: Int = 200) {
        self.bodies = bodies
        self.status = status
    }

    var requests: Int { lock.withLock { sent } }

    func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        let body = lock.withLock { () -> String in
            defer { sent += 1 }
            return bodies[min(sent, bodies.count - 1)]
        }
        return HTTPResponse(status: status, headers: [HTTPHeader("content-type", "application/json")],
                            body: CassetteTransport.stream(Array(body.utf8)))
    }
}

/// The response cache: hits send nothing, repeats always ask, and nothing bad is kept.
@Suite struct ResponseCacheTests {
    static let request = ChatRequest(system: "Be kind.", messages: [ChatMessage(.user, "I slept badly again.")])
    static let key = "sk-cachetest-0123456789abcdefXYZ"

    static func reply(_ text: String) -> String {
        let body = try! JSONSerialization.data(withJSONObject: [
            "id": "x", "model": "m", "usage": ["prompt_tokens": 10, "completion_tokens": 3],
            "choices": [["index": 0, "message": ["role": "assistant", "content": text], "finish_reason": "stop"]],
        ])
        return String(decoding: body, as: UTF8.self)
    }

    static func provider(_ transport: any HTTPTransport, cache: ResponseCache?, id: String = "openai-test") -> HTTPProvider {
        var provider = HTTPProvider(id: id, wire: OpenAIWire(legacyMaxTokens: false), baseURL: "http://127.0.0.1:1/v1",
                                    apiKey: key, defaults: GenerationSettings(model: "m"), system: .tests(transport: transport), retry: .none)
        provider.cache = cache
        return provider
    }

    /// A cache in memory, on a clock that stands still unless one is given.
    static func cache(_ fileSystem: FileSystem = .inMemory([:]), timeToLive: Double = ResponseCache.defaultTimeToLive,
                      now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }) -> ResponseCache {
        ResponseCache(directory: "cache", timeToLive: timeToLive, fileSystem: fileSystem, now: now)
    }

    @Test func aSecondIdenticalRequestIsAnsweredWithoutSending() async throws {
        let transport = CountingTransport(bodies: [Self.reply("First answer."), Self.reply("Second answer.")])
        let cache = Self.cache()
        let provider = Self.provider(transport, cache: cache)
        let first = try await provider.complete(Self.request)
        let second = try await provider.complete(Self.request)
        #expect(transport.requests == 1)
        #expect(!first.cached && second.cached)
        #expect(second.text == "First answer.")
        #expect(cache.statistics == .init(hits: 1, misses: 1, bypassed: 0, stored: 1))
        // A different conversation is a different request.
        _ = try await provider.complete(ChatRequest(system: "Be kind.", messages: [ChatMessage(.user, "I slept well.")]))
        #expect(transport.requests == 2)
    }

    @Test func streamedAnswersAreCachedAndReplayedAsStreams() async throws {
        let events = #"data: {"choices":[{"index":0,"delta":{"content":"Hello "}}]}"# + "\n\n"
            + #"data: {"choices":[{"index":0,"delta":{"content":"there."},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"
        let transport = CountingTransport(bodies: [events])
        let provider = Self.provider(transport, cache: Self.cache())
        for expectedCached in [false, true] {
            var text = ""
            var finished: ProviderReply?
            for try await event in provider.stream(Self.request) {
                if case .delta(let piece) = event { text += piece }
                if case .finished(let reply) = event { finished = reply }
            }
            #expect(text == "Hello there.")
            #expect(finished?.cached == expectedCached)
        }
        #expect(transport.requests == 1)
    }

    @Test func repeatedCasesNeverReadTheCache() async throws {
        let transport = CountingTransport(bodies: [Self.reply("One."), Self.reply("Two."), Self.reply("Three.")])
        let cache = Self.cache()
        let provider = Self.provider(transport, cache: cache)
        _ = try await provider.complete(Self.request)
        let texts = try await ResponseCache.withoutReads {
            [try await provider.complete(Self.request).text, try await provider.complete(Self.request).text]
        }
        #expect(texts == ["Two.", "Three."])
        #expect(transport.requests == 3)
        #expect(cache.statistics.bypassed == 2 && cache.statistics.hits == 0)
    }

    @Test func anExpiredEntryIsAskedAgainAndReplaced() async throws {
        let transport = CountingTransport(bodies: [Self.reply("Old."), Self.reply("New.")])
        let disk = FileSystem.inMemory([:])
        let past = Self.cache(disk, timeToLive: 3600, now: { Date(timeIntervalSince1970: 1_000_000) })
        _ = try await Self.provider(transport, cache: past).complete(Self.request)
        let later = Self.cache(disk, timeToLive: 3600, now: { Date(timeIntervalSince1970: 1_000_000 + 3601) })
        #expect(later.entries().map(\.expired) == [true])
        let reply = try await Self.provider(transport, cache: later).complete(Self.request)
        #expect(reply.text == "New." && !reply.cached)
        #expect(transport.requests == 2)
        #expect(later.entries().map(\.expired) == [false])
    }

    @Test func onlyAnswersThatDecodedAreKept() async throws {
        let cache = Self.cache()
        let broken = Self.provider(CountingTransport(bodies: [#"{"choices": "#]), cache: cache)
        await #expect(throws: ProviderError.self) { try await broken.complete(Self.request) }
        let refused = Self.provider(CountingTransport(bodies: [#"{"error": {"message": "slow down"}}"#], status: 429), cache: cache)
        await #expect(throws: ProviderError.self) { try await refused.complete(Self.request) }
        #expect(cache.entries().isEmpty)
    }

    @Test func theKeyNeverReachesTheCache() async throws {
        let disk = FileSystem.inMemory([:])
        let transport = CountingTransport(bodies: [Self.reply("Fine.")])
        _ = try await Self.provider(transport, cache: Self.cache(disk)).complete(Self.request)
        let written = try disk.list("cache").flatMap { folder in try disk.list("cache/" + folder).map { try disk.read("cache/\(folder)/\($0)") } }
        #expect(written.count == 1)
        for data in written { #expect(!String(decoding: data, as: UTF8.self).contains(Self.key)) }
    }

    /// Every file under the cache folder, as text.
    static func stored(_ disk: FileSystem) throws -> [String] {
        guard disk.exists("cache") else { return [] }
        return try disk.list("cache").flatMap { folder in
            try disk.list("cache/" + folder).map { String(decoding: try disk.read("cache/\(folder)/\($0)"), as: UTF8.self) }
        }
    }

    /// An OpenAI stream that sends `text` one character per event.
    static func characterStream(_ text: String) -> String {
        text.map { character -> String in
            let piece = String(decoding: try! JSONSerialization.data(withJSONObject: ["choices": [["index": 0, "delta": ["content": String(character)]]]]),
                               as: UTF8.self)
            return "data: \(piece)\n\n"
        }.joined() + #"data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"
    }

    /// Finding 2 of the secrets issue: a key streamed back a character per event was kept in
    /// the cache entry's raw body, where joining the deltas spells it.
    @Test func aKeyEchoedACharacterPerEventIsNeverStored() async throws {
        let disk = FileSystem.inMemory([:])
        let cache = Self.cache(disk)
        let provider = Self.provider(CountingTransport(bodies: [Self.characterStream("Your key is \(Self.key).")]), cache: cache)
        var text = ""
        for try await event in provider.stream(Self.request) { if case .delta(let piece) = event { text += piece } }
        #expect(text == "Your key is [redacted].")
        #expect(try Self.stored(disk).isEmpty)
        #expect(cache.statistics.withheld == 1)
        #expect(cache.statistics.line(directory: "cache")?.contains("1 answer repeats a key and was not stored") == true)
    }

    /// A 7-character key echoed bare: the scrubbing dropped parts under 8 characters, while the
    /// redactor hides 4 and more.
    @Test func aShortKeyEchoedBareIsNeverStored() async throws {
        let disk = FileSystem.inMemory([:])
        var provider = HTTPProvider(id: "openai-test", wire: OpenAIWire(legacyMaxTokens: false), baseURL: "http://127.0.0.1:1/v1",
                                    apiKey: "sk-a1b2", defaults: GenerationSettings(model: "m"),
                                    system: .tests(transport: CountingTransport(bodies: [Self.reply("You sent sk-a1b2.")])), retry: .none)
        provider.cache = Self.cache(disk)
        let reply = try await provider.complete(Self.request)
        #expect(reply.text == "You sent [redacted].")
        let stored = try Self.stored(disk)
        #expect(stored.count == 1 && stored.allSatisfy { !$0.contains("sk-a1b2") && $0.contains("You sent [scrubbed].") }, "\(stored)")
    }

    /// A cache entry with its stored response body replaced, the envelope left intact.
    static func replaceBody(of file: String, on disk: FileSystem, with body: String) throws {
        guard case .object(var entry) = try JSONValue.parse(try disk.read(file)), case .object(var response)? = entry["response"] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        response["body"] = .string(body)
        entry["response"] = .object(response)
        try disk.write(JSONValue.object(entry).text, to: file)
    }

    /// Finding 9: an entry whose envelope reads but whose body no longer decodes errored its
    /// case for the whole time to live, without saying the cache was the cause.
    @Test func anEntryThatNoLongerDecodesIsRemovedAndAskedAgain() async throws {
        let disk = FileSystem.inMemory([:])
        let cache = Self.cache(disk)
        let transport = CountingTransport(bodies: [Self.reply("Stored."), Self.reply("Fresh.")])
        let provider = Self.provider(transport, cache: cache)
        _ = try await provider.complete(Self.request)
        // A hand edit (or a stricter decoder after an upgrade): the envelope is intact.
        let file = try #require(cache.entries().first?.path)
        try Self.replaceBody(of: file, on: disk, with: #"{"choices": "not a list"}"#)
        let reply = try await provider.complete(Self.request)
        #expect(reply.text == "Fresh." && !reply.cached)
        #expect(transport.requests == 2)
        #expect(cache.statistics.unreadable == 1)
        #expect(cache.statistics.line(directory: "cache")?.contains("1 stored answer no longer decoded, so it was removed and asked again") == true)
        // The fresh answer replaced it, and is read next time.
        #expect(try await provider.complete(Self.request).cached)
    }

    @Test func aStreamedEntryThatNoLongerDecodesIsAskedAgain() async throws {
        let disk = FileSystem.inMemory([:])
        let cache = Self.cache(disk)
        let events = #"data: {"choices":[{"index":0,"delta":{"content":"Hi."},"finish_reason":"stop"}]}"# + "\n\ndata: [DONE]\n\n"
        let transport = CountingTransport(bodies: [events, events])
        let provider = Self.provider(transport, cache: cache)
        for try await _ in provider.stream(Self.request) {}
        let file = try #require(cache.entries().first?.path)
        try Self.replaceBody(of: file, on: disk, with: "data: {\"choices\": 7}\n\n")
        var text = ""
        var finished: ProviderReply?
        for try await event in provider.stream(Self.request) {
            if case .delta(let piece) = event { text += piece }
            if case .finished(let reply) = event { finished = reply }
        }
        #expect(text == "Hi." && finished?.cached == false)
        #expect(transport.requests == 2 && cache.statistics.unreadable == 1)
    }

    @Test func clearingRemovesOnlyTheCachesOwnFiles() async throws {
        // On disk: the live file system's removals, and a folder left empty goes too.
        let folder = Scratch.path("cache")
        let cache = ResponseCache(directory: folder, system: .live)
        _ = try await Self.provider(CountingTransport(bodies: [Self.reply("Fine."), Self.reply("Fine.")]), cache: cache).complete(Self.request)
        let mine = folder + "/openai-test/notes.json"
        try Data(#"{"mine": true}"#.utf8).write(to: URL(fileURLWithPath: mine))
        _ = try await Self.provider(CountingTransport(bodies: [Self.reply("Also fine.")]), cache: cache, id: "other-test").complete(Self.request)
        let removed = try cache.clear()
        #expect(removed.count == 2)
        #expect(FileManager.default.fileExists(atPath: mine))
        #expect(!FileManager.default.fileExists(atPath: folder + "/other-test"))
        #expect(cache.entries().isEmpty)
    }

    @Test func theRunsLineCountsReadsAndSendsAndIsAbsentWhenUnused() {
        #expect(ResponseCache.Statistics().line(directory: "c") == nil)
        #expect(ResponseCache.Statistics(hits: 3, misses: 2, bypassed: 0, stored: 2).line(directory: ".coachlab/cache")
                == "response cache (.coachlab/cache): 3 answers read, 2 requests sent")
        #expect(ResponseCache.Statistics(hits: 0, misses: 1, bypassed: 4, stored: 5).line(directory: "c")
                == "response cache (c): 0 answers read, 5 requests sent (4 by repeated cases, which never read it)")
    }

    @Test func durationsReadAsAPersonWritesThem() {
        #expect(ResponseCache.duration("90s") == 90)
        #expect(ResponseCache.duration("30m") == 1800)
        #expect(ResponseCache.duration("12h") == 43200)
        #expect(ResponseCache.duration("7d") == 604_800)
        #expect(ResponseCache.duration("120") == 120)
        #expect(ResponseCache.duration("soon") == nil)
        #expect(ResponseCache.duration("-1h") == nil)
    }

    @Test func aTimeoutIsRetriedOnceByDefaultAndOtherErrorsThreeTimes() {
        let policy = RetryPolicy()
        let timeout = ProviderError(.timeout, provider: "p", message: "slow")
        let overloaded = ProviderError(.overloaded, provider: "p", message: "busy")
        #expect(policy.delay(beforeRetry: 1, after: timeout, timeouts: 1, random: 0) != nil)
        #expect(policy.delay(beforeRetry: 2, after: timeout, timeouts: 2, random: 0) == nil)
        #expect(policy.delay(beforeRetry: 3, after: overloaded, timeouts: 1, random: 0) != nil)
        #expect(RetryPolicy(maxTimeoutRetries: 0).delay(beforeRetry: 1, after: timeout, timeouts: 1, random: 0) == nil)
        #expect(policy.summary == "up to 3 retries of overloads and server errors, 8 of rate limits, 1 of timeouts")
        #expect(RetryPolicy(maxRetries: 0).summary == "up to 8 retries of rate limits, none of other errors")
        #expect(RetryPolicy.none.summary == "no retries")
    }

    @Test func commandLineSettingsReachEveryProviderIncludingFallbackLinks() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("providers.yaml").path
        var registry = try ProviderRegistry.load(file, system: { var system = SystemEnvironment.tests; system.fileSystem = .live; return system }())
        registry.overrides = ProviderOverrides(maxTokens: 64, temperature: 0.2, timeout: 15, timeoutRetries: 0)
        for id in ["local-gemma", "luna-gemini", "openai-compatible:m"] {
            let configuration = try registry.configuration(for: id, baseURL: "http://127.0.0.1:1/v1")
            #expect(configuration.maxTokens == 64 && configuration.temperature == 0.2 && configuration.timeout == 15)
            #expect(configuration.retryPolicy.maxTimeoutRetries == 0)
        }
        // A request that asks for more (a structured generation asks for 2048) is capped too.
        let capped = try registry.provider(try registry.configuration(for: "local-gemma"))
        let wire = try #require(capped as? HTTPProvider).wireRequest(
            ChatRequest(system: "s", messages: [ChatMessage(.user, "u")], settings: GenerationSettings(model: "", maxTokens: 2048)), stream: false)
        #expect(String(decoding: wire.body, as: UTF8.self).contains("\"max_tokens\":64"))
        let untouched = try ProviderRegistry.load(file, system: { var system = SystemEnvironment.tests; system.fileSystem = .live; return system }())
        #expect(try untouched.configuration(for: "local-gemma").maxTokens == 128)
    }
}
