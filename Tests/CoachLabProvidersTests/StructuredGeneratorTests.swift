import CoachLab
import CoachLabMockServer
import CoachLabProviders
import Foundation
import Testing

/// A provider that gives fixed replies in order and keeps the requests it saw.
final class ScriptedProvider: ChatProvider, @unchecked Sendable {
    let id = "scripted"
    let model = "scripted-1"
    private let lock = NSLock()
    private var replies: [(String, FinishReason)]
    private(set) var requests: [ChatRequest] = []

    init(_ replies: [(String, FinishReason)]) { self.replies = replies }

    func complete(_ request: ChatRequest) async throws -> ProviderReply {
        let (text, finish) = lock.withLock {
            requests.append(request)
            return replies.isEmpty ? ("", .stop) : replies.removeFirst()
        }
        return ProviderReply(text: text, usage: .estimate(request, reply: text), finishReason: finish, model: model, provider: id)
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { $0.finish(throwing: ProviderError(.configuration, provider: id, message: "not streamed")) }
    }
}

@Suite struct StructuredGeneratorTests {
    static let transcript = Transcript([.init(isUser: true, text: "I'll email my two best clients tomorrow."),
                                        .init(isUser: false, text: "Good. When exactly?")])
    static let valid = #"{"takeaway": "You move when you commit to a day.", "nextStep": "Email two clients tomorrow at nine."}"#

    @Test func anUnusableReplyIsSentBackOnceWithItsProblems() async throws {
        let provider = ScriptedProvider([("Sure! Here's your wrap-up: rest more.", .stop), (Self.valid, .stop)])
        let outcome = try await StructuredGenerator(provider: provider, sendsSchema: false).generate(.wrapup(Self.transcript))
        #expect(outcome.isValid)
        #expect(outcome.attempts.count == 2)
        #expect(outcome.value?["nextStep"]?.string == "Email two clients tomorrow at nine.")
        let second = try #require(provider.requests.last)
        #expect(second.messages.count == 3)
        #expect(second.messages[1] == ChatMessage(.assistant, "Sure! Here's your wrap-up: rest more."))
        #expect(second.messages[2].content.contains("- $: the reply is prose, not JSON"))
        #expect(second.settings.responseSchema == nil)
        #expect(outcome.report.contains("valid on attempt 2 of 2 (asked as strict JSON)"))
    }

    /// Finding 10 of the secrets issue: a judge that answered 10 MB had the whole 10 MB sent
    /// back to it in the correction request.
    @Test func aRunawayReplyIsNotSentBackWhole() async throws {
        let runaway = String(repeating: "I think the reply is fine. ", count: 400_000)
        let provider = ScriptedProvider([(runaway, .length), (Self.valid, .stop)])
        let outcome = try await StructuredGenerator(provider: provider, sendsSchema: false).generate(.wrapup(Self.transcript))
        #expect(outcome.isValid)
        let second = try #require(provider.requests.last)
        let sent = second.messages.reduce(0) { $0 + $1.content.count }
        #expect(sent < 20_000, "the correction request holds \(sent) characters")
        #expect(second.messages[1].content.hasSuffix("… [cut here: the reply ran to \(runaway.count) characters]"))
    }

    @Test func twoUnusableRepliesGiveEveryProblemAndNoValue() async throws {
        let missing = #"{"takeaway": "You rest."}"#
        let provider = ScriptedProvider([(missing, .stop), (missing, .stop)])
        let outcome = try await StructuredGenerator(provider: provider, sendsSchema: true).generate(.wrapup(Self.transcript))
        #expect(!outcome.isValid)
        #expect(outcome.value == nil)
        #expect(outcome.problems == ["$.nextStep is missing"])
        #expect(provider.requests.first?.settings.responseSchema == StructuredTask.wrapup(Self.transcript).schema)
        #expect(outcome.report.contains("invalid after 2 attempts (asked with its JSON Schema)"))
        #expect(outcome.report.contains("    $.nextStep is missing"))
    }

    @Test func aReplyCutOffAtTheTokenLimitSaysSo() async throws {
        let provider = ScriptedProvider([(#"{"takeaway": "You"#, .length), (#"{"takeaway": "You"#, .length)])
        let outcome = try await StructuredGenerator(provider: provider, sendsSchema: true, maxTokens: 5).generate(.wrapup(Self.transcript))
        #expect(outcome.problems.first == "$: the reply was cut off at the 5-token limit")
    }

    @Test func providerFailuresAreThrownNotReportedAsInvalid() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(.unauthorized)])) { server in
            await #expect(throws: ProviderError.self) {
                try await StructuredGenerator(provider: provider(.openai, server), sendsSchema: true).generate(.wrapup(Self.transcript))
            }
        }
    }

    /// Every wire protocol of serve-mock answers every task with valid structured output.
    @Test(arguments: [ProviderKind.openai, .openaiCompatible, .anthropic, .gemini, .proxy])
    func everyTaskWorksAgainstServeMock(_ kind: ProviderKind) async throws {
        try await RunningMockServer.with { server in
            let chat = provider(kind, server)
            let generator = StructuredGenerator(provider: chat, sendsSchema: kind.supportsResponseSchema)
            let tasks: [StructuredTask] = [
                .coach(describing: "A patient running coach for beginners"),
                .insight(Self.transcript),
                .insight(Self.transcript, quick: true),
                .wrapup(Self.transcript),
                .summary("User: I want to run.\nCoach: Why?"),
            ]
            for task in tasks {
                let outcome = try await generator.generate(task)
                #expect(outcome.isValid, "\(kind) \(task.kind): \(outcome.report)")
                #expect(outcome.attempts.count == 1)
            }
        }
    }

    @Test func theSchemaReachesTheWireWhereTheProviderTakesOne() throws {
        let task = StructuredTask.wrapup(Self.transcript)
        let request = ChatRequest(system: task.system, messages: [ChatMessage(.user, task.message)],
                                  settings: GenerationSettings(model: "m", responseSchema: task.schema))
        let openai = OpenAIWire(legacyMaxTokens: false).request(request, model: "m", stream: false, baseURL: "http://x/v1", apiKey: "k")
        let body = try JSONValue.parse(openai.body)
        #expect(body["response_format"]?["type"]?.string == "json_schema")
        #expect(body["response_format"]?["json_schema"]?["schema"] == task.schema)
        let gemini = try JSONValue.parse(GeminiWire().request(request, model: "m", stream: false, baseURL: "http://x", apiKey: "k").body)
        #expect(gemini["generationConfig"]?["responseJsonSchema"] == task.schema)
        #expect(ProviderKind.openai.supportsResponseSchema && ProviderKind.gemini.supportsResponseSchema)
        #expect(!ProviderKind.anthropic.supportsResponseSchema && !ProviderKind.openaiCompatible.supportsResponseSchema)
    }
}
