import CoachLab
import CoachLabProviders
import Foundation
import Testing

@Suite struct WireFormatTests {
    static let request = ChatRequest(system: "You are Simon.",
                                     messages: [ChatMessage(.user, "Hi"), ChatMessage(.assistant, "Hello."), ChatMessage(.user, "Again?")],
                                     settings: GenerationSettings(model: "m", temperature: 0.7, maxTokens: 256))

    func body(_ spec: HTTPRequestSpec) -> String { String(decoding: spec.body, as: UTF8.self) }
    func header(_ spec: HTTPRequestSpec, _ name: String) -> String? { spec.headers.first { $0.name == name }?.value }

    @Test func openAIPutsTheSystemFirstAndUsesMaxCompletionTokens() {
        let spec = OpenAIWire(legacyMaxTokens: false).request(Self.request, model: "gpt-4o-mini", stream: false,
                                                              baseURL: "https://api.openai.com/v1/", apiKey: "sk-test")
        #expect(spec.url == "https://api.openai.com/v1/chat/completions")
        #expect(header(spec, "authorization") == "Bearer sk-test")
        #expect(body(spec) == #"{"max_completion_tokens":256,"messages":[{"content":"You are Simon.","role":"system"},{"content":"Hi","role":"user"},{"content":"Hello.","role":"assistant"},{"content":"Again?","role":"user"}],"model":"gpt-4o-mini","temperature":0.7}"#)
    }

    @Test func compatibleServersGetMaxTokensAndStreamOptions() {
        let spec = OpenAIWire(legacyMaxTokens: true).request(Self.request, model: "gemma", stream: true,
                                                             baseURL: "http://127.0.0.1:8088/v1", apiKey: nil)
        #expect(body(spec).contains(#""max_tokens":256"#))
        #expect(body(spec).contains(#""stream":true,"stream_options":{"include_usage":true}"#))
        #expect(header(spec, "authorization") == nil)
    }

    @Test func theSystemPromptCanTravelInTheFirstUserMessage() {
        let spec = OpenAIWire(legacyMaxTokens: true, systemAsUser: true).request(Self.request, model: "gemma", stream: false,
                                                                                 baseURL: "http://x/v1", apiKey: nil)
        #expect(body(spec).contains(#""messages":[{"content":"You are Simon.\n\nHi","role":"user"},{"content":"Hello.","role":"assistant"}"#))
        #expect(!body(spec).contains(#""role":"system""#))
    }

    @Test func anthropicHasATopLevelSystemAndTheVersionHeader() {
        var request = Self.request
        request.settings.maxTokens = nil
        let spec = AnthropicWire().request(request, model: "claude-sonnet-4-5", stream: false, baseURL: "https://api.anthropic.com",
                                           apiKey: "key")
        #expect(spec.url == "https://api.anthropic.com/v1/messages")
        #expect(header(spec, "x-api-key") == "key")
        #expect(header(spec, "anthropic-version") == "2023-06-01")
        #expect(body(spec) == #"{"max_tokens":1024,"messages":[{"content":"Hi","role":"user"},{"content":"Hello.","role":"assistant"},{"content":"Again?","role":"user"}],"model":"claude-sonnet-4-5","system":"You are Simon.","temperature":0.7}"#)
    }

    @Test func ticBuddysProxyGetsOnlyMessagesAndSystem() {
        let spec = AnthropicWire(proxy: true).request(Self.request, model: "", stream: false, baseURL: "https://proxy.example", apiKey: nil)
        #expect(spec.url == "https://proxy.example/api/chat")
        #expect(body(spec) == #"{"messages":[{"content":"Hi","role":"user"},{"content":"Hello.","role":"assistant"},{"content":"Again?","role":"user"}],"system":"You are Simon."}"#)
    }

    @Test func geminiUsesSystemInstructionAndTheModelRole() {
        let spec = GeminiWire().request(Self.request, model: "gemini-2.0-flash", stream: true,
                                        baseURL: "https://generativelanguage.googleapis.com", apiKey: "g")
        #expect(spec.url == "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse")
        #expect(header(spec, "x-goog-api-key") == "g")
        #expect(body(spec) == #"{"contents":[{"parts":[{"text":"Hi"}],"role":"user"},{"parts":[{"text":"Hello."}],"role":"model"},{"parts":[{"text":"Again?"}],"role":"user"}],"generationConfig":{"maxOutputTokens":256,"temperature":0.7},"systemInstruction":{"parts":[{"text":"You are Simon."}]}}"#)
    }

    @Test func decodesTheDocumentedResponses() throws {
        let openai = try OpenAIWire(legacyMaxTokens: false).decodeReply(Data(#"{"id":"chatcmpl-1","object":"chat.completion","model":"gpt","choices":[{"index":0,"message":{"role":"assistant","content":"Hi!"},"finish_reason":"length"}],"usage":{"prompt_tokens":13,"completion_tokens":5,"total_tokens":18}}"#.utf8), provider: "o")
        #expect(openai.text == "Hi!" && openai.finishReason == .length && openai.inputTokens == 13 && openai.outputTokens == 5)
        let anthropic = try AnthropicWire().decodeReply(Data(#"{"id":"msg_1","type":"message","role":"assistant","model":"c","content":[{"type":"text","text":"Hel"},{"type":"text","text":"lo!"}],"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":6}}"#.utf8), provider: "a")
        #expect(anthropic.text == "Hello!" && anthropic.finishReason == .stop && anthropic.outputTokens == 6)
        let gemini = try GeminiWire().decodeReply(Data(#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"SAFETY","index":0}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3,"totalTokenCount":15},"modelVersion":"g"}"#.utf8), provider: "g")
        #expect(gemini.text == "Hi" && gemini.finishReason == .contentFilter && gemini.inputTokens == 12)
        #expect(throws: ProviderError.self) { try OpenAIWire(legacyMaxTokens: false).decodeReply(Data("not json".utf8), provider: "o") }
    }

    @Test func classifiesErrorsByTheProvidersOwnFields() {
        let quota = OpenAIWire(legacyMaxTokens: false).error(status: 429, headers: [], body: Data(#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#.utf8), provider: "o", now: Date(timeIntervalSince1970: 0))
        #expect(quota.code == .insufficientQuota && !quota.isRetryable && quota.message == "You exceeded your current quota")
        let limited = OpenAIWire(legacyMaxTokens: false).error(status: 429, headers: [HTTPHeader("retry-after-ms", "1500")], body: Data(#"{"error":{"message":"slow down","type":"requests","code":"rate_limit_exceeded"}}"#.utf8), provider: "o", now: Date(timeIntervalSince1970: 0))
        #expect(limited.code == .rateLimited && limited.retryAfter == 1.5)
        let overflow = OpenAIWire(legacyMaxTokens: true).error(status: 400, headers: [], body: Data(#"{"error":{"code":400,"message":"request exceeds the available context size","type":"exceed_context_size_error"}}"#.utf8), provider: "l", now: Date(timeIntervalSince1970: 0))
        #expect(overflow.code == .contextLength)
        let loading = OpenAIWire(legacyMaxTokens: true).error(status: 503, headers: [], body: Data(#"{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}"#.utf8), provider: "l", now: Date(timeIntervalSince1970: 0))
        #expect(loading.code == .overloaded && loading.isRetryable)
        let overloaded = AnthropicWire().error(status: 529, headers: [], body: Data(#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#.utf8), provider: "a", now: Date(timeIntervalSince1970: 0))
        #expect(overloaded.code == .overloaded && overloaded.isRetryable)
        let badKey = GeminiWire().error(status: 400, headers: [], body: Data(#"{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}"#.utf8), provider: "g", now: Date(timeIntervalSince1970: 0))
        #expect(badKey.code == .authentication && !badKey.isRetryable)
        let exhausted = GeminiWire().error(status: 429, headers: [], body: Data(#"{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"22s"}]}}"#.utf8), provider: "g", now: Date(timeIntervalSince1970: 0))
        #expect(exhausted.code == .rateLimited && exhausted.retryAfter == 22)
        let noRetry = OpenAIWire(legacyMaxTokens: false).error(status: 500, headers: [HTTPHeader("x-should-retry", "false")], body: Data(), provider: "o", now: Date(timeIntervalSince1970: 0))
        #expect(!noRetry.isRetryable)
    }
}

/// `coachlab compile --request KIND`: the exact body each kind of provider would be sent.
@Suite struct RequestPreviewTests {
    static func luna() throws -> (Pack, String) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let compiler = try Compiler(pack: PackLoader(fileSystem: .rooted(at: root)).load("personas/luna").get())
        let inputs = try ResolvedInputs(CompileInputs(compiler.pack.variants.first { $0.id == "three-am" }!), pack: compiler.pack,
                                        fileSystem: .rooted(at: root))
        return (compiler.pack, compiler.compile(inputs).system)
    }

    @Test(arguments: [ProviderKind.openai, .openaiCompatible, .anthropic, .gemini, .proxy])
    func eachRemoteKindGetsTheSystemPromptWhereItsProtocolPutsIt(_ kind: ProviderKind) throws {
        let (pack, system) = try Self.luna()
        let preview = try #require(try kind.previewRequest(system: system, message: "I can't sleep.", pack: pack))
        let json = try JSONValue.parse(Data(preview.body.utf8))
        guard case .object(let fields) = json else {
            Issue.record("the body is not a JSON object")
            return
        }
        let sent: String? = switch kind {
        case .openai, .openaiCompatible: json["messages"]?[0]?["content"]?.string
        case .gemini: json["systemInstruction"]?["parts"]?[0]?["text"]?.string
        default: json["system"]?.string
        }
        #expect(sent == system && system.hasPrefix("# You are Luna"))
        #expect(preview.body.contains("I can't sleep."))
        #expect(preview.url.hasPrefix(kind.defaultBaseURL ?? "{baseURL}"))
        // Sorted keys, pretty-printed, slashes as written.
        #expect(preview.body.hasPrefix("{\n  \"") && !preview.body.contains("\\/"))
        #expect(fields.keys.sorted() == preview.body.split(separator: "\n").filter { $0.hasPrefix("  \"") }
            .map { String($0.dropFirst(3).prefix { $0 != "\"" }) })
    }

    @Test func kindsThatCallNoServerHaveNoRequest() throws {
        let (pack, system) = try Self.luna()
        for kind in [ProviderKind.mock, .canned, .fallback] {
            #expect(try kind.previewRequest(system: system, message: "Hi", pack: pack) == nil)
        }
    }
}
