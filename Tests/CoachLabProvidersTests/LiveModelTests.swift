import CoachLab
import CoachLabProviders
import Foundation
import Testing

/// The live path against a real model server on loopback (llama.cpp's OpenAI-compatible
/// server; `scripts/local-llm.sh`). `.ci/run` starts it and sets COACHLAB_LIVE_BASE_URL;
/// elsewhere these tests are skipped, and say so. They run one at a time: llama-cpp-python's
/// server interrupts a streaming request when another arrives, which left a stream empty.
@Suite(.serialized,
       .enabled(if: ProcessInfo.processInfo.environment["COACHLAB_LIVE_BASE_URL"] != nil,
                "set COACHLAB_LIVE_BASE_URL to a local OpenAI-compatible server (scripts/local-llm.sh start)"))
struct LiveModelTests {
    let provider: HTTPProvider = {
        let base = ProcessInfo.processInfo.environment["COACHLAB_LIVE_BASE_URL"] ?? ""
        let model = ProcessInfo.processInfo.environment["COACHLAB_LIVE_MODEL"] ?? "gemma-3-270m"
        // Greedy decoding keeps a base model's replies reproducible; Gemma's template drops
        // system messages, so the prompt travels in the first user turn (systemRole: user).
        return HTTPProvider(id: "live", wire: OpenAIWire(legacyMaxTokens: true, systemAsUser: true), baseURL: base, apiKey: nil,
                            defaults: GenerationSettings(model: model, temperature: 0, maxTokens: 48, timeout: 120),
                            system: .tests(transport: AsyncHTTPClientTransport.shared))
    }()

    func request() throws -> ChatRequest {
        let compiler = try Compiler(pack: PackLoader(fileSystem: .live).load("personas/betterone").get())
        let prompt = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step", profile: "freelance-designer"), fileSystem: .live)
        return ChatRequest(system: prompt.system, messages: [ChatMessage(.user, "I have 15 goals and don't know where to start. What should I do first?")])
    }

    @Test func completesACompiledPrompt() async throws {
        let reply = try await provider.complete(request())
        #expect(!reply.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect([FinishReason.stop, .length].contains(reply.finishReason))
        #expect(reply.usage.inputTokens > 100)  // the compiled prompt reached the model
        #expect(!reply.usage.estimated)
    }

    @Test func streamsACompiledPrompt() async throws {
        var pieces = 0
        var final: ProviderReply?
        let streamed = provider.stream(try request())
        for try await event in streamed {
            switch event {
            case .delta: pieces += 1
            case .restarted: pieces = 0
            case .finished(let reply): final = reply
            }
        }
        let reply = try #require(final)
        #expect(pieces > 1)
        #expect(!reply.text.isEmpty)
        #expect(reply.timeToFirstToken != nil)
    }

    @Test func aTooLongPromptFailsFastAsContextLength() async throws {
        var long = try request()
        long.system = String(repeating: "Keep every reply short and kind. ", count: 2500)
        do {
            _ = try await provider.complete(long)
            Issue.record("a prompt beyond the 4096-token context was accepted")
        } catch let error as ProviderError {
            #expect(error.code == .contextLength || error.code == .invalidRequest, "\(error)")
        }
    }
}

extension LiveModelTests {
    /// A base model seldom follows a schema; whatever it writes must come back as a valid
    /// result or a field-level report, never a crash or a thrown parse error.
    @Test func aStructuredGenerationIsValidOrReportedFieldByField() async throws {
        let transcript = Transcript([.init(isUser: true, text: "Every evening I mean to stretch and end up on the sofa."),
                                     .init(isUser: false, text: "What happens just after dinner?")])
        let outcome = try await StructuredGenerator(provider: provider, sendsSchema: false, temperature: 0, maxTokens: 160)
            .generate(.wrapup(transcript))
        #expect(!outcome.attempts.isEmpty)
        if !outcome.isValid {
            #expect(!outcome.problems.isEmpty)
            #expect(outcome.problems.allSatisfy { $0.hasPrefix("$") })
            #expect(outcome.report.contains("wrapup: invalid after"))
        }
    }
}
