import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation
import Synchronization

/// `coachlab eval`: the main job.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Replay fixtures against providers, score every reply, and report.",
        discussion: """
        With no suites, runs every suite in evals/ on the suites' providers (the mock by default). \
        Exit codes: 0 every threshold held; 1 a check failed below a threshold or --fail-under; \
        2 a usage or content error; 3 a provider error kept cases from completing; 130 interrupted \
        (Ctrl-C): finished cases are stored and reported, and --resume RUN continues the run. \
        A report file replaces only a report of its own kind; any other file at its path stops \
        the run before it starts (exit 2).

        Examples:
          coachlab eval
          coachlab eval evals/betterone.yaml --provider openai-gpt-4o-mini \\
            --junit junit.xml
          coachlab eval --repeat 5 --provider local-gemma --markdown summary.md
          coachlab eval --shard 2/4 --store shard-2.sqlite
            (then: coachlab merge shard-*.sqlite)
          coachlab eval --provider openai-gpt-4o-mini --record
            (then in CI, no key: --replay)
          coachlab eval --baseline evals/baseline.json --html report.html
          coachlab eval --provider local-gemma --max-tokens 64 --timeout 30
          coachlab eval --retry-errors 20261121-101500-abc
            (only the cases that errored, into the same run)
          coachlab eval --provider openai-gpt-4o-mini --batch
            (the batch API at half the price; after a stop: --resume RUN --batch)

        Live providers' answers are kept in a response cache (.coachlab/cache, fresh for 7 days), so \
        re-running an unchanged case costs nothing; --no-cache asks again. Repeated cases never read it.
        """
    )

    @Argument(help: "Suite files, or folders of them. Default: every evals/*.yaml.")
    var suites: [String] = []
    @OptionGroup var provider: ProviderOptions
    @Option(help: "Run each case N times (pass rate with a Wilson interval, pass^N, pass@N, flaky cases).")
    var `repeat`: Int?
    @Option(name: [.customShort("j"), .long], help: "Cases running at once (at most two per core when no provider, judge or script waits).")
    var concurrency: Int?
    @Option(help: "Only cases whose suite/fixture/provider id contains this text.")
    var filter: String?
    @Option(help: "Fail (exit 1) when the overall pass rate is below this, 0-1.")
    var failUnder: Double?
    @Option(help: "Write a JSON report (sorted keys) here.")
    var json: String?
    @Option(help: "Write JUnit XML here.")
    var junit: String?
    @Option(help: "Write a Markdown summary here (for a CI job summary).")
    var markdown: String?
    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?
    @Option(help: "Continue a run that was stopped: finished cases are kept, the rest run.")
    var resume: String?
    @Option(help: "Run again only the cases of a stored run that errored (a 429, a timeout), into the same run.")
    var retryErrors: String?
    @OptionGroup var cache: CacheOptions
    @Option(help: "Run only slice i of n (e.g. 2/4), assigned by a hash of each case id; coachlab merge combines the slices.")
    var shard: String?
    @Flag(help: "Send requests live and write each reply to a cassette (one JSON file per request, keys scrubbed).")
    var record = false
    @Flag(help: "Answer HTTP providers from cassettes, with no network; a request with no cassette is an error: stale, re-record.")
    var replay = false
    @Option(help: "The cassette folder for --record and --replay.")
    var cassettes = "fixtures/cassettes"
    @Option(help: "Compare with a committed baseline; exit 1 naming every case that passed there and does not now (with repeats, that passes less often beyond chance).")
    var baseline: String?
    @Option(help: "Write this run's baseline (which cases passed) to a JSON file to commit.")
    var writeBaseline: String?
    @Option(help: "Write a self-contained HTML report here (charts, filters, replies, compiled prompts).")
    var html: String?
    @Flag(help: "Stream replies, which measures time to first token.")
    var stream = false
    @Flag(help: "Strip leaked system-prompt lines from each reply before it is scored (Kindred's sanitiser); the effect is reported.")
    var sanitize = false
    @Flag(name: [.customShort("v"), .long], help: "Print each case as it finishes: its outcome, its last reply and its first failing check.")
    var verbose = false
    @Flag(help: "Send nothing: run every case on the embedded mock and print the requests, tokens and cost each provider would see (no key needed).")
    var dryRun = false
    @Option(help: "Stop cleanly before the run's cost (spent plus the cases in flight) would pass this many US dollars (exit 4); --resume goes on. Needs a price for every provider.")
    var maxCost: Double?
    @Flag(help: "Send OpenAI, Anthropic and Gemini requests through their batch APIs, at half the price; results come when each batch ends. A stopped run goes on with --resume RUN --batch, submitting nothing twice.")
    var batch = false
    @Option(help: "With --batch: seconds between the first polls of a batch (growing by half each time, to 5 minutes).")
    var batchPoll: Double = 10

    func validate() throws {
        if let failUnder, !(0...1).contains(failUnder) { throw ValidationError("--fail-under takes a rate from 0 to 1") }
        if let value = self.repeat, value < 1 { throw ValidationError("--repeat must be at least 1") }
        if let concurrency, concurrency < 1 { throw ValidationError("-j/--concurrency must be at least 1") }
        if let shard, Shard(shard) == nil { throw ValidationError("--shard takes i/n with 1 ≤ i ≤ n, e.g. 1/4; got '\(shard)'") }
        if record && replay { throw ValidationError("--record and --replay cannot be used together") }
        if resume != nil && retryErrors != nil { throw ValidationError("--resume and --retry-errors cannot be used together") }
        if let maxCost, !(maxCost > 0) { throw ValidationError("--max-cost takes an amount in US dollars above 0, e.g. 5 or 0.50") }
        if batch && (stream || record || replay || dryRun) {
            throw ValidationError("--batch answers whole replies from the provider's batch API: it takes no --stream, --record, --replay or --dry-run")
        }
        if !(batchPoll > 0) { throw ValidationError("--batch-poll takes seconds above 0") }
        if dryRun && (record || replay || resume != nil || retryErrors != nil || maxCost != nil) {
            throw ValidationError("--dry-run sends nothing and stores nothing: it takes no --record, --replay, --resume, --retry-errors or --max-cost")
        }
    }

    func run() async throws {
        if dryRun {
            let estimate = try await EvalEstimate.make(request, registry: provider.registry(), catalog: SuiteCatalog(fileSystem: .invocation))
            return Terminal.out(estimate.table, terminator: "")
        }
        try outputs.check(fileSystem: .invocation)
        let gate = try baseline.map { (path: $0, file: try Baseline.read($0, fileSystem: .invocation)) }
        let store = try ResultStore(path: Terminal.storePath(store), system: Invocation.current.system)
        let sources = self.sources
        guard let plan = try plan(store: store, sources: sources) else { return }
        let budget = try maxCost.map { try EvalTerminal.budget($0, for: plan) }
        let execution = try await EvalTerminal.execute(plan, store: store, cache: sources.cache, verbose: verbose, budget: budget)
        let report = try RunReport(run: plan.run, suites: plan.suites.map(\.suite), store: store)
        Terminal.out(Reporters.terminal(report, colour: Terminal.stdoutIsTerminal), terminator: "")
        if sanitize { Terminal.error(try SanitizerSummary(report).line) }
        try outputs.write(report)
        try EvalTerminal.finish(report, execution: execution, failUnder: failUnder, baseline: gate,
                                resumeHint: (shard.map { " --shard \($0)" } ?? "") + (maxCost.map { " --max-cost \($0)" } ?? ""), budget: budget)
    }

    /// The run planned, its providers built (through their batch APIs under `--batch`, with
    /// the journal opened); nil, once said, when `--retry-errors` finds nothing to retry. A
    /// plan that fails leaves no new store behind.
    private func plan(store: ResultStore, sources: (transport: (any HTTPTransport)?, cache: ResponseCache?)) throws -> EvalPlan? {
        let (transport, cache) = sources
        let journal = BatchJournal(redactor: .environment(Invocation.current.system.variables))
        let plan: EvalPlan
        do {
            let (poll, batched) = (batchPoll, batch)
            plan = try EvalPlan.make(request, registry: provider.registry(), store: store, catalog: SuiteCatalog(fileSystem: .invocation)) {
                let made = try $1.provider($0, transport: transport, cache: cache)
                guard batched else { return made }
                return try Self.batching(made, configuration: $0, journal: journal, poll: poll)
            }
        } catch let nothing as EvalPlan.NothingToRetry {
            Terminal.error("\(nothing)")
            return nil
        } catch {
            store.discardIfNew()
            throw error
        }
        if batch { journal.open(FileSystem.invocation.onDisk(Self.journalPath(store: store.path, run: plan.run))) }
        return plan
    }

    /// Where `--batch` keeps the batches a run submitted: beside the result store, one file a run.
    static func journalPath(store: String, run: String) -> String {
        let folder = (store as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "." : folder) + "/batches/\(run).jsonl"
    }

    /// A provider through its batch API, for `--batch`: the mock and canned providers answer
    /// at once and are left as they are; a kind with no batch API is a usage error.
    static func batching(_ provider: any ChatProvider, configuration: ProviderConfiguration, journal: BatchJournal, poll: Double) throws -> any ChatProvider {
        if [.mock, .canned].contains(configuration.kind) { return provider }
        guard let http = provider as? HTTPProvider, let api = BatchAPI(kind: configuration.kind) else {
            throw CoachLabError(usage: "--batch: \(configuration.id) is a \(configuration.kind.rawValue) provider, which has no batch API",
                                hint: "batch APIs are OpenAI's, Anthropic's and Gemini's (kind openai, anthropic or gemini)")
        }
        return BatchProvider(base: http, api: api, journal: journal, poll: poll) { Terminal.error($0) }
    }

    /// Where answers come from besides the providers: cassettes (recorded or replayed: exact,
    /// so no cache), else the response cache for live runs.
    var sources: (transport: (any HTTPTransport)?, cache: ResponseCache?) {
        let transport: (any HTTPTransport)? = record ? CassetteTransport.recording(to: cassettes, through: Invocation.current.transport, fileSystem: .invocation,
                                                                                     redactor: .environment(Invocation.current.system.variables))
            : replay ? CassetteTransport.replaying(from: cassettes, fileSystem: .invocation) : nil
        return (transport, transport == nil ? cache.cache() : nil)
    }

    /// The flags as a library request.
    var request: EvalRequest {
        // A batch gathers the cases that run at once: let every case in.
        var request = provider.request(suites: suites, repeats: self.repeat, concurrency: concurrency ?? (batch ? 100_000 : nil), filter: filter)
        request.shard = shard.flatMap(Shard.init)
        request.continuation = resume.map(EvalRequest.Continuation.resume) ?? retryErrors.map(EvalRequest.Continuation.retryErrors)
        request.streaming = stream
        request.sanitize = sanitize
        return request
    }

    var outputs: ReportFiles<RunReport> {
        ReportFiles(json: json, junit: junit, markdown: markdown, html: html, baseline: writeBaseline)
    }
}

/// What eval and compare print around a run: the live settings, a progress bar, the speed
/// and the cache's use; Ctrl-C (or SIGTERM) cancels the run cleanly.
enum EvalTerminal {
    /// `--max-cost`'s budget for a plan whose every provider has a price.
    static func budget(_ limit: Double, for plan: EvalPlan) throws -> RunBudget {
        let unpriced = PriceSheet(registry: plan.registry, ids: plan.providers).unpriced
        guard unpriced.isEmpty else {
            throw CoachLabError(usage: "--max-cost needs a price for every provider of the run; none for " + unpriced.joined(separator: ", "),
                                hint: "set prices: {input: …, output: …} (US dollars per million tokens) for it in providers.yaml")
        }
        return RunBudget(limit: limit)
    }

    static func execute(_ plan: EvalPlan, store: ResultStore, cache: ResponseCache?, verbose: Bool = false, budget: RunBudget? = nil) async throws -> RunExecution {
        Terminal.keepUntilExit(plan)
        for warning in plan.warnings { Terminal.error(warning.description) }
        for line in plan.registry.settingsLines(plan.providers, baseURL: plan.request.baseURL, apiKeyVariable: plan.request.apiKeyVariable) {
            Terminal.error(line)
        }
        if let summary = plan.continuationSummary { Terminal.error(summary) }
        let progress = Progress(total: plan.total, live: Terminal.stderrIsTerminal, verbose: verbose)
        // The budget stops the run as Ctrl-C would: the cases in flight are dropped, the rest stored.
        let running = Mutex<Task<RunExecution, any Error>?>(nil)
        let slots = plan.runner.concurrency ?? 8
        let work = Task {
            try await RunExecution.run(plan, store: store) { result in
                if let line = await progress.advance(result) { Terminal.error(line.text, terminator: line.terminator) }
                if let budget, budget.record(result, inFlight: min(slots, plan.total - (await progress.done))) {
                    running.withLock { $0?.cancel() }
                }
            }
        }
        running.withLock { $0 = work }
        let interrupts = Invocation.current.ownsProcess ? InterruptWatcher { work.cancel() } : nil
        defer { interrupts?.stop() }
        let execution = try await work.value
        await progress.finish()
        Terminal.error(execution.speed + "; run \(plan.run) is stored in \(store.path)")
        if let cache, let line = cache.statistics.line(directory: cache.directory) { Terminal.error(line) }
        for (id, limit) in plan.registry.limits.all.sorted(by: { $0.key < $1.key }) {
            if let summary = await limit.summary { Terminal.error("\(id): \(summary)") }
        }
        return execution
    }

    /// The exit: interrupted (130, with how to resume), stale cassettes named, then the
    /// thresholds, --fail-under and the baseline. The report's store is closed on the way out.
    static func finish(_ report: RunReport, execution: RunExecution, failUnder: Double?, baseline: (path: String, file: Baseline)?,
                       resumeHint: String, budget: RunBudget? = nil) throws {
        Terminal.keepUntilExit(report)
        defer {
            do { try report.store.close() } catch { Terminal.error("warning: the result store did not close cleanly: \(error)") }
        }
        if execution.interrupted, let budget, budget.stopped {
            Terminal.error(String(format: "stopped at the budget: $%.4f spent of --max-cost $%.4f; ", budget.spent, budget.limit)
                           + "\(execution.done) cases finished; continue with: coachlab eval --resume \(execution.run)" + resumeHint)
            throw ExitCode(Exit.budget)
        }
        if execution.interrupted {
            Terminal.error("interrupted: \(execution.done) cases finished; continue with: coachlab eval --resume \(execution.run)" + resumeHint)
            throw ExitCode(Exit.interrupted)
        }
        let stale = report.notPassing.filter { $0.error?.contains("stale: re-record") == true }
        if !stale.isEmpty {
            Terminal.error("\(stale.count) cases are stale (their requests changed since recording): re-record with coachlab eval --record")
        }
        var code = report.exitCode(failUnder: failUnder)
        if let baseline, try !BaselineGate.holds(baseline.file, named: baseline.path, report: report), code == 0 {
            code = Exit.failed
        }
        if code != 0 { throw ExitCode(code) }
    }
}

extension ReportFiles where Subject == RunReport {
    /// Writes the reports a run asked for (eval, merge, rescore), and says where the baseline went.
    func write(_ report: RunReport) throws {
        try write(report, fileSystem: .invocation)
        for (format, path) in requested where format.name == "baseline" {
            Terminal.error("baseline of run \(report.run) written to \(path)")
        }
    }
}

/// `--baseline`: names every case that passed in the committed baseline and does not now.
enum BaselineGate {
    /// Prints the verdict; false when there are regressions.
    static func holds(_ baseline: Baseline, named path: String, report: RunReport) throws -> Bool {
        let verdict = try baseline.verdict(on: report, named: path)
        for line in verdict.lines { Terminal.error(line) }
        return verdict.holds
    }
}

/// Turns SIGINT and SIGTERM into a call to `onInterrupt` while it is installed; a second
/// signal ends the process at once.
final class InterruptWatcher {
    private let sources: [any DispatchSourceSignal]

    init(onInterrupt: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "coachlab.interrupts")
        let count = Mutex(0)
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if count.withLock({ $0 += 1; return $0 }) > 1 { exit(Exit.interrupted) }
                Terminal.error("\nstopping: finished cases are kept (press Ctrl-C again to quit at once)")
                onInterrupt()
            }
            source.resume()
            return source
        }
    }

    func stop() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// How far a run is: on a terminal, one line kept up to date (a bar, the cases done out of the
/// total, those not passing and erroring, the rate and the time left); elsewhere, such as a CI
/// log, the same as a line every ten seconds, so a long live run is never silent and a fast
/// one prints nothing extra.
actor Progress {
    let total: Int
    let live: Bool
    private(set) var done = 0
    private var failed = 0
    private var errors = 0
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastLine: ContinuousClock.Instant
    /// How often a line is printed when not on a terminal.
    let interval: Duration

    /// Whether each finished case gets a line of its own (``caseLine(_:)``).
    let verbose: Bool

    init(total: Int, live: Bool, verbose: Bool = false, interval: Duration = .seconds(10)) {
        self.total = total
        self.live = live
        self.verbose = verbose
        self.interval = interval
        started = clock.now
        lastLine = started
    }

    /// Counts a finished case; the line to print, if any (with what ends it: nothing, on a
    /// terminal, where the next line overwrites it).
    func advance(_ result: CaseResult) -> (text: String, terminator: String)? {
        done += 1
        if result.outcome == .error { errors += 1 } else if result.outcome != .pass { failed += 1 }
        let now = clock.now
        let finished = verbose ? Self.caseLine(result) : nil
        if live {
            guard total >= 2 else { return finished.map { ($0, "\n") } }
            let width = 30
            let filled = total == 0 ? width : width * done / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            // The case's line replaces the bar, which is drawn again under it.
            return ((finished.map { "\r\($0)\u{1B}[K\n" } ?? "") + "\r\(bar) \(Self.status(done: done, total: total, failed: failed, errors: errors, elapsed: now - started))\u{1B}[K", "")
        }
        guard now - lastLine >= interval, done < total else { return finished.map { ($0, "\n") } }
        lastLine = now
        return ((finished.map { $0 + "\n" } ?? "") + "progress: " + Self.status(done: done, total: total, failed: failed, errors: errors, elapsed: now - started), "\n")
    }

    /// A finished case on one line: "FAIL luna/luna-crisis#1 (mock) 0.02 s: "reply…" — contains: missing …".
    static func caseLine(_ result: CaseResult) -> String {
        let outcome = result.outcome == .pass ? "PASS" : result.outcome == .error ? "ERROR" : "FAIL"
        let latency = result.turns.map(\.latency).reduce(0, +)
        var line = "\(outcome) \(result.suite)/\(result.fixture)#\(result.repeatIndex) (\(result.provider)) " + String(format: "%.2f s", latency)
        if let error = result.error { return line + ": " + Self.clipped(error, 160) }
        if let reply = result.turns.last?.reply { line += ": \"" + Self.clipped(reply, 100) + "\"" }
        if let failing = result.turns.lazy.flatMap(\.checks).first(where: { !$0.passed }) {
            line += " — " + Self.clipped(failing.check + ": " + failing.reason, 100)
        }
        return line
    }

    /// One line of at most `limit` characters, with an ellipsis where it was cut.
    static func clipped(_ text: String, _ limit: Int) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit - 1)) + "…" : flat
    }

    /// "120/552 cases, 3 not passing, 1 error, 4.1 cases/s, about 1m45s left".
    static func status(done: Int, total: Int, failed: Int, errors: Int, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var parts = ["\(done)/\(total) cases", "\(failed) not passing"]
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if seconds >= 1, done > 0 {
            let rate = Double(done) / seconds
            parts.append(rate >= 10 ? "\(Int(rate.rounded())) cases/s" : String(format: "%.1f cases/s", rate))
            if done < total {
                let left = Int((Double(total - done) / rate).rounded())
                parts.append("about " + (left >= 60 ? "\(left / 60)m\(String(format: "%02d", left % 60))s" : "\(left)s") + " left")
            }
        }
        return parts.joined(separator: ", ")
    }

    func finish() {
        if live, total >= 2 { Terminal.error("") }
    }
}

/// Loads suites and their fixtures, reporting content errors like lint.
enum EvalContent {
    static func load(suites paths: [String], heldFixtures: Int = SuiteCatalog.heldFixtureLimit) throws -> [LoadedSuite] {
        let (suites, warnings) = try EvalPlan.load(paths, catalog: SuiteCatalog(fileSystem: .invocation), heldFixtures: heldFixtures)
        for warning in warnings { Terminal.error(warning.description) }
        return suites
    }
}
