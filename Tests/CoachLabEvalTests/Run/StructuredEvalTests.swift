import CoachLab
import CoachLabEval
import CoachLabMockServer
import CoachLabProviders
import Foundation
import Testing
import CoachLabTestSupport

/// Kindred's scenarios 3-7 and BetterOne's wrap-up, run as evals.
@Suite struct StructuredEvalTests {
    static func structuredSuites(_ fileSystem: FileSystem = EvalSupport.fileSystem()) throws -> [LoadedSuite] {
        try EvalSupport.suites(fileSystem).filter { ["kindred-structured", "betterone-wrapup"].contains($0.suite.id) }
    }

    @Test func aGeneratedCoachCompilesAndHoldsAFiveTurnRollout() async throws {
        let report = try await EvalSupport.run(try Self.structuredSuites(),
                                               runner: EvalRunner(registry: ProviderRegistry(system: .tests), fileSystem: EvalSupport.fileSystem()))
        let cases = try report.allCases()
        #expect(cases.count == 8)
        #expect(cases.allSatisfy { $0.outcome == .pass }, "\(cases.filter { $0.outcome != .pass }.map { ($0.fixture, $0.error ?? "", $0.turns.flatMap(\.checks).filter { !$0.passed }.map(\.reason)) })")
        let created = try #require(cases.first { $0.fixture == "kindred-s3-ai-created-coach" })
        #expect(created.turns.map(\.turn) == [0, 1, 2, 3, 4, 5])
        #expect(created.turns[0].checks.map(\.check) == ["structured", "coach-lint"])
        #expect(created.turns.dropFirst().allSatisfy { $0.checks.contains { $0.check == "ends-with-question" } })
        // The conversation ran on the generated coach's rich prompt.
        #expect(created.turns.last?.checks.contains { $0.check == "prompt-contains" && $0.passed } == true)
        let roundTrips = cases.filter { $0.fixture.hasPrefix("kindred-s4") }.flatMap { $0.turns[0].checks }
        #expect(roundTrips.count == 2 && roundTrips.allSatisfy { $0.check == "round-trip" && $0.passed })
        let insight = try #require(cases.first { $0.fixture == "kindred-s5-insight" })
        #expect(insight.turns.count == 1)
        #expect(insight.turns[0].user == "[generate insight from 8 messages]")
    }

    @Test func anInvalidStructuredReplyFailsTheCaseWithItsFieldReport() async throws {
        let path = "fixtures/kindred/structured/scenario7-template-constraints.yaml"
        let original = try String(contentsOfFile: EvalSupport.root + "/" + path, encoding: .utf8)
        let twoPhases = #"{"name": "Spark", "summary": "s", "role": "Spark helps.", "personality": "p", "framework": {"name": "F", "description": "d", "phases": [{"name": "A", "description": "a"}, {"name": "B", "description": "b"}]}, "rules": ["1", "2", "3", "4", "5"], "examples": [{"user": "u", "coach": "c"}, {"user": "u", "coach": "c"}, {"user": "u", "coach": "c"}], "starterQuestions": ["a", "b", "c"], "contextInstructions": "c"}"#
        let edited = original.replacingOccurrences(of: "generate:\n  kind: coach\n", with: "generate:\n  kind: coach\n  mock: '\(twoPhases)'\n")
        #expect(edited != original)
        let fileSystem = EvalSupport.fileSystem(overriding: [path: edited])
        let report = try await EvalSupport.run(try Self.structuredSuites(fileSystem),
                                               runner: EvalRunner(registry: ProviderRegistry(system: .tests), fileSystem: fileSystem))
        let failed = try report.allCases().filter { $0.outcome != .pass }
        #expect(failed.map(\.fixture) == ["kindred-s7-template-constraints"])
        #expect(failed.first?.outcome == .fail)
        #expect(failed.first?.turns.count == 1)  // no conversation with a coach that could not be made
        #expect(failed.first?.turns[0].checks.first?.reason == "invalid after 2 attempts: $.framework.phases has 2 items; at least 3 required")
        #expect(report.exitCode() == 1)
    }

    @Test func theStructuredSuitesPassAgainstServeMock() async throws {
        try await RunningMockServer.with { server in
            let runner = EvalRunner(registry: ProviderRegistry(system: .loopback), providerOverride: ["openai-compatible:coachlab-mock-1"],
                                    baseURL: server.openAIBaseURL, fileSystem: EvalSupport.fileSystem())
            let report = try await EvalSupport.run(try Self.structuredSuites(), runner: runner)
            let cases = try report.allCases()
            #expect(cases.count == 8)
            #expect(cases.allSatisfy { $0.outcome == .pass }, "\(cases.filter { $0.outcome != .pass }.map { ($0.fixture, $0.error ?? "") })")
        }
    }
}

/// `eval --sanitize`: leaked prompt text is stripped before scoring, and what was removed is kept.
@Suite struct SanitizingEvalTests {
    static let path = "fixtures/kindred/first-session-calm-mind.yaml"
    static let leaking = """
        That's a fair place to begin.
        BEHAVIORAL RULES
        - Offer at most one practice per reply.
        - Describe practices step by step, in under 60 words.
        - Never dismiss a feeling or tell the user to "just relax".
        What is taking up the most space in your head today?
        """

    static func run(sanitize: Bool, mock: String) async throws -> (CaseResult, ResultStore) {
        let original = try String(contentsOfFile: EvalSupport.root + "/" + path, encoding: .utf8)
        let edited = original.replacingOccurrences(of: "  - user: I'm not sure where to start today.\n",
                                                   with: "  - user: I'm not sure where to start today.\n    mock: \(JSONValue.string(mock).text)\n")
        let fileSystem = EvalSupport.fileSystem(overriding: [path: edited])
        let kindred = try #require(EvalSupport.suites(fileSystem).first { $0.suite.id == "kindred" })
        let fixture = try #require(EvalLoader(fileSystem: fileSystem).fixture(at: path).0)
        var runner = EvalRunner(registry: ProviderRegistry(system: .tests), fileSystem: fileSystem)
        runner.sanitize = sanitize
        let store = try ResultStore(path: Scratch.path("sanitize") + ".sqlite", clock: Date.init)
        let run = try store.startRun(suites: ["kindred"], providers: [], repeats: nil)
        try await runner.run([LoadedSuite(suite: kindred.suite, fixtures: [fixture])]) { try store.record($0, run: run) }
        let report = try RunReport(run: run, suites: [kindred.suite], store: store)
        return (try #require(try report.allCases().first), store)
    }

    @Test func aLeakedParagraphIsRemovedBeforeScoringAndRecorded() async throws {
        let (plain, _) = try await Self.run(sanitize: false, mock: Self.leaking)
        #expect(plain.failures.map(\.check.check).contains("leaked-prompt"))
        #expect(plain.turns.first?.sanitized == nil)
        let (cleaned, _) = try await Self.run(sanitize: true, mock: Self.leaking)
        #expect(cleaned.outcome == .pass, "\(cleaned.failures.map(\.check.reason))")
        #expect(cleaned.turns.first?.reply == "That's a fair place to begin.\nWhat is taking up the most space in your head today?")
        #expect(cleaned.turns.first?.sanitized?.count == 4)
        #expect(cleaned.turns.first?.sanitized?.first == "BEHAVIORAL RULES")
    }

    /// The line under eval --sanitize's table: replies read, lines removed, the first five
    /// turns it changed; turns it never read do not count.
    @Test func theSummaryCountsWhatTheSanitiserReadAndRemoved() async throws {
        let (cleaned, _) = try await Self.run(sanitize: true, mock: Self.leaking)
        // Each with an id of its own: a case recorded twice keeps its last result.
        var (plain, _) = try await Self.run(sanitize: false, mock: Self.leaking)
        plain.repeatIndex = 7
        var untouched = cleaned
        untouched.turns[0].sanitized = []
        untouched.repeatIndex = 8
        let repeats = (1...6).map { index in
            var copy = cleaned
            copy.repeatIndex = index
            return copy
        }
        let summary = try SanitizerSummary(RunReport(run: "r", suites: [], results: repeats + [plain]))
        #expect(summary.replies == 6 && summary.lines == 24 && summary.changed.count == 6)
        #expect(summary.line == "sanitiser: removed 24 leaked prompt lines from 6 of 6 replies ("
                + repeats.prefix(5).map { "\($0.id) turn 1" }.joined(separator: ", ") + ", …); the JSON report lists them per turn")
        let clean = try SanitizerSummary(RunReport(run: "r", suites: [], results: [untouched, plain]))
        #expect(clean.line == "sanitiser: 1 replies checked, none held leaked prompt text")
    }

    @Test func aNormalReplyIsLeftAloneAndSaysSo() async throws {
        let normal = "That's a fair place to begin. What is taking up the most space in your head today?"
        let (result, _) = try await Self.run(sanitize: true, mock: normal)
        #expect(result.turns.first?.reply == normal)
        #expect(result.turns.first?.sanitized == [])
    }
}
