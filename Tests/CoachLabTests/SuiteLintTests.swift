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

    /// Two checks of one list with one id: reports named both "judge" (or "contains"), and a
    /// rescore, which carries judge verdicts over by id, gave each check both sets of verdicts.
    @Test func twoChecksOfOneListWithOneIdAreAnError() throws {
        let files = ["fixtures/x/greet.yaml": "fixture: {id: greet, pack: personas/luna}\nturns:\n  - user: Hello\n    expect: [{check: contains, phrases: [hi]}, {check: contains, phrases: [hello]}]\n",
                     "evals/x.yaml": "suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\njudge: mock\nchecks:\n  - {check: judge, rubric: Warm?}\n  - {check: judge, rubric: Short?}\n  - {check: judge, id: short, rubric: Short?}\n"]
        let diagnostics = EvalLinter(fileSystem: TestSupport.fileSystem.overlaying(files))
            .lint(fixtures: ["fixtures/x/greet.yaml"], suites: ["evals/x.yaml"])
        let suite = try #require(diagnostics.first { $0.location.file == "evals/x.yaml" })
        #expect(suite.message == "two judge checks in this list have the id 'judge' (first at evals/x.yaml:5:5), so a rescore would give each both sets of verdicts")
        #expect(suite.location.description == "evals/x.yaml:6:5" && suite.severity == .error)
        // Other checks named alike only read alike in reports: content written before this
        // check still runs, with a warning.
        let fixture = try #require(diagnostics.first { $0.location.file == "fixtures/x/greet.yaml" })
        #expect(fixture.message == "two checks in this list have the id 'contains' (first at fixtures/x/greet.yaml:4:14), so reports name both alike")
        #expect(fixture.severity == .warning)
        #expect(diagnostics.count == 2, "\(diagnostics.map(\.description))")
        // A fixture's judge check and one of its suite's, scored on the same turn, are one list
        // to a rescore.
        let judged = ["fixtures/x/greet.yaml": "fixture: {id: greet, pack: personas/luna}\nturns:\n  - user: Hello\n    expect: [{check: judge, rubric: Kind?}]\n",
                      "evals/x.yaml": "suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\njudge: mock\nchecks:\n  - {check: judge, rubric: Warm?}\n"]
        let clash = EvalLinter(fileSystem: TestSupport.fileSystem.overlaying(judged)).lint(fixtures: [], suites: ["evals/x.yaml"])
        #expect(clash.map(\.description) == ["fixtures/x/greet.yaml:4:14: error: this judge check has the id 'judge', as one of the suite's does (evals/x.yaml:5:5), so a rescore could not tell their verdicts apart\n    hint: give one an id of its own"])
    }

    /// `leaked-prompt`'s quotable layers are layers of the packs the suite (or the fixture)
    /// runs; an empty id is no id.
    @Test func aQuotableLayerNoPackHasIsAnErrorAtTheId() throws {
        let fixture = "fixture: {id: greet, pack: personas/luna}\nturns:\n  - user: Hello\n    expect: [{check: leaked-prompt, quotable: [nights]}]\n"
        let files = ["fixtures/x/greet.yaml": fixture,
                     "evals/x.yaml": "suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\nchecks:\n  - {check: leaked-prompt, quotable: [replies, rulez]}\n",
                     "evals/y.yaml": "suite: {id: y}\nfixtures: [fixtures/x/*.yaml]\nchecks:\n  - {check: leaked-prompt, quotable: [\"\"]}\n"]
        let diagnostics = EvalLinter(fileSystem: TestSupport.fileSystem.overlaying(files))
            .lint(fixtures: ["fixtures/x/greet.yaml"], suites: ["evals/x.yaml", "evals/y.yaml"])
        let suiteError = try #require(diagnostics.first { $0.message == "no layer 'rulez' in pack 'luna'" })
        #expect(suiteError.location.description == "evals/x.yaml:4:48")
        #expect(suiteError.hint == "did you mean 'rules'?")
        let fixtureError = try #require(diagnostics.first { $0.message == "no layer 'nights' in pack 'luna'" })
        #expect(fixtureError.location.description == "fixtures/x/greet.yaml:4:48")
        #expect(fixtureError.hint == "did you mean 'night'?")
        #expect(diagnostics.contains { $0.message == "an empty layer id names no layer" && $0.location.description == "evals/y.yaml:4:40" })
        #expect(!diagnostics.contains { $0.message.contains("'replies'") })
        #expect(diagnostics.count == 3, "\(diagnostics.map(\.description))")
    }

    /// Settings and limits that no run could honour fail lint at their field: repeats 0 and a
    /// negative concurrency were read as 1, and a negative or fractional count, a leak of 0
    /// words or a negative latency made a check that could never pass, or passed silently.
    @Test func limitsThatCannotHoldAreErrorsAtTheirField() {
        let suite = """
            suite: {id: x}
            fixtures: [fixtures/x/*.yaml]
            repeats: 0
            concurrency: -3
            checks:
              - {check: sentences, max: -1}
              - {check: words, max: 2.5}
              - {check: leaked-prompt, words: 0}
              - {check: latency, max: -1}
              - {check: tokens, max: -5}
              - {check: cost, max: -0.5}
            """
        let found = Self.lint(suite).filter { $0.severity == .error }.map { "\($0.location.line):\($0.location.column) \($0.message)" }
        #expect(found == [
            "3:10 'repeats' in suite file must be at least 1, found 0",
            "4:14 'concurrency' in suite file must be at least 1, found -3",
            "6:29 max -1 is below zero: a count is never negative",
            "7:25 max 2.5 is not a whole number",
            "8:35 words 0 is below 1: every reply would count as a leak",
            "9:27 max -1 is below zero, so no reply could pass",
            "10:26 max -5 is below zero, so no reply could pass",
            "11:24 max -0.5 is below zero, so no reply could pass",
        ], "\(found)")
        let empty = Self.lint("suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\nchecks:\n  - {check: not-contains, phrases: [fine, '']}\n  - {check: starts-with, text: ' '}\n")
        #expect(empty.map { "\($0.location.line):\($0.location.column) \($0.message)" } == [
            "4:44 an empty phrase is in every reply, so it tells nothing",
            "5:33 an empty text begins and ends every reply, so it tells nothing",
        ], "\(empty)")
        let twice = Self.lint("suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\nproviders: [mock, claude, mock]\n")
        #expect(twice.map { "\($0.location.line):\($0.location.column) \($0.message)" } == ["3:27 provider 'mock' is named more than once"], "\(twice)")
        let sound = "suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\nrepeats: 3\nconcurrency: 2\nchecks:\n  - {check: sentences, min: 0, max: 3}\n"
        #expect(Self.lint(sound).isEmpty, "\(Self.lint(sound))")
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
