import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation
import Testing

/// A check kind that asks a model, written here and nowhere else: the runner prepares the
/// provider it names, the case session hands it over, and a rescore carries its verdicts. No
/// line of the runner, the session or the rescorer knows this kind.
struct AskedTone: CallingCheck {
    /// The provider that reads the tone.
    var reader: String

    static let names = [CheckName("asked-tone", takes: "reader (a provider)", needsParameters: true)]
    static let fields = [FieldSpec("reader", .string, "the provider that reads the tone.")]

    static func read(_ reading: inout CheckReading) -> AskedTone? {
        guard let reader = reading.value.located("reader")?.value else { return reading.missing("a reader") }
        return AskedTone(reader: reader)
    }

    func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
        check.result(false, "asked-tone needs its reader")
    }

    var callout: CheckCallout { .model(provider: reader) }

    func score(as check: Check, in context: CalloutContext) async throws -> [CheckResult] {
        guard let model = context.model, let reply = context.reply else { return [evaluate(context.subject, as: check)] }
        let request = ChatRequest(system: "Answer WARM or COLD.", messages: [ChatMessage(.user, reply)])
        let answer = try await model.run { try await model.provider.complete(request) }
        return [check.result(answer.text.hasPrefix("WARM"), "\(model.configuration.id) read it as \(answer.text)")]
    }
}

@Suite struct CallingCheckTests {
    @Test func aModelBackedKindInOneFileIsGivenItsModelInTheRunAndCarriedInARescore() async throws {
        let fileSystem = EvalSupport.fileSystem(overriding: ["evals/toned.yaml": """
            suite: {id: toned}
            fixtures: [fixtures/luna/greeting.yaml]
            checks: [{check: not-contains, phrases: ["As an AI"]}]
            """])
        var (suites, diagnostics) = SuiteCatalog(fileSystem: fileSystem).load(["evals/toned.yaml"], heldFixtures: .max)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        try #require(suites.count == 1)
        suites[0].suite.checks.append(Check(id: "tone", kind: Check.Kind(AskedTone(reader: "tone-reader"))))
        let registry = ProviderRegistry(configurations: [
            ProviderConfiguration(id: "tone-reader", kind: .canned, model: "", replies: ["WARM"]),
        ], system: .tests)
        let report = try await EvalSupport.run(suites, runner: EvalRunner(registry: registry, fileSystem: fileSystem))
        let stored = try #require(try report.allCases().first)
        let tone = try #require(stored.turns.flatMap(\.checks).first { $0.check == "tone" })
        #expect(tone.passed && tone.reason == "tone-reader read it as WARM", "\(tone)")
        #expect(stored.outcome == .pass)

        // A rescore calls no model: the stored verdict is carried, in its place.
        var rescorer = Rescorer(suites: suites, fileSystem: fileSystem) { try report.store.compiledPrompt($0) }
        let rescored = try await rescorer.rescore(stored)
        #expect(rescored.turns.map(\.checks) == stored.turns.map(\.checks))
        #expect(rescorer.summary.judgeCarried == 1 && rescorer.summary.judgeUngraded == 0)
    }

    @Test func aKindWhoseProviderIsUnknownIsRefusedBeforeAnyCaseRuns() throws {
        let fileSystem = EvalSupport.fileSystem()
        var (suites, _) = SuiteCatalog(fileSystem: fileSystem).load(["evals/luna.yaml"], heldFixtures: .max)
        try #require(suites.count == 1)
        suites[0].suite.checks.append(Check(id: "tone", kind: Check.Kind(AskedTone(reader: "nowhere"))))
        let runner = EvalRunner(registry: ProviderRegistry(system: .tests), fileSystem: fileSystem)
        #expect(throws: CoachLabError.self) { try runner.checkProviders(of: suites) }
    }
}
