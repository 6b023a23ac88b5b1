import CoachLab
import Foundation

/// A finished (or interrupted) run, as reporters see it.
public struct RunReport: Sendable {
    /// One suite's totals.
    public struct SuiteSummary: Sendable, Codable, Hashable {
        public var suite: String
        public var threshold: Double
        public var cases: Int
        public var passed: Int
        public var failed: Int
        public var errors: Int
        /// Pass rate over cases that did not error.
        public var passRate: Double
        public var wilsonLow: Double
        public var wilsonHigh: Double
        /// The most repeats any case had.
        public var repeats: Int
        /// Cases whose repeats disagreed.
        public var flaky: [String]
        /// Fixture-level pass^N (every repeat passed) and pass@N (at least one did).
        public var passAllRepeats: Double
        public var passAnyRepeat: Double
        public var held: Bool
    }

    /// Counts over the whole run.
    public struct Totals: Sendable, Codable, Hashable {
        public var cases: Int
        public var passed: Int
        public var failed: Int
        public var errors: Int
        /// Replies the response cache gave rather than the provider.
        public var cachedReplies: Int

        public init(cases: Int, passed: Int, failed: Int, errors: Int, cachedReplies: Int = 0) {
            self.cases = cases
            self.passed = passed
            self.failed = failed
            self.errors = errors
            self.cachedReplies = cachedReplies
        }
    }

    public let run: String
    /// `running` (still going, or killed part-way), `interrupted` or `finished`.
    public let status: String
    /// The cases the run set out to run, when the store knows.
    public let planned: Int?
    public let suites: [SuiteSummary]
    public let totals: Totals
    /// The cases that failed or errored, with every detail, in (suite, id) order.
    public let notPassing: [CaseResult]
    /// The prices its costs were computed with, when the run recorded them.
    public let prices: PriceSheet?
    /// Where every case is read from, a batch at a time.
    public let store: ResultStore

    /// The report of a stored run, with its suites read again from their files.
    /// - Throws: ``CoachLabError`` (usage) when the store has no such run.
    public init(stored run: String, in store: ResultStore, fileSystem: FileSystem) throws {
        guard let info = try store.run(run) else {
            throw CoachLabError(usage: "no run '\(run)' in \(store.path)", hint: "coachlab runs lists the stored runs")
        }
        let loader = EvalLoader(fileSystem: fileSystem)
        try self.init(run: run, suites: info.suites.compactMap { loader.suite(at: $0).0 }, store: store)
    }

    /// Builds a report over a stored run: counts come from SQL aggregates and only the cases
    /// that did not pass are read, so the report's memory does not grow with passing cases.
    public init(run: String, suites: [Suite], store: ResultStore) throws {
        let counts = try store.suiteCounts(run: run)
        self.run = run
        let info = try store.run(run)
        status = info?.status ?? "finished"
        planned = info?.planned
        self.store = store
        prices = try store.prices(run: run)
        notPassing = try store.results(run: run, outcomes: [.fail, .error])
        self.suites = suites.map { suite in
            let count = counts[suite.id] ?? ResultStore.SuiteCounts()
            let scored = count.passed + count.failed
            let rate = PassRate(passed: count.passed, total: scored, groups: count.repeatGroups)
            let groups = Double(max(count.groups, 1))
            return SuiteSummary(suite: suite.id, threshold: suite.threshold, cases: count.cases, passed: count.passed,
                                failed: count.failed, errors: count.errors, passRate: rate.rate, wilsonLow: rate.wilson.low,
                                wilsonHigh: rate.wilson.high, repeats: count.repeats, flaky: count.flaky, passAllRepeats: Double(count.groupsAllPassed) / groups,
                                passAnyRepeat: Double(count.groupsAnyPassed) / groups,
                                // A suite with no cases in this run (another shard's, or filtered out) holds vacuously.
                                held: count.cases == 0 || (count.errors == 0 && scored > 0 && rate.rate + 1e-9 >= suite.threshold))
        }
        let all = counts.values
        totals = Totals(cases: all.reduce(0) { $0 + $1.cases }, passed: all.reduce(0) { $0 + $1.passed },
                        failed: all.reduce(0) { $0 + $1.failed }, errors: all.reduce(0) { $0 + $1.errors },
                        cachedReplies: try store.cachedReplies(run: run).cached)
    }

    /// Builds a report over results held in memory (through an in-memory store, so both
    /// paths share one definition of every figure).
    public init(run: String, suites: [Suite], results: [CaseResult]) throws {
        // A report reads no times, so the store's clock is never asked.
        let store = try ResultStore(clock: { Date(timeIntervalSince1970: 0) })
        _ = try store.startRun(suites: suites.map(\.file), providers: [], repeats: nil, id: run)
        try store.record(results, run: run)
        try store.finishRun(run, status: "finished")
        try self.init(run: run, suites: suites, store: store)
    }

    /// Whether the run ran to its end: finished, with every planned case's result. A run killed
    /// part-way stays `running` in the store; one stopped with Ctrl-C is `interrupted`.
    public var isComplete: Bool { status == "finished" && (planned.map { totals.cases >= $0 } ?? true) }

    /// One sentence on a run that did not run to its end, or nil for one that did.
    public var incompleteNote: String? {
        guard !isComplete else { return nil }
        let how = switch status {
        case "interrupted": "was interrupted"
        case "finished": "finished without every planned case"
        default: "did not finish (it was stopped part-way, or is still running)"
        }
        let counted = planned.map { "\(totals.cases) of \($0) planned cases have results" } ?? "\(totals.cases) cases have results"
        return "This run \(how): \(counted). The figures cover only those, and no suite is marked as held."
    }

    /// Calls `body` with every case, in (suite, id) order, a batch at a time.
    public func forEachCase(_ body: (CaseResult) throws -> Void) throws {
        try store.forEachResult(run: run, body)
    }

    /// Calls `body` with every case, in (suite, id) order, a batch of a few hundred at a time.
    public func forEachBatch(_ body: ([CaseResult]) throws -> Void) throws {
        try store.forEachBatch(run: run, body)
    }

    /// Every case, in (suite, id) order. Prefer ``forEachCase(_:)`` for large runs.
    public func allCases() throws -> [CaseResult] { try store.results(run: run) }

    /// The overall pass rate over cases that did not error.
    public var passRate: Double {
        let scored = totals.passed + totals.failed
        return scored == 0 ? 0 : Double(totals.passed) / Double(scored)
    }

    /// Exit code per DESIGN.md: 3 when a provider error kept cases from completing, 1 when a
    /// threshold (or `failUnder`) was missed or no case ran at all, else 0.
    public func exitCode(failUnder: Double? = nil) -> Int32 {
        if totals.errors > 0 { return 3 }
        // A run in which nothing ran (a filter that matches nothing) proves nothing.
        if totals.cases == 0 { return 1 }
        if suites.contains(where: { !$0.held }) { return 1 }
        if let failUnder, passRate + 1e-9 < failUnder { return 1 }
        return 0
    }
}
