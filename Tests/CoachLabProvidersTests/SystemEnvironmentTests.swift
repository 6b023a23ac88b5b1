import CoachLab
@testable import CoachLabProviders
import Foundation
import Testing

/// Providers reach the world only through the registry's ``SystemEnvironment``: its file
/// system, variables, transport, clock, sleep and randomness. The test environment reports
/// every part it was not given.
@Suite struct SystemEnvironmentTests {
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        var all: [String] { lock.withLock { lines } }
        func add(_ line: String) { lock.withLock { lines.append(line) } }
    }

    @Test func anUnimplementedEnvironmentReportsEachPartUsedAndFailsWhereItCan() async throws {
        let reports = Reports()
        let system = SystemEnvironment.unimplemented(report: reports.add)
        #expect(throws: SystemEnvironment.Unimplemented.self) { try system.fileSystem.read("pack.yaml") }
        #expect(!system.fileSystem.exists("pack.yaml"))
        #expect(throws: SystemEnvironment.Unimplemented.self) { try system.fileSystem.write("x", to: "cache/entry.json") }
        await #expect(throws: SystemEnvironment.Unimplemented.self) { try await system.sleep(1) }
        await #expect(throws: SystemEnvironment.Unimplemented.self) {
            try await system.transport.send(HTTPRequestSpec(url: "http://127.0.0.1:1/", headers: [], body: Data()), timeout: 1, provider: "p")
        }
        _ = system.now()
        _ = system.random()
        #expect(system.variables.isEmpty)
        #expect(reports.all == ["fileSystem", "fileSystem", "fileSystem", "sleep", "transport", "now", "random"].map {
            "SystemEnvironment.\($0) was used but not given"
        })
    }

    @Test func aCannedProvidersPackIsReadThroughTheRegistrysFileSystem() async throws {
        // Before, this read went to the disk whatever file system the caller had given.
        var system = SystemEnvironment.tests
        system.fileSystem = .inMemory([
            "memory-pack/pack.yaml": """
                pack: {id: memory-pack, name: Memory}
                stack: {layers: [{id: a, template: "Be kind."}]}
                defaults: {cannedReplies: ["From the pack in memory."]}
                """,
        ])
        var offline = ProviderConfiguration(id: "offline", kind: .canned, model: "")
        offline.pack = "memory-pack"
        let registry = ProviderRegistry(configurations: [offline], system: system)
        let provider = try registry.provider(try registry.configuration(for: "offline"))
        let reply = try await provider.complete(ChatRequest(system: "s", messages: [ChatMessage(.user, "hi")]))
        #expect(reply.text == "From the pack in memory.")
    }

    /// Answers 429 with a `Retry-After` date once, then a reply.
    final class RateLimitedOnce: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var sent = 0
        let retryAfter: String

        init(retryAfter: String) { self.retryAfter = retryAfter }

        func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
            let first = lock.withLock { sent += 1; return sent == 1 }
            let (status, headers, body) = first
                ? (429, [HTTPHeader("retry-after", retryAfter)], #"{"error":{"message":"slow down","type":"requests"}}"#)
                : (200, [HTTPHeader("content-type", "application/json")],
                   #"{"choices":[{"message":{"role":"assistant","content":"hello"},"finish_reason":"stop"}]}"#)
            return HTTPResponse(status: status, headers: headers, body: AsyncThrowingStream { continuation in
                continuation.yield(Array(body.utf8))
                continuation.finish()
            })
        }
    }

    @Test func aRetryAfterDateIsCountedFromTheEnvironmentsClock() async throws {
        final class Waits: @unchecked Sendable {
            private let lock = NSLock()
            private var seconds: [Double] = []
            var all: [Double] { lock.withLock { seconds } }
            func add(_ value: Double) { lock.withLock { seconds.append(value) } }
        }
        let waits = Waits()
        // The clock reads 2023-11-14 22:13:20 GMT; the server asks to wait until 45 s later.
        var system = SystemEnvironment.tests(transport: RateLimitedOnce(retryAfter: "Tue, 14 Nov 2023 22:14:05 GMT"),
                                             sleep: { waits.add($0) })
        system.now = { Date(timeIntervalSince1970: 1_700_000_000) }
        let provider = HTTPProvider(id: "p", wire: OpenAIWire(legacyMaxTokens: false), baseURL: "http://127.0.0.1:1/v1", apiKey: nil,
                                    defaults: GenerationSettings(model: "m"), system: system,
                                    retry: RetryPolicy(maxRetries: 1, initialDelay: 0.01, maxDelay: 60, jitter: 0))
        let reply = try await provider.complete(ChatRequest(system: "s", messages: [ChatMessage(.user, "hi")]))
        #expect(reply.text == "hello")
        #expect(waits.all == [45])
    }
}

/// Reading providers.yaml: every mistake at its place, with a suggestion, and a key written
/// into the file named as one but never echoed.
@Suite struct ProviderFileTests {
    @Test func everyMistakeIsLocatedAndAKeyInTheFileIsNeverEchoed() throws {
        var system = SystemEnvironment.tests
        system.fileSystem = .inMemory(["providers.yaml": """
            providers:
              - id: a
                kind: opneai
                model: m
              - id: b
                kind: fallback
                chain: [a, missing]
              - id: c
                kind: openai
                model: gpt
                apiKey: sk-proj-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
            """])
        do {
            _ = try ProviderRegistry.load("providers.yaml", system: system)
            Issue.record("a providers file with three mistakes loaded")
        } catch let error as CoachLabError {
            let text = error.description
            #expect(text.contains("providers.yaml:3:11: error: 'kind' in provider must be one of"), "\(text)")
            #expect(text.contains("did you mean 'openai'?"))
            #expect(text.contains("providers.yaml:7:16: error: fallback 'b' names provider 'missing'"))
            #expect(text.contains("providers.yaml:11:5: error: unknown key 'apiKey' in provider"))
            #expect(text.contains("did you mean 'apiKeyEnv'?"))
            #expect(!text.contains("names provider 'a'"))
            #expect(text.contains("this looks like an API key"))
            #expect(!text.contains("AAAAAAAAAAAAAAAAAAAA"))
        }
    }
}

extension ProviderFileTests {
    /// Values no request could honour fail at their field. A concurrency of 0 ran as 1, a
    /// timeout of 0 failed every request, and a baseURL without its scheme failed only when a
    /// run reached it.
    @Test func settingsNoRequestCouldHonourAreErrorsAtTheirField() {
        var system = SystemEnvironment.tests
        system.fileSystem = .inMemory(["providers.yaml": """
            providers:
              - id: a
                kind: openai-compatible
                model: m
                baseURL: 127.0.0.1:8080/v1
                concurrency: 0
                timeoutSeconds: 0
                temperature: 9
                maxTokens: -10
                maxRetries: -2
                maxResponseBytes: 10
                prices: {input: -1, output: 0.6}
              - id: b
                kind: openai-compatible
                model: m
                baseURL: http://127.0.0.1:8080/v1
                concurrency: 1
                timeoutSeconds: 0.5
                temperature: 0
                maxTokens: 1
                maxRetries: 0
            """])
        let error = #expect(throws: CoachLabError.self) { try ProviderRegistry.load("providers.yaml", system: system) }
        let lines = error?.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" } ?? []
        #expect(lines == [
            "5:14 baseURL '127.0.0.1:8080/v1' does not start with http:// or https://",
            "6:18 concurrency must be at least 1, not 0",
            "7:21 timeoutSeconds must be above 0, not 0",
            "8:18 temperature must be from 0 to 2, not 9",
            "9:16 maxTokens must be at least 1, not -10",
            "10:17 maxRetries must be at least 0, not -2",
            "11:23 maxResponseBytes must be at least 1024, not 10",
            "12:21 a price is never below zero, and input is -1",
        ], "\(lines)")
    }

    /// The shipped providers.yaml, with the command line's token limit over it.
    static func shipped(maxTokens: Int? = nil) throws -> ProviderRegistry {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        var system = SystemEnvironment.tests
        system.fileSystem = .rooted(at: root)
        var registry = try ProviderRegistry.load("providers.yaml", system: system)
        registry.overrides = ProviderOverrides(maxTokens: maxTokens)
        return registry
    }

    /// What a live run prints first: each remote provider's limits, each link of a fallback
    /// under its name, nothing for local kinds, and the command line's settings over the file's.
    @Test func aLiveRunNamesEachRemoteProvidersLimits() throws {
        let registry = try Self.shipped()
        let lines = registry.settingsLines(["mock", "openai-gpt-4o", "healthwallet", "luna-canned"], baseURL: nil, apiKeyVariable: nil)
        #expect(lines == [
            "openai-gpt-4o: timeout 60 s; up to 3 retries of overloads and server errors, 8 of rate limits, 1 of timeouts; max tokens 1024; temperature 0.7",
            "healthwallet → openrouter-grok: timeout 60 s; up to 3 retries of overloads and server errors, 8 of rate limits, 1 of timeouts; max tokens 300",
            "healthwallet → gemini-flash: timeout 60 s; up to 3 retries of overloads and server errors, 8 of rate limits, 1 of timeouts",
        ], "\(lines)")
        let inline = try Self.shipped(maxTokens: 200).settingsLines(["openai-compatible:coachlab-mock-1"], baseURL: "http://127.0.0.1:9/v1",
                                                                    apiKeyVariable: nil)
        #expect(inline.count == 1 && inline[0].hasPrefix("openai-compatible:coachlab-mock-1: timeout 60 s;") && inline[0].hasSuffix("max tokens 200"),
                "\(inline)")
        #expect(registry.settingsLines(["no-such-provider"], baseURL: nil, apiKeyVariable: nil).isEmpty)
    }
}
