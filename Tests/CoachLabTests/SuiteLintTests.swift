import CoachLab
import Foundation
import Testing

/// A suite that can select nothing, or grade with nothing, fails lint instead of passing
/// vacuously.
@Suite struct SuiteLintTests {
    static let fixture = """
        fixture: {id: greet, pack: personas/luna, tags: [night]}
        turns:
          - user: Hello
        """

    static func lint(_ suite: String) -> [Diagnostic] {
        let files = ["fixtures/x/greet.yaml": fixture, "evals/x.yaml": suite]
        return EvalLinter(fileSystem: .inMemory(files)).lint(fixtures: [], suites: ["evals/x.yaml"])
    }

    @Test func aTagNoFixtureHasIsAnError() {
        let diagnostics = Self.lint("suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\ntags: [nigth]\n")
        let error = diagnostics.first { $0.message.contains("tag 'nigth' matches none of the suite's 1 fixtures") }
        #expect(error?.location.description == "evals/x.yaml:3:8")
        #expect(error?.hint?.contains("night") == true)
        #expect(Self.lint("suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\ntags: [night]\n").isEmpty)
    }

    @Test func aJudgeCheckWithoutAGraderIsAnError() {
        let suite = "suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\nchecks:\n  - {check: judge, rubric: Is it kind?}\n"
        let error = Self.lint(suite).first { $0.message.contains("judge check needs a model") }
        #expect(error?.location.description == "evals/x.yaml:4:5")
        #expect(Self.lint(suite + "judge: claude\n").isEmpty)
        #expect(Self.lint(suite.replacingOccurrences(of: "kind?}", with: "kind?, provider: claude}")).isEmpty)
    }
}
