import CoachLab
import CoachLabProviders
import Foundation

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
        for name in judgeChecks.compactMap({ CheckScoring.modelName(of: $0, suite: loaded.suite) }) where !judges.contains(name) { judges.append(name) }
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

    /// Runs one case in a ``CaseSession``.
    func runCase(_ evalCase: EvalCase, reference: FixtureReference, job: Job) async -> CaseResult {
        let settings = CaseSession.Settings(streaming: streaming, sanitize: sanitize, repeated: max(1, repeats ?? job.suite.repeats) > 1,
                                            fileSystem: fileSystem, environment: registry.system.variables)
        return await CaseSession.run(evalCase, reference: reference, job: job, settings: settings)
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
