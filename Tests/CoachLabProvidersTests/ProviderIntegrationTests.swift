import CoachLab
import CoachLabMockServer
import CoachLabProviders
import Foundation
import Testing

/// Records retry delays instead of sleeping, so tests stay fast and can check them.
final class SleepRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Double] = []
    var delays: [Double] { lock.withLock { recorded } }
    var sleep: @Sendable (Double) async throws -> Void {
        { [self] delay in lock.withLock { recorded.append(delay) } }
    }
}

/// A provider of `kind` pointed at a running mock server.
func provider(_ kind: ProviderKind, _ server: RunningMockServer, key: String? = "sk-test-key-0123456789abcdef",
              retry: RetryPolicy = RetryPolicy(maxRetries: 3, initialDelay: 0.01, maxDelay: 0.05, jitter: 0),
              recorder: SleepRecorder = SleepRecorder(), timeout: Double = 10,
              transport: any HTTPTransport = integrationTransport, realTime: Bool = false) -> HTTPProvider {
    let base = kind == .openai || kind == .openaiCompatible ? server.openAIBaseURL : server.baseURL
    let wire: any WireFormat = switch kind {
    case .openai: OpenAIWire(legacyMaxTokens: false)
    case .openaiCompatible: OpenAIWire(legacyMaxTokens: true)
    case .anthropic: AnthropicWire()
    case .gemini: GeminiWire()
    default: AnthropicWire(proxy: true)
    }
    var system = SystemEnvironment.tests(transport: transport, sleep: recorder.sleep)
    if realTime {
        // Waits that are waited, and jitter that varies, as in a run.
        system.sleep = { seconds in try await Task.sleep(for: .seconds(seconds)) }
        system.random = { Double.random(in: 0..<1) }
    }
    return HTTPProvider(id: kind.rawValue, wire: wire, baseURL: base, apiKey: kind == .proxy ? nil : key,
                        defaults: GenerationSettings(model: "mock-model", maxTokens: 200, timeout: timeout),
                        system: system, retry: retry)
}

/// The transport of the suites that start and stop a local server per test. It keeps no idle
/// connection: each request asks the server to close its connection after the answer. A kept
/// one would outlive its server, and when the system hands that port to the next test's server,
/// the first request sent on it fails after its server stopped, which costs an attempt or a
/// stream restart and fails `attempts == 1` or `restarts == 0` (seen in CI, on a busy machine).
let integrationTransport = ClosingTransport(base: .dedicated())

/// Sends every request with `Connection: close`, so no connection is pooled.
struct ClosingTransport: HTTPTransport {
    let base: AsyncHTTPClientTransport

    func send(_ spec: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        var spec = spec
        spec.headers.append(HTTPHeader("Connection", "close"))
        return try await base.send(spec, timeout: timeout, provider: provider)
    }
}

let remoteKinds: [ProviderKind] = [.openai, .openaiCompatible, .anthropic, .gemini, .proxy]

let sampleRequest = ChatRequest(system: "You are Simon, a reflective coach.",
                                messages: [ChatMessage(.user, "I want to set goals but I have like 15 things I want to do.")])

func collectStream(_ stream: AsyncThrowingStream<StreamEvent, Error>) async throws -> (text: String, reply: ProviderReply?, restarts: Int) {
    var text = ""
    var reply: ProviderReply?
    var restarts = 0
    for try await event in stream {
        switch event {
        case .delta(let piece): text += piece
        case .restarted: text = ""; restarts += 1
        case .finished(let final): reply = final
        }
    }
    return (text, reply, restarts)
}

@Suite(.serialized) struct ProviderIntegrationTests {
    let expected = MockProvider.answer(sampleRequest).text

    @Test(arguments: remoteKinds)
    func completesWithProviderReportedUsage(_ kind: ProviderKind) async throws {
        try await RunningMockServer.with { server in
            let reply = try await provider(kind, server).complete(sampleRequest)
            #expect(reply.text == expected)
            #expect(reply.finishReason == .stop)
            #expect(!reply.usage.estimated && reply.usage.outputTokens > 0 && reply.usage.inputTokens > 0)
            #expect(reply.attempts == 1)
            #expect(reply.latency > 0)
        }
    }

    @Test(arguments: remoteKinds)
    func streamsTextThenTheWholeReply(_ kind: ProviderKind) async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, chunkDelay: 0.002)) { server in
            // A stream the server never stalls: 30 s before a stall counts, so a machine busy
            // with other suites (CI runs a real model beside them) is not taken for one.
            let (text, reply, restarts) = try await collectStream(provider(kind, server, timeout: 30).stream(sampleRequest))
            #expect(text == expected)
            #expect(reply?.text == expected)
            #expect(restarts == 0)
            #expect(reply?.timeToFirstToken != nil)
            #expect((reply?.timeToFirstToken ?? 0) <= (reply?.latency ?? 0))
            #expect(reply?.usage.estimated == false)
        }
    }

    @Test(arguments: remoteKinds)
    func retriesRateLimitsHonouringTheServersDelay(_ kind: ProviderKind) async throws {
        let configuration = MockServerConfiguration(port: 0, retryAfterMilliseconds: 250, faults: [MockFaultRule(.rateLimit, times: 2)])
        try await RunningMockServer.with(configuration) { server in
            let recorder = SleepRecorder()
            let reply = try await provider(kind, server, recorder: recorder).complete(sampleRequest)
            #expect(reply.text == expected)
            #expect(reply.attempts == 3)
            #expect(recorder.delays == [0.25, 0.25])
            #expect(server.server.requestCount == 3)
        }
    }

    @Test(arguments: [MockFault.serverError, .overloaded, .cut, .slowFirstByte])
    func retriesTransientFaultsThenSucceeds(_ fault: MockFault) async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, slowDelay: 1.5, faults: [MockFaultRule(fault, times: 1)])) { server in
            for kind in [ProviderKind.openai, .anthropic, .gemini] {
                let recorder = SleepRecorder()
                let reply = try await provider(kind, server, recorder: recorder, timeout: 0.75).complete(sampleRequest)
                #expect(reply.text == expected, "\(kind) \(fault)")
                #expect(reply.attempts == (kind == .openai ? 2 : 1), "\(kind) \(fault)")  // the fault hits the first request only
            }
        }
    }

    @Test(arguments: remoteKinds)
    func aStreamCutMidwayRestartsAndLosesNothing(_ kind: ProviderKind) async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(.cut, times: 1)])) { server in
            let (text, reply, _) = try await collectStream(provider(kind, server).stream(sampleRequest))
            #expect(text == expected)
            #expect(reply?.attempts == 2)
        }
    }

    @Test(arguments: [ProviderKind.openai, .anthropic, .gemini])
    func anErrorEventAfter200IsRetried(_ kind: ProviderKind) async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(.streamError, times: 1)])) { server in
            let (text, reply, restarts) = try await collectStream(provider(kind, server).stream(sampleRequest))
            #expect(text == expected)
            #expect(reply?.attempts == 2)
            #expect(restarts <= 1)
        }
    }

    @Test(arguments: [(MockFault.unauthorized, ProviderError.Code.authentication), (.quota, .insufficientQuota),
                      (.contextLength, .contextLength), (.malformed, .malformedResponse)])
    func failsFastWithTheProvidersOwnMessage(_ fault: MockFault, _ code: ProviderError.Code) async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(fault)])) { server in
            for kind in [ProviderKind.openai, .anthropic] where !(kind == .anthropic && fault == .quota) {
                let recorder = SleepRecorder()
                do {
                    _ = try await provider(kind, server, recorder: recorder).complete(sampleRequest)
                    Issue.record("\(kind) \(fault) did not fail")
                } catch let error as ProviderError {
                    #expect(error.code == code, "\(kind) \(fault): \(error)")
                    #expect(recorder.delays.isEmpty, "\(kind) \(fault) was retried")
                    #expect(!error.message.isEmpty)
                }
            }
        }
    }

    @Test func giveUpAfterTheRetriesWithAnErrorNotAFail() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(.serverError)])) { server in
            let recorder = SleepRecorder()
            do {
                _ = try await provider(.openai, server, recorder: recorder).complete(sampleRequest)
                Issue.record("did not fail")
            } catch let error as ProviderError {
                #expect(error.code == .server && error.status == 500)
                #expect(error.message.contains("after 4 attempts"))
                #expect(recorder.delays.count == 3)
            }
        }
    }

    @Test func theKeyNeverReachesAnError() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(.unauthorized)])) { server in
            let key = "sk-live-FAKE-9f8e7d6c5b4a39281706"
            for kind in [ProviderKind.openai, .anthropic, .gemini] {
                do {
                    _ = try await provider(kind, server, key: key).complete(sampleRequest)
                    Issue.record("did not fail")
                } catch let error as ProviderError {
                    #expect(error.code == .authentication)
                    #expect(error.message.contains("[redacted]"), "\(error)")
                    #expect(!"\(error)".contains(key) && !String(reflecting: error).contains(key))
                }
            }
        }
    }

    @Test func timeoutsAndCancellationAreHonoured() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, slowDelay: 5, faults: [MockFaultRule(.slowFirstByte)])) { server in
            let slow = provider(.openai, server, retry: .none, timeout: 0.3)
            let clock = ContinuousClock()
            let start = clock.now
            await #expect(throws: ProviderError.self) { try await slow.complete(sampleRequest) }
            #expect(clock.now - start < .seconds(3))

            let patient = provider(.anthropic, server, retry: .none, timeout: 30)
            let task = Task { try await patient.complete(sampleRequest) }
            try await Task.sleep(nanoseconds: 200_000_000)
            let cancelledAt = clock.now
            task.cancel()
            let result = await task.result
            #expect(clock.now - cancelledAt < .seconds(3))
            if case .success = result { Issue.record("a cancelled request succeeded") }
        }
    }

    /// `--latency-ms` is a response time counted from arrival, with the `slow` fault on top,
    /// for every protocol and for errors as well as answers.
    @Test func latencyIsCountedFromArrivalAndSlownessAddsToIt() async throws {
        let configuration = MockServerConfiguration(port: 0, latency: 0.3, slowDelay: 0.4,
                                                    faults: [MockFaultRule(.serverError, times: 1), MockFaultRule(.slowFirstByte, times: 1)])
        try await RunningMockServer.with(configuration) { server in
            let clock = ContinuousClock()
            for (kind, least) in [(ProviderKind.openai, 0.3), (.anthropic, 0.7), (.gemini, 0.3)] {
                let start = clock.now
                _ = try? await provider(kind, server, retry: .none, timeout: 10).complete(sampleRequest)
                let took = clock.now - start
                #expect(took >= .seconds(least), "\(kind) answered after \(took)")
                #expect(took < .seconds(least + 2), "\(kind) answered after \(took)")
            }
        }
    }

    @Test func aStalledStreamBodyTimesOutToo() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, chunkDelay: 2)) { server in
            let clock = ContinuousClock()
            let start = clock.now
            do {
                _ = try await collectStream(provider(.openai, server, retry: .none, timeout: 0.5).stream(sampleRequest))
                Issue.record("a stalled stream finished")
            } catch let error as ProviderError {
                #expect(error.code == .timeout)
            }
            #expect(clock.now - start < .seconds(2))
        }
    }

    @Test func fallbackChainsSkipAFailingProvider() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(.serverError)])) { server in
            let chain = try FallbackProvider(id: "healthwallet", links: [provider(.openai, server, retry: .none), MockProvider()])
            let reply = try await chain.complete(sampleRequest)
            #expect(reply.provider == "mock")
            #expect(reply.fellBackFrom == ["openai"])
            let (text, streamed, restarts) = try await collectStream(chain.stream(sampleRequest))
            #expect(text == expected && streamed?.provider == "mock" && restarts == 0)  // the failed link sent no text

            let luna = try FallbackProvider(id: "luna", links: [provider(.gemini, server, retry: .none),
                                                                try CannedProvider(replies: ["I'm here with you."])])
            #expect(try await luna.complete(sampleRequest).text == "I'm here with you.")
        }
    }

    /// OpenAI's `created` comes from the server's clock, streamed or not; a server given none
    /// stamps a fixed instant rather than reading the system's.
    @Test func repliesAreStampedByTheServersClock() async throws {
        func created(_ server: RunningMockServer, stream: Bool) async throws -> [Double] {
            let body = JSONValue.object(["model": "coachlab-mock-1", "stream": .bool(stream),
                                         "messages": [["role": "user", "content": "I feel stuck."]]])
            let request = HTTPRequestSpec(url: "http://127.0.0.1:\(server.port)/v1/chat/completions",
                                          headers: [HTTPHeader("Content-Type", "application/json")], body: body.data)
            var bytes: [UInt8] = []
            for try await chunk in try await integrationTransport.send(request, timeout: 10, provider: "serve-mock").body { bytes += chunk }
            let text = String(decoding: bytes, as: UTF8.self)
            let documents = stream ? text.components(separatedBy: "\n").filter { $0.hasPrefix("data: {") }.map { String($0.dropFirst(6)) } : [text]
            return try documents.map { document in
                let value = try JSONValue.parse(Data(document.utf8))
                return try #require(value["created"]?.number, "\(document)")
            }
        }
        let instant = Date(timeIntervalSince1970: 1_800_000_000)
        try await RunningMockServer.with(MockServerConfiguration(port: 0, clock: { instant })) { server in
            #expect(try await created(server, stream: false) == [1_800_000_000])
            let streamed = try await created(server, stream: true)
            #expect(streamed.count > 2 && streamed.allSatisfy { $0 == 1_800_000_000 })
        }
        try await RunningMockServer.with(MockServerConfiguration(port: 0)) { server in
            let stamped = try await created(server, stream: false)
            #expect(stamped == [MockServerConfiguration.fixedClock().timeIntervalSince1970])
        }
    }

    /// What tells the runner that more cases at once than cores would only hold memory.
    @Test func onlyProvidersThatNeverWaitAreComputeBound() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0)) { server in
            let canned = try CannedProvider(replies: ["I'm here with you."])
            #expect(MockProvider().isComputeBound && canned.isComputeBound)
            #expect(!MockProvider(latency: 0.2).isComputeBound, "a mock with latency waits")
            #expect(!provider(.openai, server).isComputeBound)
            #expect(try FallbackProvider(id: "luna", links: [MockProvider(), canned]).isComputeBound)
            #expect(try !FallbackProvider(id: "healthwallet", links: [provider(.openai, server), MockProvider()]).isComputeBound)
        }
    }
}

@Suite struct InProcessProviderTests {
    @Test func mockFollowsTheRiskAlertInThePrompt() async throws {
        let compiler = try Compiler(pack: try PackLoader(fileSystem: .live).load("personas/betterone").get())
        let message = "Do I have ADHD? I can't focus on anything."
        let flagged = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step", screen: message), fileSystem: .live)
        let calm = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step"), fileSystem: .live)
        let mock = MockProvider()
        let alerted = try await mock.complete(ChatRequest(system: flagged.system, messages: [ChatMessage(.user, message)]))
        #expect(alerted.text.contains("qualified professional"))
        #expect(alerted.text.hasSuffix("?"))
        let plain = try await mock.complete(ChatRequest(system: calm.system, messages: [ChatMessage(.user, message)]))
        #expect(!plain.text.contains("professional"))
        #expect(plain.text.hasSuffix("?"))
        #expect(alerted.usage.estimated)
    }

    @Test func mockReflectsAndIsDeterministic() {
        // A prompt with no instructions at all gets the plausible wrong thing: a long reply
        // under a heading, ending on a statement.
        let reply = MockCoach.reply(system: "", userMessages: ["I'm worried my team doesn't trust me. It keeps me up."])
        #expect(reply.hasPrefix("## A few thoughts\n"))
        #expect(reply.contains("It sounds like you're worried your team doesn't trust you."))
        #expect(!reply.hasSuffix("?"))
        #expect(reply == MockCoach.reply(system: "", userMessages: ["I'm worried my team doesn't trust me. It keeps me up."]))
        let told = "Reply in two short sentences. End with one question."
        let short = MockCoach.reply(system: told, userMessages: ["Can you help me plan my week?"])
        #expect(TextMetrics.sentences(short).count == 2)
        #expect(short.hasSuffix("Before I answer, what would a good outcome look like for you?"))
        #expect(MockCoach.reply(system: "=== RISK ALERT ===\n- encourage them to contact a crisis line", userMessages: ["x"])
                .contains("Please contact a crisis line"))
    }

    @Test func scriptedRepliesWinAndMaxTokensTruncates() async throws {
        let mock = MockProvider()
        var request = ChatRequest(system: "s", messages: [ChatMessage(.user, "hi")])
        let scripted = try await MockCue.$current.withValue(MockCue(scriptedReply: "Exactly this.")) { try await mock.complete(request) }
        #expect(scripted.text == "Exactly this.")
        // Only within the cue's scope: outside it the mock coach answers.
        #expect(try await mock.complete(request).text != "Exactly this.")
        request.settings.maxTokens = 10
        let truncated = try await MockCue.$current.withValue(MockCue(scriptedReply: String(repeating: "word ", count: 100))) {
            try await mock.complete(request)
        }
        #expect(truncated.finishReason == .length)
        #expect(TokenEstimator.estimate(truncated.text) <= 10)
    }

    @Test func cannedRepliesAreStablePerMessage() async throws {
        let canned = try CannedProvider(replies: ["a", "b", "c"])
        let first = try await canned.complete(sampleRequest)
        let again = try await canned.complete(sampleRequest)
        #expect(first.text == again.text)
        #expect(throws: ProviderError.self) { try CannedProvider(replies: []) }
    }
}
