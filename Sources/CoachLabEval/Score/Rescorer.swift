import CoachLab
import CoachLabProviders
import Foundation

/// Scores a stored run's replies again with the current suites' checks, calling no provider:
/// the way to see what an edited check says about replies already paid for.
///
/// Each stored turn is scored by the suite's checks and the fixture's `expect:` for that turn,
/// as written now, against the compiled prompt the reply answered (kept in the store by
/// hash). What cannot be re-derived without a provider is carried over and counted:
/// judge verdicts (a model graded them), structured-generation turns, and errored cases,
/// which have no reply.
public struct Rescorer {
    /// What a rescore did, for the line under the report.
    public struct Summary: Sendable, Hashable {
        /// Cases whose checks ran again.
        public var rescored = 0
        /// Errored cases, carried over as they were.
        public var errored = 0
        /// Cases whose suite or fixture no longer exists, carried over as they were.
        public var orphaned: [String] = []
        /// Judge verdicts carried over from the stored run.
        public var judgeCarried = 0
        /// Judge checks with no stored verdict (new since the run): left out, since grading
        /// them would call a provider.
        public var judgeUngraded = 0
        /// Cases whose outcome changed.
        public var changed: [String] = []
    }

    private let suites: [String: LoadedSuite]
    private let fileSystem: FileSystem
    private let prompt: (String) throws -> CompiledPrompt?
    /// Checks scored again; a model's verdicts are the stored ones.
    private let scoring: CheckScoring
    private var packs: [String: Pack] = [:]
    private var fixtures: [String: Fixture] = [:]
    public private(set) var summary = Summary()

    /// - Parameters:
    ///   - suites: The current suites.
    ///   - prompt: The stored compiled prompt with a hash.
    public init(suites: [LoadedSuite], fileSystem: FileSystem, prompt: @escaping (String) throws -> CompiledPrompt?) {
        self.suites = Dictionary(suites.map { ($0.suite.id, $0) }) { first, _ in first }
        self.fileSystem = fileSystem
        self.prompt = prompt
        scoring = CheckScoring(models: .stored, fileSystem: fileSystem, environment: ProcessInfo.processInfo.environment)
    }

    /// Results the runner writes itself rather than a check.
    static let runnerChecks: Set<String> = ["simulated-user"]

    /// The result with every reply scored again.
    public mutating func rescore(_ stored: CaseResult) async throws -> CaseResult {
        guard stored.outcome != .error else {
            summary.errored += 1
            return stored
        }
        guard let loaded = suites[stored.suite], let reference = loaded.fixtures.first(where: { $0.id == stored.fixture }),
              let fixture = try fixture(reference, in: loaded) else {
            summary.orphaned.append(stored.id)
            return stored
        }
        let pack = try pack(fixture.pack)
        let resolved = try? ResolvedInputs(fixture.inputs, pack: pack, fileSystem: fileSystem)
        let persona = resolved?.coach?.value.located("name")?.value ?? pack.persona?.located("name")?.value
        var result = stored
        var later: [Check] = []
        for (index, turn) in stored.turns.enumerated() where turn.turn > 0 {
            let compiled = try prompt(turn.promptHash)
            // What the user had said by this turn, as the run's checks saw it: the fixture's
            // scripted turns, then what a simulated user said (kept with each turn it spoke).
            let users = fixture.turns.prefix(turn.turn).map(\.user) + stored.turns.prefix(index + 1).filter(\.simulated).map(\.user)
            // The turn's own screening: the prompt's row holds that of whichever message first
            // compiled to it. A run stored before turns kept theirs has only the row's, which
            // holds at least the same deciding rule.
            let screening = turn.screening ?? (turn.flaggedRule == nil ? nil : compiled?.screening)
            let subject = CheckSubject(reply: turn.reply, system: compiled?.system ?? "", layers: compiled?.layers ?? [], screening: screening,
                                       personaName: persona, latency: turn.latency, outputTokens: turn.outputTokens, cost: turn.cost,
                                       finishReason: turn.finishReason, userMessages: users, contract: pack.reply)
            let expected = fixture.turns.indices.contains(turn.turn - 1) ? fixture.turns[turn.turn - 1].expect : []
            // The conversation up to this reply, as a script reads it.
            let history = stored.turns.prefix(index + 1).filter { $0.turn > 0 }.flatMap {
                [ChatMessage(.user, $0.user), ChatMessage(.assistant, $0.reply)]
            }
            let context = CalloutContext(subject: subject, reply: turn.reply, history: history, suite: stored.suite,
                                         fixture: stored.fixture, provider: stored.provider, turn: turn.turn, user: turn.user,
                                         inputs: ScriptCheck.Input.inputs(fixture.inputs, pack: fixture.pack), model: nil,
                                         fileSystem: fileSystem, environment: scoring.environment)
            let scored = try await scoring.score(reply: loaded.suite.checks + expected, in: context, stored: turn.checks)
            // The runner's own verdicts (a simulated conversation reaching its stop) are not any
            // check's to redo; the checks over the whole conversation follow them on the last turn.
            var checks = scored.results + turn.checks.filter { Self.runnerChecks.contains($0.check) }
            later += scored.later.filter { check in !later.contains { $0.id == check.id } }
            tally(scored)
            if index == stored.turns.count - 1, !later.isEmpty {
                var whole = context
                whole.reply = nil
                let conversation = try await scoring.score(conversation: later, in: whole, stored: turn.checks)
                checks += conversation.results
                tally(conversation)
            }
            result.turns[index].checks = checks
        }
        result = EvalRunner.scored(result)
        summary.rescored += 1
        if result.outcome != stored.outcome { summary.changed.append("\(stored.id): \(stored.outcome.rawValue) → \(result.outcome.rawValue)") }
        return result
    }

    private mutating func tally(_ scored: CheckScoring.Scored) {
        summary.judgeCarried += scored.carried
        summary.judgeUngraded += scored.ungraded
    }

    private mutating func pack(_ path: String) throws -> Pack {
        if let pack = packs[path] { return pack }
        let pack = try PackLoader(fileSystem: fileSystem).load(path).get()
        packs[path] = pack
        return pack
    }

    private mutating func fixture(_ reference: FixtureReference, in loaded: LoadedSuite) throws -> Fixture? {
        if let held = reference.held { return held }
        if let fixture = fixtures[reference.file] { return fixture }
        let fixture = EvalLoader(fileSystem: fileSystem).fixture(at: reference.file).0
        fixtures[reference.file] = fixture
        return fixture
    }
}

extension Rescorer {
    /// Scores every stored case of `run` again with `suites` into a new, finished run of the
    /// same store, reading each reply's compiled prompt from the store. `paths` are the suite
    /// files the new run records.
    /// - Returns: The new run's id and what rescoring did.
    public static func rescore(_ run: ResultStore.RunInfo, suites: [LoadedSuite], paths: [String], in store: ResultStore,
                               fileSystem: FileSystem) async throws -> (run: String, summary: Summary) {
        var rescorer = Rescorer(suites: suites, fileSystem: fileSystem) { try store.compiledPrompt($0) }
        let target = try store.startRun(suites: paths, providers: run.providers, repeats: run.repeats, prices: run.prices,
                                        baseURL: run.baseURL, apiKeyEnv: run.apiKeyEnv, settings: run.settings)
        var stored: [CaseResult] = []
        try store.forEachResult(run: run.id) { stored.append($0) }
        for result in stored { try store.record(try await rescorer.rescore(result), run: target) }
        try store.finishRun(target, status: "finished")
        return (target, rescorer.summary)
    }
}

extension Rescorer.Summary {
    /// What rescoring `run` into `target` did and did not do, then the first 20 cases whose
    /// verdict changed: the lines under the report.
    public func lines(run: String, target: String) -> [String] {
        var line = "rescored \(rescored) cases of run \(run) into run \(target) with no provider calls"
        if errored > 0 { line += "; \(errored) errored cases kept as they were (eval --retry-errors \(run) runs them)" }
        if judgeCarried > 0 { line += "; \(judgeCarried) judge verdicts carried over, not graded again" }
        if judgeUngraded > 0 { line += "; \(judgeUngraded) judge checks new since the run were left out (grading calls a model)" }
        if !orphaned.isEmpty { line += "; \(orphaned.count) cases whose fixture is gone were kept as they were" }
        var lines = [line] + changed.prefix(20).map { "  changed \($0)" }
        if changed.count > 20 { lines.append("  … and \(changed.count - 20) more; coachlab diff \(run) \(target) lists them") }
        return lines
    }
}
