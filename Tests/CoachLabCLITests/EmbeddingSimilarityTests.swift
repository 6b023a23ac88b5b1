import CoachLab
import CoachLabMockServer
import CoachLabTestSupport
import Foundation
import Testing

/// `similar` by embedding: a reply compared with a gold reply by the cosine of their
/// embeddings, from serve-mock's deterministic `/v1/embeddings`, through the response cache,
/// with the key redacted as on every other request.
@Suite(.serialized) struct EmbeddingSimilarityTests {
    static let key = "sk-embed-test-0123456789abcdefXYZ"

    /// A project with Luna's pack, one fixture, and a suite whose check compares the reply with `gold`.
    static func project(gold: String, minimum: Double, provider: String, port: Int) throws -> String {
        let directory = try Scratch.folder("embedding")
        try FileManager.default.createDirectory(atPath: directory + "/personas", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.root + "/personas/luna", toPath: directory + "/personas/luna")
        try FileManager.default.createDirectory(atPath: directory + "/fixtures/luna", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/evals", withIntermediateDirectories: true)
        try """
            fixture:
              id: luna-awake
              pack: personas/luna
              now: 2026-03-01T02:30:00-05:00
            turns:
              - user: I'm wide awake again and my mind keeps racing.
                expect:
                  - {check: similar, to: \(JSONValue.string(gold).text), min: \(minimum), by: embedding, provider: \(provider)}
            """.write(toFile: directory + "/fixtures/luna/awake.yaml", atomically: true, encoding: .utf8)
        try """
            suite:
              id: luna-meaning
            fixtures: [fixtures/luna/awake.yaml]
            """.write(toFile: directory + "/evals/meaning.yaml", atomically: true, encoding: .utf8)
        try """
            providers:
              - id: embedder
                kind: openai-compatible
                model: coachlab-mock-1
                embeddingModel: coachlab-embed-1
                baseURL: http://127.0.0.1:\(port)/v1
                apiKeyEnv: EMBED_API_KEY
              - id: claude
                kind: anthropic
                model: claude-sonnet-4-5
                apiKeyEnv: EMBED_API_KEY
              - id: chain
                kind: fallback
                chain: [claude, embedder]
            """.write(toFile: directory + "/providers.yaml", atomically: true, encoding: .utf8)
        return directory
    }

    /// Luna's reply to the fixture's message, as the mock gives it.
    static func reply(in directory: String) async throws -> String {
        let report = directory + "/first.json"
        _ = try await CLI.run(["eval", "evals/meaning.yaml", "--json", report, "--store", directory + "/runs.sqlite"], in: directory,
                              environment: ["EMBED_API_KEY": key])
        let json = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: report)))
        return try #require(json["cases"]?[0]?["turns"]?[0]?["reply"]?.string)
    }

    @Test func aReplyOfTheSameMeaningPassesAndAnotherFailsWithItsCosineAndTheCacheAnswersAgain() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0)) { server in
            let probe = try Self.project(gold: "anything", minimum: 0, provider: "embedder", port: server.port)
            let reply = try await Self.reply(in: probe)
            // The same words in another order, one sentence left out: the same meaning to these embeddings.
            let sentences = reply.components(separatedBy: ". ")
            let paraphrase = sentences.dropLast().reversed().joined(separator: ". ")
            let near = try Self.project(gold: paraphrase, minimum: 0.6, provider: "embedder", port: server.port)
            let store = near + "/runs.sqlite"
            let cache = ["EMBED_API_KEY": Self.key, "COACHLAB_CACHE": near + "/cache"]
            let passing = try await CLI.run(["eval", "evals/meaning.yaml", "--store", store, "--json", near + "/report.json"], in: near,
                                            environment: cache)
            #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
            let report = try String(contentsOfFile: near + "/report.json", encoding: .utf8)
            #expect(report.contains("cosine") && report.contains("embedder's embeddings"), "\(report)")
            let again = try await CLI.run(["eval", "evals/meaning.yaml", "--store", store], in: near, environment: cache)
            #expect(again.status == 0 && again.stderr.contains("1 answers read"), "\(again.stderr)")

            let far = try Self.project(gold: "Quarterly filing deadlines for small business payroll taxes.", minimum: 0.6, provider: "embedder",
                                       port: server.port)
            let failing = try await CLI.run(["eval", "evals/meaning.yaml", "--store", far + "/runs.sqlite"], in: far,
                                            environment: ["EMBED_API_KEY": Self.key])
            #expect(failing.status == 1 && failing.stdout.contains("similar: cosine"), "\(failing.stdout)")

            // A fallback chain embeds with its first link that serves embeddings: not Anthropic's.
            let chained = try Self.project(gold: paraphrase, minimum: 0.6, provider: "chain", port: server.port)
            let viaChain = try await CLI.run(["eval", "evals/meaning.yaml", "--store", chained + "/runs.sqlite"], in: chained,
                                             environment: ["EMBED_API_KEY": Self.key])
            #expect(viaChain.status == 0, "\(viaChain.stdout)\(viaChain.stderr)")
        }
    }

    @Test func theMockServesEmbeddingsInProcessAndAnUnknownProviderIsNamed() async throws {
        let directory = try Self.project(gold: "Quarterly filing deadlines for small business payroll taxes.", minimum: 0.6, provider: "mock", port: 9)
        let failing = try await CLI.run(["eval", "evals/meaning.yaml", "--store", directory + "/runs.sqlite"], in: directory)
        #expect(failing.status == 1 && failing.stdout.contains("similar: cosine"), "\(failing.stdout)\(failing.stderr)")
        let unknown = try Self.project(gold: "x", minimum: 0.5, provider: "embeder", port: 9)
        let result = try await CLI.run(["eval", "evals/meaning.yaml", "--store", unknown + "/runs.sqlite"], in: unknown)
        #expect(result.status == 2 && result.stderr.contains("embedder"), "\(result.stderr)")
        // by: embedding without a provider is located at its field.
        let missing = try Self.project(gold: "x", minimum: 0.5, provider: "mock", port: 9)
        let fixture = missing + "/fixtures/luna/awake.yaml"
        try String(contentsOfFile: fixture, encoding: .utf8).replacingOccurrences(of: ", provider: mock", with: "")
            .write(toFile: fixture, atomically: true, encoding: .utf8)
        let lint = try await CLI.run(["lint"], in: missing)
        let said = lint.stdout + lint.stderr
        #expect(lint.status == 2 && said.contains("awake.yaml:8:") && said.contains("needs provider"), "\(said)")
    }

    @Test func anEchoedKeyNeverReachesTheReport() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, faults: [MockFaultRule(.unauthorized)])) { server in
            let directory = try Self.project(gold: "anything", minimum: 0.5, provider: "embedder", port: server.port)
            let result = try await CLI.run(["eval", "evals/meaning.yaml", "--store", directory + "/runs.sqlite", "--json", directory + "/r.json"],
                                           in: directory, environment: ["EMBED_API_KEY": Self.key])
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            let everything = result.stdout + result.stderr + (try String(contentsOfFile: directory + "/r.json", encoding: .utf8))
            #expect(everything.contains("authentication") && !everything.contains(Self.key), "\(everything)")
        }
    }
}
