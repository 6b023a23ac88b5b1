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

    @Test func checksOnAnEarlierTurnThatNoSuiteScoresAreAnError() {
        let fixture = """
            fixture: {id: two, pack: personas/luna}
            turns:
              - user: Hello
                reply: Hi there. What is on your mind?
                expect: [ends-with-question]
              - user: I cannot sleep.
            """
        func lint(_ suites: [String: String]) -> [Diagnostic] {
            var files = suites
            files["fixtures/x/two.yaml"] = fixture
            return EvalLinter(fileSystem: .inMemory(files)).lint(fixtures: [], suites: suites.keys.sorted())
        }
        let final = "suite: {id: f}\nfixtures: [fixtures/x/*.yaml]\n"
        let error = lint(["evals/f.yaml": final]).first { $0.message.contains("'expect' is never scored") }
        #expect(error?.location.description == "fixtures/x/two.yaml:5:14")
        // A rollout suite scores every turn, so the same checks are not ignored there.
        let rollout = "suite: {id: r}\nfixtures: [fixtures/x/*.yaml]\nmode: rollout\n"
        #expect(!lint(["evals/f.yaml": final, "evals/r.yaml": rollout]).contains { $0.message.contains("never scored") })
        // Run only in rollout, the recorded reply is what is ignored.
        let ignored = lint(["evals/r.yaml": rollout]).first { $0.message.contains("'reply' is never used") }
        #expect(ignored?.location.description == "fixtures/x/two.yaml:3:5")
    }
}
