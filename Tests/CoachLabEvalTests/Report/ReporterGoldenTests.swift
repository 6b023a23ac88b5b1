import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation
import Testing

/// Each reporter is pinned by a golden file: the same run, rendered, must give the same text.
/// Timings are the one thing a run cannot repeat, so they are replaced by placeholders first.
/// After an intended change, regenerate with COACHLAB_UPDATE_GOLDEN=1 swift test --filter ReporterGolden
/// and review the diff of Tests/CoachLabEvalTests/Report/Golden/.
@Suite struct ReporterGoldenTests {
    /// Answers every message with one fixed reply.
    struct FixedReply: ChatProvider {
        let id: String
        let model: String
        let text: String
        func complete(_ request: ChatRequest) async throws -> ProviderReply {
            ProviderReply(text: text, usage: Usage(inputTokens: 100, outputTokens: 12, estimated: false),
                          finishReason: .stop, model: model, provider: id, latency: 0.25)
        }
        func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
            AsyncThrowingStream { continuation in
                Task {
                    continuation.yield(.finished(try await complete(request)))
                    continuation.finish()
                }
            }
        }
    }

    /// One reply that breaks several of Luna's rules.
    static let breezy = FixedReply(id: "breezy", model: "breezy-1", text: "Sure! Here are some **tips**:\n- breathe\n- sleep")

    /// Luna's suite on the mock and on a provider that fails it, in one run.
    static func report() async throws -> RunReport {
        let (suites, _) = SuiteCatalog(fileSystem: EvalSupport.fileSystem()).load(["evals/luna.yaml"], heldFixtures: .max)
        var runner = EvalRunner(registry: ProviderRegistry(system: .tests), providerOverride: ["mock", "breezy"], concurrency: 1,
                                fileSystem: EvalSupport.fileSystem()) { configuration, _ in
            configuration.id == "breezy" ? Self.breezy as any ChatProvider : MockProvider()
        }
        runner.registry = ProviderRegistry(configurations: [ProviderConfiguration(id: "breezy", kind: .mock, model: "breezy-1")], system: .tests)
        let results = ResultBox()
        let only: Set<String> = ["luna-three-am", "luna-crisis", "luna-greeting"]
        try await runner.run(suites, include: { only.contains($0.fixture) }) { await results.add($0) }
        let sorted = await results.all.sorted { $0.id < $1.id }
        return try RunReport(run: "golden", suites: suites.map(\.suite), results: sorted)
    }

    /// Timings become placeholders: seconds in text, latency fields in JSON, JUnit times.
    static func placeheld(_ text: String) -> String {
        var text = text
        for (pattern, template) in [(#""(latency|timeToFirstToken|seconds)" : [0-9.e-]+"#, #""$1" : <TIME>"#),
                                    (#"time="[0-9.]+""#, #"time="<TIME>""#),
                                    (#"[0-9]+\.[0-9]{2} s\b"#, "<TIME> s")] {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return text
    }

    static func check(_ rendered: String, against name: String) throws {
        let path = EvalSupport.root + "/Tests/CoachLabEvalTests/Report/Golden/" + name
        let text = placeheld(rendered)
        if ProcessInfo.processInfo.environment["COACHLAB_UPDATE_GOLDEN"] == "1" {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == golden, "\(name) differs from its golden file:\n\(UnifiedDiff.diff(old: golden, new: text, oldName: name, newName: "rendered"))")
    }

    /// A report of several batches, encoded on every core, lists every case once, in the
    /// store's order, each as it reads back.
    @Test func aLargeJSONReportKeepsEveryCaseInOrder() async throws {
        let cases = try await Self.report().allCases()
        let many = (1...100).flatMap { index in
            cases.map { result in
                var copy = result
                copy.repeatIndex = index
                return copy
            }
        }
        let report = try RunReport(run: "large", suites: [], results: many)
        struct Cases: Decodable { var cases: [CaseResult] }
        let decoded = try JSONDecoder().decode(Cases.self, from: Data(Reporters.json(report).utf8)).cases
        #expect(decoded.count == 600)
        #expect(decoded == (try report.allCases()))
        #expect(Set(decoded.map(\.id)).count == 600)
    }

    @Test func everyReporterMatchesItsGoldenFile() async throws {
        let report = try await Self.report()
        #expect(report.totals.cases == 6 && report.totals.passed == 3, "the mock passes, the other provider fails")
        try Self.check(Reporters.terminal(report, colour: false), against: "terminal.txt")
        try Self.check(Reporters.markdown(report), against: "summary.md")
        try Self.check(Reporters.json(report), against: "report.json")
        try Self.check(Reporters.junit(report), against: "junit.xml")
        try Self.check(Reporters.comparison(try ComparisonMatrix(runs: [report])), against: "comparison.txt")
    }

    /// Luna's suite twice over on the mock and on a provider that fails it: the repeats'
    /// section (pass^N, pass@N, flaky cases) in the terminal, Markdown and HTML.
    @Test func repeatsAreSummarisedInEveryReport() async throws {
        let (suites, _) = SuiteCatalog(fileSystem: EvalSupport.fileSystem()).load(["evals/luna.yaml"], heldFixtures: .max)
        var runner = EvalRunner(registry: ProviderRegistry(system: .tests), providerOverride: ["mock", "breezy"], concurrency: 1,
                                fileSystem: EvalSupport.fileSystem()) { configuration, _ in
            configuration.id == "breezy" ? Self.breezy as any ChatProvider : MockProvider()
        }
        runner.registry = ProviderRegistry(configurations: [ProviderConfiguration(id: "breezy", kind: .mock, model: "breezy-1")], system: .tests)
        runner.repeats = 2
        let results = ResultBox()
        let only: Set<String> = ["luna-three-am", "luna-greeting"]
        try await runner.run(suites, include: { only.contains($0.fixture) }) { await results.add($0) }
        let report = try RunReport(run: "repeats", suites: suites.map(\.suite), results: await results.all.sorted { $0.id < $1.id })
        #expect(report.totals.cases == 8)
        let terminal = Reporters.terminal(report, colour: false), markdown = Reporters.markdown(report)
        try Self.check(terminal + "\n" + markdown, against: "repeats.txt")
        #expect(terminal.contains("pass^2") && markdown.contains("### Repeats"))
        var html = ""
        try HTMLReport(runs: [report]).render { html += $0 }
        #expect(html.contains("<h3>Repeats</h3>") && html.contains("pass^N (every repeat passed)"))
        // A single run has no repeats to speak of.
        let once = try await Self.report()
        #expect(!Reporters.terminal(once, colour: false).contains("pass^") && !Reporters.markdown(once).contains("### Repeats"))
    }

    @Test func theGuardrailAndRedTeamTablesMatchTheirGoldenFiles() async throws {
        let fileSystem = EvalSupport.fileSystem()
        let pack = try PackLoader(fileSystem: fileSystem).load("personas/luna").get()
        let dataset = try GuardrailDataset.load("fixtures/guardrails/luna-test.yaml", fileSystem: fileSystem)
        let screener = Screener(pack: pack)
        let rules = pack.guardedRuleIDs
        let score = await GuardrailScore.score(dataset, rules: rules) { (screener.screen($0).decision, false) }
        try Self.check(Reporters.guardrails(score), against: "guardrails.txt")
        let redTeam = await RedTeam.run(dataset.items, rules: rules, datasets: [dataset.id], perturbations: [.typo, .homoglyph, .thirdPerson]) {
            screener.screen($0).decision
        }
        try Self.check(Reporters.redTeam(redTeam, title: "stage 1", pack: "personas/luna"), against: "redteam.txt")
    }
}
