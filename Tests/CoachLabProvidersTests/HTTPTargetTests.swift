import CoachLab
import CoachLabMockServer
import CoachLabProviders
import CoachLabTestSupport
import Foundation
import Testing

/// These tests' own connection pool, apart from the other suites' (see `integrationTransport`).
let appTransport = ClosingTransport(base: .dedicated())

/// The token the imitation app backend requires, and the JWT-like header value sent with it.
private let appToken = "eyJhbGciOiJIUzI1NiJ9.c2Vzc2lvbi0xMjM0.Zm9vYmFy"

/// providers.yaml for the imitation backend of `pack` on `port`: its own request shape, its
/// own reply and usage paths, its own stream events.
func appProvidersFile(port: Int, pack: String = "healthwallet", id: String = "app", streams: Bool = true) -> String {
    """
    providers:
      - id: \(id)
        kind: http
        url: http://127.0.0.1:\(port)\(MockApp.path(pack))
        headers:
          Authorization: Bearer ${APP_SESSION_JWT}
          X-Client: coachlab-tests
        body: |
          {
            "message": "{{message}}",
            "history": [{{#history}}{"from": "{{#user}}member{{/user}}{{#assistant}}coach{{/assistant}}", "text": "{{content}}"}{{^last()}}, {{/last()}}{{/history}}],
            "session": {{{json.app}}},
            "stream": {{stream}}
          }
        reply: /message/text
        usage: {input: /usage/in, output: /usage/out}
        error: /error/detail
        maxRetries: 2
    \(streams ? """
        stream:
          text: /text
          done: "[END]"
          error: /detail
          usage: {input: /usage/in, output: /usage/out}
    """ : "")
    """
}

/// A registry loaded from `text`, on the live disk, with the app token in its variables.
func appRegistry(_ text: String, variables: [String: String] = ["APP_SESSION_JWT": appToken],
                 recorder: SleepRecorder = SleepRecorder()) throws -> ProviderRegistry {
    let folder = try Scratch.folder("http-target")
    try text.write(toFile: folder + "/providers.yaml", atomically: true, encoding: .utf8)
    var system = SystemEnvironment.tests(transport: appTransport, sleep: recorder.sleep, variables: variables)
    system.fileSystem = .live
    return try ProviderRegistry.load(folder + "/providers.yaml", system: system)
}

@Suite(.serialized) struct HTTPTargetTests {
    static let pack = PackageRoot.path + "/personas/healthwallet"

    func withApp<T: Sendable>(faults: [MockFaultRule] = [], token: String? = appToken,
                              _ body: (RunningMockServer) async throws -> T) async throws -> T {
        var configuration = MockServerConfiguration(port: 0, slowDelay: 1.5, faults: faults)
        configuration.apps = [try MockApp(folder: Self.pack, token: token)]
        return try await RunningMockServer.with(configuration, body)
    }

    func request(_ message: String, history: [ChatMessage] = []) -> ChatRequest {
        var request = ChatRequest(system: "unused: the app builds its own prompt", messages: history + [ChatMessage(.user, message)])
        request.appData = AppData(profile: ["name": "Priya", "age": 34], context: ["sleep": "sleep 6.2 h a night"])
        return request
    }

    @Test func aJSONPointerNamesMembersAndIndexesAsRFC6901Says() throws {
        let document: JSONValue = ["a/b": ["x~y": [10, 20]], "list": [["text": "hi"]]]
        #expect(JSONPointer("/a~1b/x~0y/1")?.resolve(in: document) == 20)
        #expect(JSONPointer("/list/0/text")?.resolve(in: document) == "hi")
        #expect(JSONPointer("")?.resolve(in: document) == document)
        #expect(JSONPointer("/list/01/text")?.resolve(in: document) == nil)
        #expect(JSONPointer("/missing")?.resolve(in: document) == nil)
        #expect(JSONPointer("reply") == nil)
        #expect(JSONPointer("/bad~2escape") == nil)
    }

    @Test func theTemplateSendsTheConversationAndTheAppsDataInTheAppsOwnShape() throws {
        let registry = try appRegistry(appProvidersFile(port: 9))
        let provider = try #require(try registry.provider(registry.configuration(for: "app")) as? HTTPProvider)
        var chat = request("He said \"stop\" \\ again", history: [ChatMessage(.user, "Hi"), ChatMessage(.assistant, "Hello!")])
        chat.appData?.coach = "nova"
        let spec = provider.wireRequest(chat, stream: false)
        let body = try JSONValue.parse(spec.body)
        #expect(body["message"] == "He said \"stop\" \\ again")
        #expect(body["history"] == [["from": "member", "text": "Hi"], ["from": "coach", "text": "Hello!"]])
        #expect(body["session"]?["profile"]?["age"] == 34)
        #expect(body["session"]?["coach"] == "nova")
        #expect(body["stream"] == false)
        #expect(try JSONValue.parse(provider.wireRequest(chat, stream: true).body)["stream"] == true)
        #expect(spec.url.hasSuffix("/app/healthwallet/api/v1/chat"))
        let authorization = try #require(spec.headers.first { $0.name == "Authorization" })
        #expect(authorization.value == "Bearer \(appToken)" && authorization.isSecret)
        #expect(spec.headers.contains { $0.name == "X-Client" && !$0.isSecret })
    }

    @Test(arguments: [false, true])
    func theAppAnswersWholeOrStreamedAndReportsItsUsage(streamed: Bool) async throws {
        try await withApp { server in
            let registry = try appRegistry(appProvidersFile(port: server.port))
            let provider = try registry.provider(registry.configuration(for: "app"))
            let chat = request("I have crushing chest pain right now")
            let reply: ProviderReply
            var pieces = 0
            if streamed {
                let streamedReply = try await collectStream(provider.stream(chat))
                reply = try #require(streamedReply.reply)
                #expect(streamedReply.text == reply.text)
                pieces = MockProvider.pieces(of: reply.text).count
            } else {
                reply = try await provider.complete(chat)
            }
            // The server built the flagged prompt from the pack: the mock coach follows its alert.
            #expect(reply.text.contains("emergency number"), "\(reply.text)")
            #expect(!reply.usage.estimated && reply.usage.outputTokens > 0)
            #expect(streamed ? pieces > 1 : true)
        }
    }

    @Test func anAppThatCannotStreamIsAskedWholeAndPassedOnInOnePiece() async throws {
        try await withApp { server in
            let registry = try appRegistry(appProvidersFile(port: server.port, streams: false))
            let provider = try registry.provider(registry.configuration(for: "app"))
            let streamed = try await collectStream(provider.stream(request("How did I sleep?")))
            #expect(!streamed.text.isEmpty && streamed.reply?.text == streamed.text)
        }
    }

    @Test(arguments: [MockFault.rateLimit, .serverError, .overloaded, .cut, .streamError, .slowFirstByte])
    func aPassingFaultIsRetriedAndTheReplyStillComes(fault: MockFault) async throws {
        try await withApp(faults: [MockFaultRule(fault, times: 1)]) { server in
            let recorder = SleepRecorder()
            let registry = try appRegistry(appProvidersFile(port: server.port), recorder: recorder)
            var configuration = try registry.configuration(for: "app")
            configuration.timeout = fault == .slowFirstByte ? 1 : 10
            let provider = try registry.provider(configuration, retry: RetryPolicy(maxRetries: 2, initialDelay: 0.01, maxDelay: 0.05, jitter: 0))
            let streamed = try await collectStream(provider.stream(request("How did I sleep this week?")))
            let reply = try #require(streamed.reply)
            #expect(!reply.text.isEmpty && reply.attempts == 2, "\(fault): \(reply.attempts) attempts")
            if fault == .rateLimit { #expect(recorder.delays.first == 0.1, "the app's retry-after-ms is honoured") }
        }
    }

    @Test(arguments: [(MockFault.unauthorized, ProviderError.Code.authentication), (.quota, .insufficientQuota),
                      (.contextLength, .contextLength), (.malformed, .malformedResponse)])
    func aLastingFaultIsAnErrorInTheAppsOwnWordsWithoutTheToken(fault: MockFault, code: ProviderError.Code) async throws {
        try await withApp(faults: [MockFaultRule(fault)]) { server in
            let registry = try appRegistry(appProvidersFile(port: server.port))
            let provider = try registry.provider(registry.configuration(for: "app"))
            let error = try await #require(throws: ProviderError.self) { try await provider.complete(request("Hi")) }
            #expect(error.code == code)
            #expect(!error.description.contains(appToken) && !error.description.contains("c2Vzc2lvbi0xMjM0"), "\(error)")
            if fault == .unauthorized { #expect(error.message.contains("is not valid")) }
        }
    }

    @Test func aWrongTokenIsRefusedAndAMissingVariableIsNamedBeforeAnythingIsSent() async throws {
        try await withApp { server in
            let wrong = "eyJ-wrong-token-0123456789"
            let registry = try appRegistry(appProvidersFile(port: server.port), variables: ["APP_SESSION_JWT": wrong])
            let provider = try registry.provider(registry.configuration(for: "app"))
            let error = try await #require(throws: ProviderError.self) { try await provider.complete(request("Hi")) }
            #expect(error.code == .authentication && !error.description.contains(wrong), "\(error)")
            let unset = try appRegistry(appProvidersFile(port: server.port), variables: [:])
            let missing = try #require(throws: ProviderError.self) { try unset.provider(unset.configuration(for: "app")) }
            #expect(missing.message.contains("APP_SESSION_JWT is not set"))
            #expect(server.server.requestCount == 1)
        }
    }

    @Test func theTokenReachesNoCassetteAndNoCachedAnswer() async throws {
        try await withApp(faults: []) { server in
            let folder = try Scratch.folder("http-target-secrets")
            let registry = try appRegistry(appProvidersFile(port: server.port))
            let cassettes = CassetteTransport.recording(to: folder + "/cassettes", through: appTransport, fileSystem: .live)
            let cache = ResponseCache(directory: folder + "/cache", fileSystem: .live, now: { Date() })
            let recorded = try registry.provider(registry.configuration(for: "app"), transport: cassettes, cache: cache)
            _ = try await recorded.complete(request("How did I sleep?"))
            _ = try await collectStream(recorded.stream(request("And my labs?")))
            let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
            let written = files.filter { $0.hasSuffix(".json") }
            #expect(written.count >= 3, "\(files)")
            for file in written {
                let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
                #expect(!text.contains(appToken) && !text.contains("c2Vzc2lvbi0xMjM0"), "\(file)")
            }
            // Replayed, the cassettes need no token.
            let replaying = try appRegistry(appProvidersFile(port: server.port), variables: [:])
            let replayed = try replaying.provider(replaying.configuration(for: "app"),
                                                  transport: CassetteTransport.replaying(from: folder + "/cassettes", fileSystem: .live))
            #expect(try await replayed.complete(request("How did I sleep?")).text.isEmpty == false)
        }
    }

    @Test func mistakesInTheTargetAreLocatedBeforeAnyRun() throws {
        func problems(_ entry: String, whole: Bool = false) -> String {
            do {
                _ = try appRegistry(whole ? entry : "providers:\n  - id: app\n    kind: http\n" + entry)
                return ""
            } catch let error as CoachLabError {
                return error.diagnostics.map(\.description).joined(separator: "\n")
            } catch { return "\(error)" }
        }
        #expect(problems("    reply: /reply\n").contains("needs a url"))
        #expect(problems("    url: http://127.0.0.1:9/chat\n").contains("needs reply"))
        #expect(problems("    url: http://127.0.0.1:9/chat\n    reply: reply\n").contains("'reply' is not a JSON Pointer"))
        #expect(problems("    url: 127.0.0.1:9/chat\n    reply: /reply\n").contains("does not start with http://"))
        let typo = problems("    url: http://127.0.0.1:9/chat\n    reply: /reply\n    body: '{\"message\": \"{{mesage}}\"}'\n")
        #expect(typo.contains("names 'mesage'") && typo.contains("message") && typo.contains("providers.yaml:6:"), "\(typo)")
        let unquoted = problems("    url: http://127.0.0.1:9/chat\n    reply: /reply\n    body: '{\"message\": {{message}}}'\n")
        #expect(unquoted.contains("does not render JSON"), "\(unquoted)")
        let broken = problems("    url: http://127.0.0.1:9/chat\n    reply: /reply\n    body: '{\"message\": \"{{#message}}\"}'\n")
        #expect(broken.contains("does not parse"), "\(broken)")
        let literal = problems("    url: http://127.0.0.1:9/chat\n    reply: /reply\n    headers:\n      Authorization: Bearer abc\n")
        #expect(literal.contains("holds its value in the file"), "\(literal)")
        #expect(problems(appProvidersFile(port: 9), whole: true) == "")
    }
}
