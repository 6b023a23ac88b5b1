import CoachLab
import Foundation
import Testing

/// The check registry: every kind is reachable by each of its names, reads what it wrote, is
/// documented, and can be written in YAML and scored.
@Suite struct CheckKindRegistryTests {
    /// A minimal YAML body for each name that needs parameters.
    static let examples: [String: String] = [
        "contains": "{check: contains, phrases: [calm], mode: all}", "not-contains": "{check: not-contains, phrases: [calm]}",
        "regex": "{check: regex, pattern: 'c.lm'}", "not-regex": "{check: not-regex, pattern: 'c.lm'}",
        "starts-with": "{check: starts-with, text: I}", "ends-with": "{check: ends-with, text: '?'}",
        "sentences": "{check: sentences, max: 3}", "words": "{check: words, min: 2}", "characters": "{check: characters, max: 400}",
        "questions": "{check: questions, max: 1}", "json-schema": "{check: json-schema, schema: {type: object}}",
        "latency": "{check: latency, max: 2}", "tokens": "{check: tokens, max: 200}", "cost": "{check: cost, max: 0.01}",
        "finish-reason": "{check: finish-reason, allowed: [stop]}", "prompt-contains": "{check: prompt-contains, phrases: [Rules]}",
        "prompt-not-contains": "{check: prompt-not-contains, phrases: [TODO]}", "prompt-order": "{check: prompt-order, phrases: [A, B]}",
        "judge": "{check: judge, rubric: Kind and brief.}", "similar": "{check: similar, to: I hear you., min: 0.5}",
        "script": "{check: script, script: scripts/score.sh}",
    ]

    static let names = CheckKinds.all.flatMap { $0.names }

    @Test func everyNameBelongsToOneKindAndTheParserKnowsIt() {
        let spelled = Self.names.map(\.name)
        #expect(Set(spelled).count == spelled.count)
        #expect(Set(CheckParser.kinds.keys) == Set(spelled))
        #expect(spelled.count == 31)  // the table the registry replaced, and follows-contract
    }

    @Test(arguments: names.map(\.name))
    func eachNameReadsAsItsOwnKindAndScores(_ name: String) throws {
        let entry = try #require(Self.names.first { $0.name == name })
        let example = Self.examples[name]
        #expect(entry.needsParameters == (example != nil), "an example is given exactly for the names that need one")
        let yaml = try YAMLDocument.parse("- " + (example ?? name) + "\n", file: "c.yaml")
        var diagnostics: [Diagnostic] = []
        let item = try #require(yaml.items?.first)
        let check = try #require(CheckParser.parse(item, into: &diagnostics), "\(diagnostics)")
        #expect(diagnostics.isEmpty)
        #expect(check.id == name)
        #expect(type(of: check.kind.value).names.contains(entry))
        let result = CheckEvaluator.evaluate(check, CheckSubject(reply: "I hear you. What feels calm?", system: "Rules A B"))
        #expect(result.check == name && !result.reason.isEmpty)
        if entry.needsParameters {
            var bare: [Diagnostic] = []
            #expect(CheckParser.parse(.scalar(.init(text: name, style: .plain, location: SourceLocation(file: "c.yaml", line: 1, column: 3))),
                                      into: &bare) == nil)
            #expect(bare.first?.message == "check '\(name)' needs \(entry.takes)")
        }
    }

    /// A field several kinds read is in the spec once, and says what each kind reads it for.
    @Test func sharedFieldsAreMergedWithEveryUse() throws {
        let fields = CheckParser.spec.fields.map(\.name)
        #expect(Set(fields).count == fields.count)
        let phrases = try #require(CheckParser.spec.fields.first { $0.name == "phrases" })
        #expect(phrases.summary.hasPrefix("For contains, not-contains, prompt-contains, prompt-not-contains and prompt-order:"))
        let max = try #require(CheckParser.spec.fields.first { $0.name == "max" })
        for use in ["latency", "tokens", "cost", "questions"] { #expect(max.summary.contains(use), "\(use)") }
        var diagnostics: [Diagnostic] = []
        let yaml = try YAMLDocument.parse("- {check: contains, phrase: [x]}\n", file: "c.yaml")
        let item = try #require(yaml.items?.first)
        #expect(CheckParser.parse(item, into: &diagnostics) == nil)
        #expect(diagnostics.first?.hint?.contains("phrases") == true, "\(diagnostics)")
    }

    /// docs/evals.md lists every check a suite can use.
    @Test func everyNameIsDocumented() throws {
        let docs = try String(contentsOfFile: EvalSupport.root + "/docs/evals.md", encoding: .utf8)
        for name in Self.names.map(\.name) where !docs.contains("`\(name)`") { Issue.record("docs/evals.md does not list `\(name)`") }
    }

    @Test func kindsCompareByValue() {
        #expect(Check.Kind.contains(["a"], all: false, caseSensitive: false) == .contains(["a"], all: false, caseSensitive: false))
        #expect(Check.Kind.contains(["a"], all: false, caseSensitive: false) != .contains(["a"], all: true, caseSensitive: false))
        #expect(Check.Kind.noMarkdown != .personaBreak)
        #expect(Set([Check.Kind.noMarkdown, .noMarkdown, .notFlagged]).count == 2)
    }
}
