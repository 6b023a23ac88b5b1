import CoachLab
import CoachLabProviders
import Foundation

/// What the runner needs to know about a fixture before its cases run, and the parsed
/// fixture itself when the catalog kept it (``SuiteCatalog/heldFixtureLimit``); otherwise it
/// is read from its file when a case needs it, so a run's memory stays bounded however many
/// fixtures a generated suite has. A reference is one pointer, whichever it holds. Equality
/// and hashing ignore whether it holds the fixture.
public struct FixtureReference: Sendable, Hashable {
    /// What is kept of a fixture that is not held.
    private struct Summary: Sendable {
        var id, file, pack: String
        var tags: [String]
        var judgeChecks: [Check]
        var inputs: CompileInputs
        var inputLocations: [String: SourceLocation]
        var location: SourceLocation
    }

    private enum Source: Sendable {
        case held(Fixture)
        case summary(Summary)
    }

    /// The fixture, and the three facts the runner asks of every fixture before its cases
    /// run, found once: a held fixture would otherwise be copied out for each question.
    private final class Storage: Sendable {
        let source: Source
        let usesJudge, usesScript, hasSimulatedUser: Bool

        init(_ source: Source, of fixture: Fixture) {
            self.source = source
            usesJudge = fixture.turns.contains { $0.expect.contains(where: \.callsModel) }
            usesScript = fixture.turns.contains { $0.expect.contains(where: \.isScript) }
            hasSimulatedUser = fixture.simulatedUser != nil
        }
    }

    private let storage: Storage

    /// A reference to `fixture`, keeping it in memory when `holding`.
    public init(_ fixture: Fixture, holding: Bool = false) {
        storage = Storage(holding ? .held(fixture) : .summary(Summary(
            id: fixture.id, file: fixture.file, pack: fixture.pack, tags: fixture.tags, judgeChecks: Self.judgeChecks(of: fixture),
            inputs: fixture.inputs, inputLocations: fixture.inputLocations, location: fixture.location)), of: fixture)
    }

    /// The parsed fixture, when kept in memory.
    public var held: Fixture? {
        if case .held(let fixture) = storage.source { return fixture }
        return nil
    }

    private func field<T>(_ held: (Fixture) -> T, _ summary: (Summary) -> T) -> T {
        switch storage.source {
        case .held(let fixture): held(fixture)
        case .summary(let kept): summary(kept)
        }
    }

    public var id: String { field(\.id, \.id) }
    public var file: String { field(\.file, \.file) }
    public var pack: String { field(\.pack, \.pack) }
    public var tags: [String] { field(\.tags, \.tags) }
    /// The judge checks of its turns (each needs its judge provider ready before cases run).
    public var judgeChecks: [Check] { field(Self.judgeChecks(of:), \.judgeChecks) }
    /// Whether a turn's checks include `judge`.
    public var usesJudge: Bool { storage.usesJudge }
    /// Whether a turn's checks include `script`, which runs a process.
    public var usesScript: Bool { storage.usesScript }
    /// Whether a simulated user speaks after the scripted turns.
    public var hasSimulatedUser: Bool { storage.hasSimulatedUser }
    /// What the fixture asks its pack for, and where it says so: checked before any case
    /// runs, without reading the file again.
    public var inputs: CompileInputs { field(\.inputs, \.inputs) }
    public var inputLocations: [String: SourceLocation] { field(\.inputLocations, \.inputLocations) }
    public var location: SourceLocation { field(\.location, \.location) }

    private static func judgeChecks(of fixture: Fixture) -> [Check] {
        fixture.turns.flatMap { $0.expect.filter(\.callsModel) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.id, lhs.file, lhs.pack, lhs.tags, lhs.hasSimulatedUser, lhs.location) == (rhs.id, rhs.file, rhs.pack, rhs.tags, rhs.hasSimulatedUser, rhs.location)
            && lhs.judgeChecks == rhs.judgeChecks && lhs.usesScript == rhs.usesScript && lhs.inputs == rhs.inputs && lhs.inputLocations == rhs.inputLocations
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(file)
        hasher.combine(location)
    }
}

/// A suite with its fixtures, ready to run.
public struct LoadedSuite: Sendable {
    public var suite: Suite
    /// The fixtures, in order; those held in memory carry their parsed fixture.
    public private(set) var fixtures: [FixtureReference]

    /// A suite whose fixtures are held in memory (for library users and tests).
    public init(suite: Suite, fixtures: [Fixture]) {
        self.suite = suite
        self.fixtures = fixtures.map { FixtureReference($0, holding: true) }
    }

    /// A suite whose fixtures are read from their files as their cases run (for large runs),
    /// followed by fixtures held in memory (a dataset's messages).
    public init(suite: Suite, references: [FixtureReference], held: [Fixture] = []) {
        self.suite = suite
        fixtures = held.isEmpty ? references : references + held.map { FixtureReference($0, holding: true) }
    }

    /// The fixtures held in memory, in order.
    public var heldFixtures: [Fixture] { fixtures.compactMap(\.held) }
}

/// One unit of work: a fixture on a provider, one repeat.
public struct EvalCase: Sendable, Hashable {
    public var suite: String
    public var fixture: String
    public var provider: String
    public var repeatIndex: Int
    public var id: String { "\(suite)/\(fixture)/\(provider)#\(repeatIndex)" }
}

/// Runs suites: every fixture on every provider, repeated, with bounded concurrency (overall
/// and per provider). Each result goes to `onResult` as soon as it completes, so a store can
/// keep it; cancellation stops the run and keeps what finished.
public struct EvalRunner: Sendable {
    /// Where providers come from.
    public var registry: ProviderRegistry
    /// Replaces each suite's providers when not empty.
    public var providerOverride: [String]
    /// For inline providers.
    public var baseURL: String?
    public var apiKeyVariable: String?
    /// Replaces each suite's repeats when set.
    public var repeats: Int?
    /// Overall cases running at once, replacing each suite's; each provider's own limit also
    /// applies, and cases that wait on nothing run at most two per core (``slots(_:for:cores:)``).
    public var concurrency: Int?
    /// Whether replies are streamed, which measures time to first token (compare streams).
    public var streaming = false
    /// Whether each reply goes through the ``ReplySanitizer`` before it is scored and kept in
    /// the history (as Kindred does); the removed lines are recorded on the turn.
    public var sanitize = false
    /// Loads packs.
    public var fileSystem: FileSystem
    /// Packs already loaded, by path; the others are loaded from `fileSystem`.
    public var packs: [String: Pack] = [:] {
        didSet { compilers = [:] }
    }
    /// Packs loaded, checked and ready to compile prompts, by path (``preparePacks(of:)``).
    private var compilers: [String: Compiler] = [:]
    /// Builds providers (tests inject transports here).
    public var makeProvider: @Sendable (ProviderConfiguration, ProviderRegistry) throws -> any ChatProvider

    public init(registry: ProviderRegistry, providerOverride: [String] = [], baseURL: String? = nil, apiKeyVariable: String? = nil,
                repeats: Int? = nil, concurrency: Int? = nil, fileSystem: FileSystem,
                makeProvider: @escaping @Sendable (ProviderConfiguration, ProviderRegistry) throws -> any ChatProvider = { try $1.provider($0) }) {
        self.registry = registry
        self.providerOverride = providerOverride
        self.baseURL = baseURL
        self.apiKeyVariable = apiKeyVariable
        self.repeats = repeats
        self.concurrency = concurrency
        self.fileSystem = fileSystem
        self.makeProvider = makeProvider
    }

    /// The cases a suite expands to, in a stable order, produced lazily.
    public func cases(of loaded: LoadedSuite) -> some Sequence<EvalCase> & Sendable {
        references(of: loaded).lazy.map(\.1)
    }

    /// The providers each of a suite's fixtures runs on: those the run names, else the
    /// suite's, else the mock.
    public func providers(of loaded: LoadedSuite) -> [String] {
        providerOverride.isEmpty ? (loaded.suite.providers.isEmpty ? ["mock"] : loaded.suite.providers) : providerOverride
    }

    /// How many cases a suite expands to, counted without making them.
    public func caseCount(of loaded: LoadedSuite) -> Int {
        loaded.fixtures.count * providers(of: loaded).count * repeats(of: loaded)
    }

    private func repeats(of loaded: LoadedSuite) -> Int { max(1, repeats ?? loaded.suite.repeats) }

    /// The cases of a suite, each with its fixture's reference.
    private func references(of loaded: LoadedSuite) -> some Sequence<(FixtureReference, EvalCase)> & Sendable {
        let providers = providers(of: loaded)
        let repeats = repeats(of: loaded)
        let suite = loaded.suite.id
        return loaded.fixtures.lazy.flatMap { fixture in
            providers.lazy.flatMap { provider in
                (1...repeats).lazy.map { (fixture, EvalCase(suite: suite, fixture: fixture.id, provider: provider, repeatIndex: $0)) }
            }
        }
    }

    /// Runs the cases of `suites` that `include` accepts (for resume and sharding).
    /// - Throws: ``CoachLabError`` (usage) for an unknown provider; ``ProviderError`` for a
    ///   provider that cannot be built; `CancellationError` when cancelled.
    public func run(_ suites: [LoadedSuite], include: @escaping @Sendable (EvalCase) -> Bool = { _ in true },
                    onResult: @escaping @Sendable (CaseResult) async throws -> Void) async throws {
        let work = try prepare(suites)
        let limit = Self.slots(max(1, concurrency ?? suites.map(\.suite.concurrency).max() ?? 8), for: work)
        let all = work.lazy.flatMap { job in references(of: job.loaded).lazy.filter { include($0.1) }.map { (job, $0.0, $0.1) } }
        // A case holds one of `limit` slots while it runs; its result then waits for
        // `onResult` (a store's commit) without one, so the cases behind it keep the cores
        // busy meanwhile. At most `pendingResultLimit` results wait at once.
        enum Step: Sendable { case finished(CaseResult), handed }
        try await withThrowingTaskGroup(of: Step.self) { group in
            // The iterator lives in this scope and is advanced inline: a nested function
            // capturing it would advance a copy.
            var pending = all.makeIterator()
            var (running, handing) = (0, 0)
            while true {
                while running < limit, handing < Self.pendingResultLimit, let (job, reference, evalCase) = pending.next() {
                    group.addTask { .finished(await runCase(evalCase, reference: reference, job: job)) }
                    running += 1
                }
                guard running + handing > 0, let step = try await group.next() else { break }
                switch step {
                case .finished(let result):
                    running -= 1
                    handing += 1
                    group.addTask {
                        try Task.checkCancellation()
                        try await onResult(result)
                        return .handed
                    }
                case .handed:
                    handing -= 1
                }
            }
        }
    }

    /// The most finished cases whose results wait for `onResult` at once; the runner starts
    /// no case while that many wait.
    public static let pendingResultLimit = 256

    /// The slots cases run in: `limit`, or, when a case waits on nothing (every provider the
    /// jobs use only computes, ``ChatProvider/isComputeBound``, and no check runs a script),
    /// no more than two per core, since more would only hold memory. Two per core keep a
    /// core busy while a case passes between threads.
    static func slots(_ limit: Int, for jobs: [Job], cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        let computeBound = jobs.allSatisfy { job in
            let slots = Array(job.providers.values) + Array(job.judges.values) + (job.simulator.map { [$0] } ?? [])
            return slots.allSatisfy(\.provider.isComputeBound) && !job.suite.checks.contains(where: \.isScript)
                && !job.loaded.fixtures.contains(where: \.usesScript)
        }
        return computeBound ? min(limit, 2 * max(1, cores)) : limit
    }

    struct Job: Sendable {
        var loaded: LoadedSuite
        var suite: Suite { loaded.suite }
        var compilers: [String: Compiler]
        /// One prompt cache per pack compiler, shared by the run's cases.
        var prompts: [String: PromptCache]
        var providers: [String: ProviderSlot]
        /// Judge providers by name: each judge check's own `provider:`, else the suite's `judge:`.
        var judges: [String: ProviderSlot]
        /// Who plays the simulated users: the suite's `simulator:`, else the mock's script.
        var simulator: ProviderSlot?
    }

    struct ProviderSlot: Sendable {
        var provider: any ChatProvider
        var configuration: ProviderConfiguration
        var semaphore: AsyncSemaphore
    }

    /// Loads and checks every pack the suites use that is not prepared yet, on every core.
    /// ``run(_:include:onResult:)`` prepares the packs it still lacks; a plan prepares them
    /// first, so that a broken pack fails before a run is opened, and while the store opens.
    /// Only errors stop a run, so the checks that can only warn are left to lint.
    /// - Throws: The ``CoachLabError`` of the first broken pack, in order of first use.
    public mutating func preparePacks(of suites: [LoadedSuite]) throws {
        var seen = Set(compilers.keys)
        let missing = suites.flatMap { $0.fixtures.lazy.map(\.pack).filter { seen.insert($0).inserted } }
        let (preloaded, fileSystem) = (packs, fileSystem)
        let built = missing.concurrentMap { path in
            Result { try preloaded[path].map { try Compiler(pack: $0) } ?? PackLoader(fileSystem: fileSystem).compiler(for: path, warnings: false) }
        }
        for (path, compiler) in zip(missing, built) { compilers[path] = try compiler.get() }
    }

    /// Builds every provider the suites' cases would call (their providers, judges and
    /// simulated users' players) and drops them: one that cannot be built, for an unknown id or
    /// a missing key, fails here. A plan calls this before it opens a run, so such a mistake
    /// leaves no empty run behind.
    /// - Throws: ``CoachLabError`` (usage) for an unknown provider; ``ProviderError`` for one
    ///   that cannot be built.
    public func checkProviders(of suites: [LoadedSuite]) throws {
        let names = suites.map(callees(of:)).flatMap { $0.coach + $0.judges + ($0.simulator.map { [$0] } ?? []) }
        for name in Set(names).sorted() {
            _ = try makeProvider(try registry.configuration(for: name, baseURL: baseURL, apiKeyVariable: apiKeyVariable), registry)
        }
    }

    /// The providers a suite's cases call: every case runs on each coach provider (none when the
    /// suite has no fixture); a judge check names its own provider, else the suite's judge, else
    /// the mock (lint refuses judge checks with neither; library users get the mock); simulated
    /// users are played by the suite's simulator, else the mock's script.
    private func callees(of loaded: LoadedSuite) -> (coach: [String], judges: [String], simulator: String?) {
        let judgeChecks = loaded.suite.checks.filter(\.callsModel) + loaded.fixtures.lazy.filter(\.usesJudge).flatMap(\.judgeChecks)
        var judges: [String] = []
        for name in judgeChecks.map({ Self.judgeName(of: $0, suite: loaded.suite) }) where !judges.contains(name) { judges.append(name) }
        return (loaded.fixtures.isEmpty ? [] : providers(of: loaded), judges,
                loaded.fixtures.contains(where: \.hasSimulatedUser) ? loaded.suite.simulator ?? "mock" : nil)
    }

    private func prepare(_ suites: [LoadedSuite]) throws -> [Job] {
        var runner = self
        try runner.preparePacks(of: suites)
        let compilers = runner.compilers
        let prompts = compilers.mapValues { _ in PromptCache() }
        var slots: [String: ProviderSlot] = [:]
        func slot(_ name: String) throws -> ProviderSlot {
            if let existing = slots[name] { return existing }
            let configuration = try registry.configuration(for: name, baseURL: baseURL, apiKeyVariable: apiKeyVariable)
            let provider = try makeProvider(configuration, registry)
            // A batch provider's requests wait together for their batch: none is held back.
            let slot = ProviderSlot(provider: provider, configuration: configuration,
                                    semaphore: AsyncSemaphore(provider.isBatched ? 1 << 20 : configuration.concurrency))
            slots[name] = slot
            return slot
        }
        var problems: [Diagnostic] = []
        // Inputs already resolved cleanly, by pack: a generated suite's thousands of fixtures
        // share a few dozen.
        var resolved: [String: Set<CompileInputs>] = [:]
        let jobs = try suites.map { loaded in
            // A fixture naming a profile, coach or file that does not exist is the author's
            // mistake, not the provider's: report it at its field before any case runs.
            for reference in loaded.fixtures where resolved[reference.pack]?.contains(reference.inputs) != true {
                guard let pack = compilers[reference.pack]?.pack else { continue }
                let found = EvalLinter.inputProblems(of: reference.inputs, locations: reference.inputLocations,
                                                     fallback: reference.location, pack: pack, fileSystem: fileSystem)
                if found.isEmpty { resolved[reference.pack, default: []].insert(reference.inputs) }
                problems += found
            }
            problems += EvalLinter.quotableProblems(loaded.suite.checks) {
                Set(loaded.fixtures.map(\.pack)).sorted().compactMap { compilers[$0]?.pack }
            }
            let callees = callees(of: loaded)
            var providers: [String: ProviderSlot] = [:]
            for name in callees.coach { providers[name] = try slot(name) }
            var judges: [String: ProviderSlot] = [:]
            for name in callees.judges { judges[name] = try slot(name) }
            let simulator = try callees.simulator.map(slot)
            return Job(loaded: loaded, compilers: compilers, prompts: prompts, providers: providers, judges: judges, simulator: simulator)
        }
        guard problems.isEmpty else { throw CoachLabError(.content, Array(Set(problems)).sorted()) }
        return jobs
    }

    /// Runs one case; provider failures become an `error` outcome, never a thrown error.
    func runCase(_ evalCase: EvalCase, reference: FixtureReference, job: Job) async -> CaseResult {
        // Held in memory, or read again from its file.
        guard let fixture = reference.held ?? EvalLoader(fileSystem: fileSystem).fixture(at: reference.file).0,
              let compiler = job.compilers[fixture.pack], let slot = job.providers[evalCase.provider] else {
            return CaseResult(suite: evalCase.suite, fixture: evalCase.fixture, provider: evalCase.provider, model: "",
                              repeatIndex: evalCase.repeatIndex, outcome: .error, score: 0, turns: [],
                              error: "the case's fixture could not be read again, or its pack or provider is missing", tags: [])
        }
        var result = CaseResult(suite: evalCase.suite, fixture: fixture.id, provider: evalCase.provider, model: slot.provider.model,
                                repeatIndex: evalCase.repeatIndex, outcome: .pass, score: 1, turns: [], error: nil, tags: fixture.tags,
                                pack: fixture.pack)
        do {
            var compiler = compiler
            var inputs = fixture.inputs
            if let generate = fixture.generate {
                let repeated = max(1, repeats ?? job.suite.repeats) > 1
                let step = try await Self.uncached(repeated) {
                    try await structuredStep(generate, fixture: fixture, compiler: compiler, slot: slot)
                }
                result.turns.append(step.turn)
                if let model = step.model { result.model = model }
                guard let next = step.compiler, !generate.kind.readsTranscript else { return Self.scored(result) }
                compiler = next
                inputs.coach = step.coach ?? inputs.coach
            }
            let resolved = try ResolvedInputs(inputs, pack: compiler.pack, fileSystem: fileSystem)
            let persona = resolved.coach?.value.located("name")?.value ?? compiler.pack.persona?.located("name")?.value
            // A generated or imported coach has a compiler of its own; only the pack's share a cache.
            let cache = fixture.generate == nil ? job.prompts[fixture.pack].map { ($0, inputs) } : nil
            var conversation = Conversation(compiler: compiler, inputs: resolved, sanitize: sanitize, cache: cache,
                                            rotates: !slot.provider.isApp)
            let scored = job.suite.mode == .final ? [fixture.turns.count - 1] : Array(fixture.turns.indices)
            let streaming = self.streaming
            // A repeated case is a fresh sample every time: its coach calls never read the
            // response cache (the judge's may).
            let repeated = max(1, repeats ?? job.suite.repeats) > 1
            let send: Conversation.Send = { request in
                try await slot.semaphore.run {
                    try await Self.uncached(repeated) { try await slot.provider.reply(to: request, streaming: streaming) }
                }
            }
            let summarise: Conversation.Summarise = { history, rotation in
                try await slot.semaphore.run {
                    try await Self.uncached(repeated) {
                        try await Conversation.summary(of: history, rotation: rotation, provider: slot.provider,
                                                       sendsSchema: slot.configuration.sendsResponseSchema)
                    }
                }
            }
            /// Judge checks whose scope is a turn or the conversation, graded at the end.
            var deferred: [Check] = []
            /// Scores one coach reply with the suite's checks and the turn's own.
            func score(_ exchange: Conversation.Turn, turn number: Int, user: String, expect: [Check], simulated: Bool) async throws {
                let (prompt, system, reply, text) = (exchange.prompt, exchange.system, exchange.reply, exchange.text)
                result.model = reply.model
                if !result.prompts.contains(where: { $0.hash == prompt.hash }) { result.prompts.append(prompt) }
                let cost = slot.configuration.prices.map { $0.cost(reply.usage, batched: reply.batched) }
                let subject = CheckSubject(reply: text, system: system, layers: prompt.layers, screening: prompt.screening,
                                           personaName: persona, latency: reply.latency, outputTokens: reply.usage.outputTokens, cost: cost,
                                           finishReason: reply.finishReason.rawValue,
                                           userMessages: conversation.userMessages, contract: compiler.pack.reply)
                var checks: [CheckResult] = []
                for check in job.suite.checks + expect {
                    if let rubric = check.kind.as(CheckKinds.Judge.self)?.rubric, let judge = job.judges[Self.judgeName(of: check, suite: job.suite)] {
                        guard rubric.scope == .reply else {
                            // A turn or the whole conversation is graded once, when it is over.
                            if !deferred.contains(where: { $0.id == check.id }) { deferred.append(check) }
                            continue
                        }
                        checks += try await Judge.grade(check, rubric: rubric, history: Array(conversation.history.dropLast()), reply: text,
                                                        slot: judge)
                    } else if let similar = check.kind.as(CheckKinds.Similar.self), let name = similar.embeddingProvider,
                              let embedder = job.judges[name] {
                        checks.append(try await Self.similarByEmbedding(check, similar, reply: text, slot: embedder))
                    } else if check.isScript {
                        let transcript = conversation.history.map { ScriptCheck.Input.Message(role: $0.role.rawValue, text: $0.content) }
                        let input = ScriptCheck.Input(check: check.id, suite: evalCase.suite, fixture: fixture.id, provider: evalCase.provider,
                                                      turn: number, user: user, reply: text, transcript: transcript, system: system,
                                                      inputs: ScriptCheck.Input.inputs(inputs, pack: fixture.pack))
                        checks.append(await ScriptCheck.evaluate(check, input: input, on: fileSystem, environment: registry.system.variables))
                    } else {
                        checks.append(CheckEvaluator.evaluate(check, subject))
                    }
                }
                var turn = TurnResult(turn: number, user: user, reply: text, checks: checks,
                                      flag: prompt.screening?.decision, latency: reply.latency,
                                      timeToFirstToken: reply.timeToFirstToken, inputTokens: reply.usage.inputTokens,
                                      outputTokens: reply.usage.outputTokens, usageEstimated: reply.usage.estimated,
                                      cost: cost, finishReason: reply.finishReason.rawValue, promptHash: prompt.hash)
                turn.sanitized = exchange.removed
                turn.screening = prompt.screening?.isFlagged == true ? prompt.screening : nil
                turn.cached = reply.cached
                turn.simulated = simulated
                result.turns.append(turn)
            }
            for (index, turn) in fixture.turns.enumerated() {
                guard scored.contains(index) || turn.reply == nil else {
                    conversation.record(user: turn.user, reply: turn.reply ?? "")
                    continue
                }
                let exchange = try await conversation.send(turn.user, scriptedReply: turn.mock, using: send, summarise: summarise)
                guard scored.contains(index) else { continue }
                try await score(exchange, turn: index + 1, user: turn.user, expect: turn.expect, simulated: false)
            }
            if let user = fixture.simulatedUser {
                // Every coach reply to a simulated user is scored, as in rollout.
                guard let simulator = job.simulator else { throw CoachLabError(usage: "the suite has no simulator for '\(fixture.id)'") }
                var ended: String?
                for step in 0..<user.maxTurns {
                    let (message, goalReached) = try await SimulatedUserPlayer.next(user, step: step, history: conversation.history,
                                                                                    slot: simulator, bypassCache: repeated)
                    let exchange = try await conversation.send(message, using: send, summarise: summarise)
                    try await score(exchange, turn: fixture.turns.count + step + 1, user: message, expect: [], simulated: true)
                    if let reason = user.stop(after: exchange.text, message: message, goalReached: goalReached) {
                        ended = "\(reason) after \(step + 1) coach repl\(step == 0 ? "y" : "ies")"
                        break
                    }
                }
                let verdict = CheckResult(check: "simulated-user", passed: ended != nil,
                                          reason: ended ?? "no stop fired within \(user.maxTurns) coach replies: the conversation never got where the fixture waits for")
                if result.turns.isEmpty { throw CoachLabError(usage: "the simulated user of '\(fixture.id)' spoke no turn") }
                result.turns[result.turns.count - 1].checks.append(verdict)
            }
            for check in deferred {
                guard let rubric = check.kind.as(CheckKinds.Judge.self)?.rubric, let judge = job.judges[Self.judgeName(of: check, suite: job.suite)],
                      !result.turns.isEmpty else { continue }
                let history = conversation.history
                var graded: String?
                var before = history
                if case .turn(let number) = rubric.scope {
                    let replies = history.indices.filter { history[$0].role == .assistant }
                    guard replies.count >= number else {
                        result.turns[result.turns.count - 1].checks.append(CheckResult(
                            check: check.id, passed: false, reason: "the rubric grades turn \(number), but the conversation had \(replies.count)",
                            weight: check.weight))
                        continue
                    }
                    graded = history[replies[number - 1]].content
                    before = Array(history[..<replies[number - 1]])
                }
                result.turns[result.turns.count - 1].checks += try await Judge.grade(check, rubric: rubric, history: before, reply: graded,
                                                                                    slot: judge)
            }
        } catch let error as ProviderError {
            result.outcome = .error
            result.error = error.description
            result.score = 0
            return result
        } catch {
            result.outcome = .error
            result.error = "\(error)"
            result.score = 0
            return result
        }
        return Self.scored(result)
    }

    /// `similar` by embedding: the cosine of the reply's and the gold reply's embeddings, asked
    /// of the check's provider under its concurrency limit (and from its response cache).
    static func similarByEmbedding(_ check: Check, _ similar: CheckKinds.Similar, reply: String, slot: ProviderSlot) async throws -> CheckResult {
        guard let embedder = slot.provider as? any EmbeddingProvider else {
            throw ProviderError(.configuration, provider: slot.configuration.id,
                                message: "\(slot.configuration.id) serves no embeddings, so similar by embedding cannot use it")
        }
        let vectors = try await slot.semaphore.run { try await embedder.embed([reply, similar.gold]) }
        return similar.result(cosine: cosineSimilarity(vectors[0], vectors[1]), as: check)
    }

    /// The provider that grades a judge check (its own, the suite's judge, or the mock), or
    /// serves a `similar` check's embeddings.
    static func judgeName(of check: Check, suite: Suite) -> String {
        if let provider = check.kind.as(CheckKinds.Judge.self)?.provider { return provider }
        if let provider = check.kind.as(CheckKinds.Similar.self)?.embeddingProvider { return provider }
        return suite.judge ?? "mock"
    }

    /// Runs `body` with response-cache reads off when `bypass` is set.
    static func uncached<T>(_ bypass: Bool, _ body: () async throws -> T) async throws -> T {
        bypass ? try await ResponseCache.withoutReads(body) : try await body()
    }

    /// The result with its score and outcome from its turns' checks.
    static func scored(_ result: CaseResult) -> CaseResult {
        var result = result
        let all = result.turns.flatMap(\.checks)
        let weight = all.reduce(0) { $0 + $1.weight }
        result.score = weight > 0 ? all.reduce(0) { $0 + $1.score * $1.weight } / weight : 1
        result.outcome = all.allSatisfy(\.passed) ? .pass : .fail
        return result
    }
}

extension ChatProvider {
    /// The whole reply, streamed (so time to first token is measured) or not.
    func reply(to request: ChatRequest, streaming: Bool) async throws -> ProviderReply {
        guard streaming else { return try await complete(request) }
        for try await event in stream(request) {
            if case .finished(let reply) = event { return reply }
        }
        throw ProviderError(.streamInterrupted, provider: id, message: "the stream ended without its final event")
    }
}

extension EvalRunner {
    /// What a fixture's structured generation produced.
    struct StructuredStep {
        /// The generation as a turn (numbered 0), with its checks.
        var turn: TurnResult
        /// The compiler for the conversation that follows, when it may go on.
        var compiler: Compiler?
        /// The coach the conversation is with (a generated or imported one).
        var coach: String?
        /// The model that answered.
        var model: String?
    }

    /// Runs a fixture's structured generation and scores it: `structured` (the reply is valid
    /// JSON within the schema and limits), `coach-lint` (a generated coach passes lint in its
    /// pack) and `round-trip` (an exported and imported coach compiles to the same bytes).
    func structuredStep(_ generate: Fixture.Generation, fixture: Fixture, compiler: Compiler, slot: ProviderSlot) async throws -> StructuredStep {
        let pack = compiler.pack
        let transcript = Transcript(fixture.turns.flatMap { turn in
            [Transcript.Message(isUser: true, text: turn.user)] + (turn.reply.map { [Transcript.Message(isUser: false, text: $0)] } ?? [])
        })
        let task: StructuredTask
        let label: String
        switch generate.kind {
        case .coach:
            task = .coach(describing: generate.describe ?? "", name: generate.name, limits: pack.defaults)
            label = "[generate coach] \(generate.describe ?? "")"
        case .insight, .quickReflection:
            task = .insight(transcript, quick: generate.kind == .quickReflection)
            label = "[generate \(generate.kind.rawValue) from \(transcript.messages.count) messages]"
        case .wrapup:
            task = .wrapup(transcript)
            label = "[generate wrapup from \(transcript.messages.count) messages]"
        case .exportImport:
            return try exportImportStep(fixture: fixture, compiler: compiler)
        }
        let generator = StructuredGenerator(provider: slot.provider, sendsSchema: slot.configuration.sendsResponseSchema,
                                            scriptedReply: generate.mock)
        let outcome = try await slot.semaphore.run { try await generator.generate(task) }
        let last = outcome.attempts.last?.reply
        let repairs = outcome.attempts.flatMap(\.parsed.repairs)
        var checks = [CheckResult(
            check: "structured", passed: outcome.isValid,
            reason: outcome.isValid
                ? "valid \(generate.kind.rawValue) on attempt \(outcome.attempts.count)" + (repairs.isEmpty ? "" : " (repaired: \(repairs.joined(separator: ", ")))")
                : "invalid after \(outcome.attempts.count) attempts: " + outcome.problems.joined(separator: "; "),
            weight: 1)]
        var next: Compiler?
        var coachID: String?
        if generate.kind == .coach, let value = outcome.value {
            let mapping = CoachDocuments.coach(fromGenerated: value)
            coachID = mapping["id"]?.string
            do {
                let path = "\(pack.directory)/coaches/\(coachID ?? "coach").yaml"
                if let existing = pack.coach(coachID ?? "") {
                    throw CoachLabError(usage: "the pack already has a coach '\(existing.id)'")
                }
                let placed = try CoachDocuments.place(mapping, comment: "generated", at: path, into: pack)
                next = try Compiler(pack: CoachDocuments.pack(pack, with: placed.coach))
                checks.append(CheckResult(check: "coach-lint", passed: true, reason: "coach '\(coachID ?? "")' passes lint on the rich path", weight: 1))
            } catch let error as CoachLabError {
                checks.append(CheckResult(check: "coach-lint", passed: false, reason: error.description, weight: 1))
            }
        } else if outcome.isValid {
            next = compiler
        }
        let usage = outcome.usage
        let turn = TurnResult(turn: 0, user: label, reply: last?.text ?? "", checks: checks, latency: outcome.latency,
                              inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, usageEstimated: usage.estimated,
                              cost: slot.configuration.prices.map { $0.cost(usage) }, finishReason: last?.finishReason.rawValue ?? "",
                              promptHash: "")
        return StructuredStep(turn: turn, compiler: next, coach: coachID, model: last?.model)
    }

    /// Exports the fixture's coach, imports it into the pack in its place, and checks the
    /// compiled prompt is byte for byte the same.
    func exportImportStep(fixture: Fixture, compiler: Compiler) throws -> StructuredStep {
        let pack = compiler.pack
        guard let id = fixture.inputs.coach, let coach = pack.coach(id) else {
            throw CoachLabError(usage: "export-import needs the fixture's coach")
        }
        let exported = CoachDocuments.export(coach, from: pack)
        var without = pack
        without.coaches.removeAll { $0.id == id }
        var checks: [CheckResult] = []
        var next: Compiler?
        do {
            let imported = try CoachDocuments.importCoach(Data(exported.utf8), file: "\(id).coach.json", into: without)
            let roundTripped = try Compiler(pack: CoachDocuments.pack(without, with: imported.coach))
            let before = compiler.compile(try ResolvedInputs(fixture.inputs, pack: pack, fileSystem: fileSystem)).system
            let after = roundTripped.compile(try ResolvedInputs(fixture.inputs, pack: roundTripped.pack, fileSystem: fileSystem)).system
            let same = Array(before.utf8) == Array(after.utf8)
            let firstDifference = zip(before.utf8, after.utf8).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(before.utf8.count, after.utf8.count)
            checks.append(CheckResult(check: "round-trip", passed: same,
                                      reason: same ? "the imported coach compiles to the same \(before.utf8.count) bytes"
                                                   : "the imported coach's prompt differs from byte \(firstDifference)", weight: 1))
            next = roundTripped
        } catch let error as CoachLabError {
            checks.append(CheckResult(check: "round-trip", passed: false, reason: "import refused the export: \(error.description)", weight: 1))
        }
        let turn = TurnResult(turn: 0, user: "[export and import coach \(id)]", reply: exported, checks: checks, latency: 0,
                              inputTokens: 0, outputTokens: 0, usageEstimated: false, cost: nil, finishReason: "", promptHash: "")
        return StructuredStep(turn: turn, compiler: next, coach: id, model: nil)
    }
}

/// Model-graded checks: the rubric's criteria scored on its scale, as JSON through the
/// structured-generation machinery (a schema where the provider takes one, one correction
/// round), one result per criterion with the judge's reason.
enum Judge {
    /// Grades `reply` (or, when it is nil, the whole `history`) against the rubric.
    /// - Throws: ``ProviderError`` from the judge, or `malformedResponse` when its answer is
    ///   still not valid after the correction round: the case is then an error, not a fail.
    static func grade(_ check: Check, rubric: Check.Rubric, history: [ChatMessage], reply: String?,
                      slot: EvalRunner.ProviderSlot) async throws -> [CheckResult] {
        let conversation = history.map { (isUser: $0.role == .user, text: $0.content) }
        let task = StructuredTask.judgement(rubric, conversation: conversation, graded: reply)
        let generator = StructuredGenerator(provider: slot.provider, sendsSchema: slot.configuration.sendsResponseSchema, temperature: 0,
                                            maxTokens: 1024)
        let outcome = try await slot.semaphore.run { try await generator.generate(task) }
        let criteria = StructuredTask.criteria(of: rubric)
        let single = criteria.count == 1
        guard let value = outcome.value else {
            // A rubric without criteria also takes a bare "PASS: reason" or "FAIL: reason".
            if rubric.criteria.isEmpty, rubric.scale == .passFail, let text = outcome.attempts.last?.reply.text, let (passed, reason) = parse(text) {
                return [check.result(passed, "judge (\(slot.configuration.id)): \(reason)")]
            }
            throw ProviderError(.malformedResponse, provider: slot.configuration.id,
                                message: "the judge's answer to check '\(check.id)' could not be parsed after \(outcome.attempts.count) attempts: "
                                    + outcome.problems.prefix(3).joined(separator: "; "))
        }
        let scores = Dictionary((value["criteria"]?.array ?? []).compactMap { entry -> (String, (Double, String))? in
            guard let name = entry["name"]?.string, case .number(let score)? = entry["score"] else { return nil }
            return (name, (score, entry["reason"]?.string ?? ""))
        }) { first, _ in first }
        return criteria.map { criterion in
            let (score, reason) = scores[criterion.name] ?? (rubric.scale.range.lowerBound, "not scored")
            let normalised = rubric.scale.normalised(score)
            let shown = rubric.scale == .passFail ? (score >= 1 ? "pass" : "fail") : String(format: "%g/%g", score, rubric.scale.range.upperBound)
            return CheckResult(check: single ? check.id : "\(check.id).\(criterion.name)", passed: normalised + 1e-9 >= rubric.threshold,
                               score: normalised, reason: "judge (\(slot.configuration.id)) \(shown): \(reason)",
                               weight: check.weight / Double(criteria.count))
        }
    }

    /// Parses `PASS: reason` or `FAIL: reason` (case, spacing and emphasis tolerated, and a
    /// label before it: "Verdict: FAIL", "Pass/Fail: PASS") from the first line that has one.
    /// The verdict is a whole word ("PASSED" and "FAILED" too), so "Passing" or "Pass/Fail:
    /// FAIL" is never a pass.
    static func parse(_ text: String) -> (passed: Bool, reason: String)? {
        let decoration = CharacterSet(charactersIn: "*`_#>").union(.whitespaces)
        for line in text.split(whereSeparator: \.isNewline) {
            var trimmed = line.trimmingCharacters(in: decoration)
            if let colon = trimmed.firstIndex(of: ":"),
               verdictLabels.contains(trimmed[..<colon].uppercased().filter { !$0.isWhitespace && $0 != "*" && $0 != "_" }) {
                trimmed = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: decoration)
            }
            let upper = trimmed.uppercased()
            for (verdict, passed) in [("PASSED", true), ("FAILED", false), ("PASS", true), ("FAIL", false)] where upper.hasPrefix(verdict) {
                let after = trimmed.dropFirst(verdict.count)
                guard after.first.map({ !$0.isLetter && !$0.isNumber && $0 != "/" }) ?? true else { continue }
                let rest = after.drop { $0 == ":" || $0 == " " || $0 == "-" || $0 == "|" || $0 == "." || $0 == "*" }
                return (passed, rest.isEmpty ? "the judge gave no reason" : String(rest))
            }
        }
        return nil
    }

    /// Labels a judge may put before its verdict, upper-cased and without spaces.
    private static let verdictLabels: Set<String> = ["VERDICT", "FINALVERDICT", "RESULT", "ANSWER", "DECISION", "GRADE", "JUDGEMENT",
                                                     "JUDGMENT", "PASS/FAIL", "OUTCOME"]
}
