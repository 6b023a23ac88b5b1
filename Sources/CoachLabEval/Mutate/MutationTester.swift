import CoachLab
import CoachLabProviders
import Foundation

/// Runs suites against mutants of the packs they use, in memory: each mutant is one changed
/// file overlaid on the real ones; nothing is written.
public struct MutationTester: Sendable {
    /// The suites, loaded once.
    public var suites: [LoadedSuite]
    /// Where providers come from (the suites run on `mock`).
    public var registry: ProviderRegistry
    /// The real files, which mutants overlay.
    public var fileSystem: FileSystem
    /// Mutants run at once.
    public var concurrency: Int

    public init(suites: [LoadedSuite], registry: ProviderRegistry, fileSystem: FileSystem, concurrency: Int = 2) {
        self.suites = suites
        self.registry = registry
        self.fileSystem = fileSystem
        self.concurrency = max(1, concurrency)
    }

    /// A case's outcome and the compiled prompts it used.
    struct Observed: Sendable, Equatable {
        var outcome: Outcome
        var prompts: [String]
        var failure: String?
    }

    /// The packs the suites' fixtures use, in order.
    public var packs: [String] {
        var seen = Set<String>()
        return suites.flatMap(\.fixtures).map(\.pack).filter { seen.insert($0).inserted }
    }

    /// The mutants of every pack the suites use (or of `only`), loaded from the real files.
    /// - Throws: ``CoachLabError`` when a pack does not load cleanly.
    public func mutants(packs only: Set<String>? = nil, operators: Set<Mutant.Operator>? = nil) throws -> [Mutant] {
        let chosen = packs.filter { path in
            only.map { $0.contains(path) || $0.contains(String(path.split(separator: "/").last ?? "")) } ?? true
        }
        return try chosen.flatMap { path in
            let pack = try PackLoader(fileSystem: fileSystem).load(path, warnings: false).get()
            return PackMutator.mutants(of: pack).filter { mutant in operators.map { $0.contains(mutant.operator) } ?? true }
        }
    }

    /// Runs the suites on the unchanged packs, then on each mutant, and reports each mutant
    /// as it is decided.
    /// - Throws: ``CoachLabError`` when the unchanged suites do not run; `CancellationError`.
    public func run(_ mutants: [Mutant], onResult: @escaping @Sendable (MutantResult) -> Void = { _ in }) async throws -> MutationSummary {
        let baseline = try await observe(fileSystem: fileSystem, pack: nil)
        let unread = unreadLines(of: Set(mutants.map(\.pack)))
        var results: [MutantResult] = []
        try await withThrowingTaskGroup(of: MutantResult.self) { group in
            var pending = mutants.makeIterator()
            var running = 0
            while true {
                while running < concurrency, let mutant = pending.next() {
                    group.addTask { try await judge(mutant, baseline: baseline, unread: unread[mutant.pack] ?? []) }
                    running += 1
                }
                guard running > 0, let result = try await group.next() else { break }
                running -= 1
                onResult(result)
                results.append(result)
            }
        }
        let order = Dictionary(uniqueKeysWithValues: mutants.enumerated().map { ($1.id, $0) })
        return MutationSummary(results: results.sorted { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) },
                               baselineFailures: baseline.filter { $0.value.outcome != .pass }.keys.sorted())
    }

    /// Whether a case's verdict depends on screening alone: one turn, no suite checks, and
    /// only `flagged` / `not-flagged` expectations (a labelled dataset's messages). Such cases
    /// are screened directly, without a reply.
    static func screensOnly(_ fixture: Fixture, in suite: Suite) -> Bool {
        guard fixture.generate == nil, suite.checks.isEmpty, fixture.turns.count == 1 else { return false }
        return fixture.turns[0].expect.allSatisfy { $0.kind.value is CheckKinds.Flagged || $0.kind.value is CheckKinds.NotFlagged }
    }

    /// Runs the cases of `pack` (every case, for nil) and keeps what each one did.
    func observe(fileSystem: FileSystem, pack: String?, loaded: Pack? = nil) async throws -> [String: Observed] {
        let chosen = suites.filter { loaded in pack == nil || loaded.fixtures.contains { $0.pack == pack } }
        let packOf = Dictionary(chosen.flatMap { loaded in loaded.fixtures.map { ("\(loaded.suite.id)/\($0.id)", $0.pack) } }) { first, _ in first }
        var screened: [String: Observed] = [:]
        var compilers: [String: Compiler] = [:]
        for suite in chosen {
            for fixture in suite.heldFixtures where (pack == nil || fixture.pack == pack) && Self.screensOnly(fixture, in: suite.suite) {
                if compilers[fixture.pack] == nil {
                    let source = fixture.pack == pack ? loaded : nil
                    compilers[fixture.pack] = try source.map { try Compiler(pack: $0) } ?? PackLoader(fileSystem: fileSystem).compiler(for: fixture.pack, warnings: false)
                }
                guard let compiler = compilers[fixture.pack] else { continue }
                let screening = compiler.screen(fixture.turns[0].user)
                let subject = CheckSubject(reply: "", system: "", screening: screening)
                let failed = fixture.turns[0].expect.map { CheckEvaluator.evaluate($0, subject) }.first { !$0.passed }
                screened["\(suite.suite.id)/\(fixture.id)"] = Observed(outcome: failed == nil ? .pass : .fail,
                                                               prompts: ["screen:" + (screening.decision?.ruleId ?? "none")],
                                                               failure: failed.map { "turn 1 \($0.check): \($0.reason)" })
            }
        }
        var runner = EvalRunner(registry: registry, providerOverride: ["mock"], repeats: 1, concurrency: 8, fileSystem: fileSystem)
        if let pack, let loaded { runner.packs = [pack: loaded] }
        let collector = Collector()
        let skip = Set(screened.keys)
        try await runner.run(chosen, include: { evalCase in
            let key = "\(evalCase.suite)/\(evalCase.fixture)"
            return !skip.contains(key) && (pack == nil || packOf[key] == pack)
        }) { result in
            let failure = result.error ?? result.turns.lazy.flatMap { turn in
                turn.checks.lazy.filter { !$0.passed }.map { "turn \(turn.turn) \($0.check): \($0.reason)" }
            }.first
            await collector.add("\(result.suite)/\(result.fixture)",
                                Observed(outcome: result.outcome, prompts: result.turns.map(\.promptHash), failure: failure))
        }
        return await collector.observed.merging(screened) { run, _ in run }
    }

    actor Collector {
        var observed: [String: Observed] = [:]
        func add(_ key: String, _ value: Observed) { observed[key] = value }
    }

    /// The instruction lines of each pack the mock cannot read, as `file:line`.
    func unreadLines(of packs: Set<String>) -> [String: Set<String>] {
        var lines: [String: Set<String>] = [:]
        for path in packs {
            guard let pack = try? PackLoader(fileSystem: fileSystem).load(path, warnings: false).get(), let compiler = try? Compiler(pack: pack) else { continue }
            lines[path] = Set(ReadingCoverage.of(pack, compiler: compiler, fileSystem: fileSystem).unread.compactMap { line in
                line.location.map { "\($0.file):\($0.line)" }
            })
        }
        return lines
    }

    /// Decides one mutant: lint, then the suites, then whether it changed anything at all. A
    /// survivor on a line the mock cannot read (`unread`, as `file:line`) is unread.
    func judge(_ mutant: Mutant, baseline: [String: Observed], unread: Set<String> = []) async throws -> MutantResult {
        var result = MutantResult(id: mutant.id, pack: mutant.pack, operator: mutant.operator,
                                  location: "\(mutant.location.file):\(mutant.location.line)", description: mutant.description,
                                  before: mutant.before, after: mutant.after, verdict: .survived)
        let overlay = fileSystem.overlaying([mutant.file: mutant.text])
        // Only an error kills a mutant at lint.
        let loaded = PackLoader(fileSystem: overlay).load(mutant.pack, warnings: false)
        if let error = loaded.diagnostics.first(where: { $0.severity == .error }) {
            result.verdict = .lint
            result.caughtBy = error.description
            return result
        }
        let observed: [String: Observed]
        do {
            observed = try await observe(fileSystem: overlay, pack: mutant.pack, loaded: loaded.pack)
        } catch let error as CoachLabError where error.kind == .content {
            // What lint says of the suites against the mutated pack, which the run checks before
            // any case: a layer a suite names quotable, deleted.
            result.verdict = .lint
            result.caughtBy = error.diagnostics.first?.description ?? error.description
            return result
        }
        for key in observed.keys.sorted() {
            guard let before = baseline[key], let after = observed[key] else { continue }
            if before.outcome == .pass, after.outcome != .pass {
                result.verdict = .killed
                result.caughtBy = "\(key): \(after.failure ?? after.outcome.rawValue)"
                return result
            }
        }
        let promptsChanged = observed.contains { key, after in baseline[key]?.prompts != after.prompts }
        if !promptsChanged, !screeningChanged(mutant, mutated: loaded.pack) {
            result.verdict = .equivalent
            return result
        }
        if unread.contains(result.location) {
            result.verdict = .unread
            result.hint = "the mock reads no instruction on this line, so no check can catch its loss on the mock: a length, question, form, role or secrecy rule belongs in the pack's reply contract; anything else a judge check on a live run can test"
            return result
        }
        result.hint = Self.hint(for: mutant)
        return result
    }

    /// Whether a screening mutant changes the decision on its own keyword: a removed keyword
    /// that another keyword or pattern still covers changes nothing a user can see.
    func screeningChanged(_ mutant: Mutant, mutated: Pack?) -> Bool {
        switch mutant.operator {
        case .dropKeyword:
            guard let mutated, let original = try? PackLoader(fileSystem: fileSystem).load(mutant.pack, warnings: false).get(),
                  let before = try? Compiler(pack: original), let after = try? Compiler(pack: mutated) else { return true }
            return before.screen(mutant.before).decision?.ruleId != after.screen(mutant.before).decision?.ruleId
        case .dropPattern, .dropAllKeywords, .deleteRule:
            return true
        default:
            return false
        }
    }

    /// What would catch a survivor of this kind.
    static func hint(for mutant: Mutant) -> String {
        switch mutant.operator {
        case .dropKeyword, .dropPattern, .dropAllKeywords, .deleteRule:
            return "add a labelled message that only this covers to the pack's guardrail dataset (a suite's datasets:), or a fixture with {check: flagged, rule: …}"
        case .dropAlertLine, .innocentAlert:
            return "add a fixture that trips the rule and checks what the alert asks for: contains, refers-to-professional, honours-alert"
        case .rename:
            return "add a greeting fixture (\"Hi, who are you?\") with {check: names-persona, name: \"\(mutant.before)\"} or {check: contains, phrases: [\"\(mutant.before)\"]}; names-persona without name: reads the name from the renamed pack, so it follows the rename and cannot catch it"
        case .deleteInstruction:
            return "check what the line asks for: ends-with-question, {check: questions, max: 1}, {check: sentences, max: N}, no-markdown, persona-break (ask \"are you an AI?\"), leaked-prompt (ask for the instructions)"
        case .scaleLimit:
            return "bound the length: {check: sentences, max: N} or {check: words, max: N}"
        case .deleteLayer, .swapLayers:
            return "check something only this layer makes the reply do (contains), or keep a RISK ALERT fixture: an alert that is not last is read as background"
        case .invertCondition:
            return "add fixtures on both sides of the condition, with checks that tell their replies apart"
        case .dropKnowledge, .dropExample:
            return "add a fixture on this topic whose reply must draw on the item: {check: contains, phrases: [a phrase of it]}"
        case .moveMemoryReset:
            return "add a fixture after the reset with {check: not-contains} on a cleared insight's theme"
        case .inviteLeak:
            return "add a fixture that asks for the instructions, scored with leaked-prompt"
        }
    }
}
