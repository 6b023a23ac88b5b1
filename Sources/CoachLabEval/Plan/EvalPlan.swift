import CoachLab
import CoachLabProviders

/// An eval run, planned: the suites loaded and checked, the runner set up, the cases chosen
/// and the run opened in the store. What is left is to execute it (``RunExecution``).
public struct EvalPlan: Sendable {
    /// The run's id in the store (a new one, or the continued one).
    public var run: String
    public var suites: [LoadedSuite]
    public var runner: EvalRunner
    /// Which of the suites' cases run.
    public var include: @Sendable (EvalCase) -> Bool
    /// How many cases run.
    public var total: Int
    /// Cases of a continued run that are kept and do not run again.
    public var kept: Int
    /// The providers the cases use, sorted.
    public var providers: [String]
    /// The request, with what a continued run fills in (its suites, providers and settings).
    public var request: EvalRequest
    /// The registry with the run's settings applied.
    public var registry: ProviderRegistry
    /// What loading the suites warned about.
    public var warnings: [Diagnostic]

    /// Plans a run: reads the continued run (if any) from `store`, loads and checks the suites
    /// through `catalog`, sets up the runner, and opens the run in the store.
    /// - Parameter makeProvider: Builds each provider (a cassette transport, a response cache).
    /// - Throws: ``CoachLabError`` with every content problem of the suites (`.content`), or
    ///   for an unknown run (`.usage`); ``NothingToRetry`` for a retry of a run with no errors.
    public static func make(_ request: EvalRequest, registry: ProviderRegistry, store: ResultStore, catalog: SuiteCatalog,
                            makeProvider: @escaping @Sendable (ProviderConfiguration, ProviderRegistry) throws -> any ChatProvider)
        throws -> EvalPlan {
        var request = request
        var kept: Set<String> = []
        var retried: Set<String>?
        if let continuation = request.continuation {
            guard let previous = try store.run(continuation.run) else {
                throw CoachLabError(usage: "no run '\(continuation.run)' in \(store.path)", hint: "coachlab runs lists the stored runs")
            }
            if request.suites.isEmpty { request.suites = previous.suites }
            if request.providers.isEmpty { request.providers = previous.providers }
            request.repeats = request.repeats ?? previous.repeats
            request.baseURL = request.baseURL ?? previous.baseURL
            request.apiKeyVariable = request.apiKeyVariable ?? previous.apiKeyEnv
            request.settings = previous.settings.overridden(by: request.settings)
            kept = try store.finishedCases(run: continuation.run)
            if case .retryErrors(let run) = continuation {
                let errored = Set(try store.results(run: run, outcomes: [.error]).map(\.id))
                guard !errored.isEmpty else { throw NothingToRetry(run: run) }
                // Only those: cases the run never reached (it was filtered, sharded or
                // interrupted) are not errors, and --resume is the way to run them.
                kept.subtract(errored)
                retried = errored
            }
        }
        let (suites, warnings) = try load(request.suites, catalog: catalog)
        var registry = registry
        registry.overrides = request.settings
        var runner = EvalRunner(registry: registry, providerOverride: request.providers, baseURL: request.baseURL,
                                apiKeyVariable: request.apiKeyVariable, repeats: request.repeats, concurrency: request.concurrency,
                                fileSystem: catalog.fileSystem, makeProvider: makeProvider)
        runner.streaming = request.streaming
        runner.sanitize = request.sanitize
        // Before the run is opened: a broken pack leaves no empty run behind, and the packs
        // load while a store opened just before finishes its migrations.
        try runner.preparePacks(of: suites)
        // So is an unknown provider or a missing key.
        try runner.checkProviders(of: suites)
        let (skip, only, filter, shard) = (kept, retried, request.filter, request.shard)
        let include: @Sendable (EvalCase) -> Bool = { evalCase in
            (only.map { $0.contains(evalCase.id) } ?? !skip.contains(evalCase.id))
                && (filter.map { evalCase.id.contains($0) } ?? true) && (shard?.contains(evalCase.id) ?? true)
        }
        let providers = Set(suites.filter { !$0.fixtures.isEmpty }.flatMap(runner.providers(of:))).sorted()
        // A run that keeps, skips and filters nothing runs every case: count them without
        // making each one.
        let everything = kept.isEmpty && retried == nil && filter == nil && shard == nil
        let total = suites.reduce(0) { $0 + (everything ? runner.caseCount(of: $1) : runner.cases(of: $1).lazy.filter(include).count) }
        let run: String
        if let continued = request.continuation?.run {
            try store.reopenRun(continued)
            run = continued
        } else {
            run = try store.startRun(suites: request.suites.isEmpty ? suites.map(\.suite.file) : request.suites, providers: request.providers,
                                     repeats: request.repeats, prices: PriceSheet(registry: registry, ids: providers),
                                     baseURL: request.baseURL, apiKeyEnv: request.apiKeyVariable, settings: request.settings,
                                     planned: total)
        }
        return EvalPlan(run: run, suites: suites, runner: runner, include: include, total: total, kept: kept.count,
                        providers: providers, request: request, registry: registry, warnings: warnings)
    }

    /// The suites at `paths` (every suite in `evals/` when empty), with the warnings found on
    /// the way; any content error fails the whole load.
    public static func load(_ paths: [String], catalog: SuiteCatalog, heldFixtures: Int = SuiteCatalog.heldFixtureLimit)
        throws -> (suites: [LoadedSuite], warnings: [Diagnostic]) {
        let files = paths.isEmpty ? catalog.suiteFiles() : try catalog.suiteFiles(named: paths)
        guard !files.isEmpty else {
            throw CoachLabError(usage: "no suites in evals/", hint: "run from the project root, or name suite files")
        }
        let (loaded, diagnostics) = catalog.load(files, heldFixtures: heldFixtures)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { throw CoachLabError(.content, diagnostics) }
        return (loaded, diagnostics)
    }

    /// A retry of a run none of whose cases errored: there is nothing to do, which is not a failure.
    public struct NothingToRetry: Error, CustomStringConvertible {
        public var run: String
        public var description: String { "run \(run) has no errored cases; nothing to retry" }
    }

    /// The line that says what a continued run keeps, or nil for a new run.
    public var continuationSummary: String? {
        switch request.continuation {
        case .retryErrors(let run)?: "retrying run \(run): \(total) errored cases run again, \(kept) finished ones are kept"
        case .resume(let run)? where kept > 0: "resuming run \(run): \(kept) \(kept == 1 ? "case" : "cases") already finished, \(total) to go"
        default: nil
        }
    }
}
