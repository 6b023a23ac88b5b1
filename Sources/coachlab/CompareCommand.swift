import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab compare`: cases × providers, side by side.
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Run suites on several providers and show them side by side (or compare stored runs).",
        discussion: """
        Each column is a provider: pass rate with a 95% Wilson interval, median and p95 latency, \
        time to first token, tokens and cost (from the prices in providers.yaml, which the report \
        names). Each row is a case with every provider's outcome; the HTML page adds the replies \
        side by side with their differences highlighted, filters, charts and the compiled prompts. \
        Then the first provider is compared with each other one on the same cases: the pairs \
        where only one passed, the exact McNemar test (clustered by fixture with repeats), a 95% \
        interval for the difference of pass rates, and a verdict (A is better, B is better, or no detectable difference, with about \
        how many cases would show one). \
        Exit codes: 0 compared; 2 a usage or content error; 3 a provider error stopped the run.

        Examples:
          coachlab compare evals/betterone.yaml --provider mock \\
            --provider serve-mock --html compare.html
          coachlab compare --run 20261121-101500-abc --run 20261121-113000-def \\
            --html runs.html
        """
    )

    @Argument(help: "Suite files to run, or folders of them. Default with --provider: every evals/*.yaml.")
    var suites: [String] = []
    @OptionGroup var provider: ProviderOptions
    @Option(name: .customLong("run"), help: "Compare stored runs instead of running (repeatable).")
    var runs: [String] = []
    @Option(help: "Run each case N times.")
    var `repeat`: Int?
    @Option(name: [.customShort("j"), .long], help: "Cases running at once (at most two per core when no provider, judge or script waits).")
    var concurrency: Int?
    @Option(help: "Only cases whose suite/fixture/provider id contains this text.")
    var filter: String?
    @Flag(inversion: .prefixedNo, help: "Stream replies, which measures time to first token.")
    var stream = true
    @Option(help: "Write the self-contained HTML report here.")
    var html: String?
    @Option(help: "Write the matrix as Markdown here.")
    var markdown: String?
    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?
    @OptionGroup var cache: CacheOptions

    func validate() throws {
        if runs.isEmpty, provider.providers.count < 2 {
            throw ValidationError("name at least two providers (--provider A --provider B), or stored runs with --run")
        }
        if !runs.isEmpty, !provider.providers.isEmpty || !suites.isEmpty {
            throw ValidationError("--run compares stored runs; it does not take suites or --provider")
        }
        if let value = self.repeat, value < 1 { throw ValidationError("--repeat must be at least 1") }
    }

    func run() async throws {
        let files = ReportFiles(ReportFormats.comparison, paths: ["markdown": markdown, "html": html])
        try files.check(fileSystem: .invocation)
        let store = try ResultStore(path: Terminal.storePath(self.store), system: Invocation.current.system)
        let reports = runs.isEmpty ? [try await runSuites(into: store)] : try runs.map { try RunReport(stored: $0, in: store, fileSystem: .invocation) }
        let page = try HTMLReport(runs: reports, title: "CoachLab comparison")
        Terminal.out(Reporters.comparison(page.matrix), terminator: "")
        let paired = page.matrix.pairedComparisons
        if !paired.isEmpty {
            Terminal.out("\nPaired comparison (the same cases on both sides):")
            for comparison in paired { Terminal.out("  " + comparison.summary) }
        }
        try files.write(page, fileSystem: .invocation)
        if let html { Terminal.error("HTML report written to \(html)") }
        if runs.isEmpty, reports.contains(where: { $0.totals.errors > 0 }) { throw ExitCode(Exit.infrastructure) }
    }

    /// Runs the suites on every named provider into one stored run.
    private func runSuites(into store: ResultStore) async throws -> RunReport {
        var request = provider.request(suites: suites, repeats: self.repeat, concurrency: concurrency, filter: filter)
        request.streaming = stream
        let cache = self.cache.cache()
        let plan: EvalPlan
        do {
            plan = try EvalPlan.make(request, registry: provider.registry(), store: store, catalog: SuiteCatalog(fileSystem: .invocation)) {
                try $1.provider($0, cache: cache)
            }
        } catch {
            store.discardIfNew()
            throw error
        }
        let execution = try await EvalTerminal.execute(plan, store: store, cache: cache)
        if execution.interrupted { Terminal.error("interrupted: the matrix shows the \(execution.done) cases that finished") }
        return try RunReport(run: plan.run, suites: plan.suites.map(\.suite), store: store)
    }
}

/// `coachlab diff`: what changed between two runs.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "List regressions, fixes, new and removed cases, and changed replies between two runs.",
        usage: "coachlab diff <before> <after> [options]",
        discussion: """
        Cases match by id (suite/fixture/provider#repeat). Exit codes: 0 no regression; 1 at least one \
        case passed in RUN_A and fails or errors in RUN_B; 2 a usage error.

        Example: coachlab diff 20261120-090000-abc 20261121-090000-def
        """
    )

    @Argument(help: "The earlier run.") var before: String
    @Argument(help: "The later run.") var after: String
    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?
    @Option(help: "The store RUN_A is in, when it is another one.")
    var beforeStore: String?
    @Option(help: "text or json.")
    var format: OutputFormat = .text

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func run() throws {
        let path = Terminal.storePath(store)
        let afterStore = try ResultStore(readingFrom: path, on: .invocation)
        let earlierStore = try beforeStore.map { try ResultStore(readingFrom: $0, on: .invocation) } ?? afterStore
        for (id, store) in [(before, earlierStore), (after, afterStore)] where try store.run(id) == nil {
            throw CoachLabError(usage: "no run '\(id)' in \(store.path)", hint: "coachlab runs lists the stored runs")
        }
        let diff = try RunDiff(before: before, in: earlierStore, after: after, in: afterStore)
        switch format {
        case .text:
            Terminal.out(diff.text(), terminator: "")
        case .json:
            let encoder = JSONEncoder.sorted(pretty: true)
            Terminal.out(String(decoding: try encoder.encode(diff), as: UTF8.self))
        }
        if diff.hasRegressions { throw ExitCode(Exit.failed) }
    }
}

/// `coachlab merge`: shards back into one run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine shard stores or JSON reports into one run, and report it.",
        usage: "coachlab merge <inputs> ... [--store <store>] [options]",
        discussion: """
        Each input is a result store (its newest run, or STORE@RUN for another) or a JSON report \
        written by eval --json. A case found in two inputs is an error (overlapping shards). The \
        merged run is stored under a new id and reported like an eval: exit 0 when every suite's \
        threshold holds, 1 when one is missed, 3 when cases errored.

        Example:
          coachlab merge shard-1.sqlite shard-2.sqlite shard-3.sqlite \\
            shard-4.sqlite --store merged.sqlite --junit junit.xml \\
            --baseline evals/baseline.json
        """
    )

    @Argument(help: "Shard stores (FILE or FILE@RUN) or JSON reports.")
    var inputs: [String]
    @Option(help: "Where the merged run goes. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?
    @Option(help: "Write a JSON report here.") var json: String?
    @Option(help: "Write JUnit XML here.") var junit: String?
    @Option(help: "Write a Markdown summary here.") var markdown: String?
    @Option(help: "Write the HTML report here.") var html: String?
    @Option(help: "Compare the merged run with a committed baseline; exit 1 naming every regression.")
    var baseline: String?

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("name the shard stores or JSON reports to merge") }
    }

    var outputs: ReportFiles<RunReport> { ReportFiles(json: json, junit: junit, markdown: markdown, html: html) }

    func run() throws {
        try outputs.check(fileSystem: .invocation)
        let gate = try baseline.map { (path: $0, file: try Baseline.read($0, fileSystem: .invocation)) }
        let target = try ResultStore(path: Terminal.storePath(store), system: Invocation.current.system)
        let merge = try RunMerge.merge(inputs, into: target, fileSystem: .invocation)
        for warning in merge.warnings { Terminal.error("warning: " + warning) }
        let report = try RunReport(run: merge.run, suites: merge.suites, store: target)
        Terminal.out(Reporters.terminal(report, colour: Terminal.stdoutIsTerminal), terminator: "")
        Terminal.error("merged \(merge.cases) cases from \(merge.inputs) inputs into run \(merge.run) in \(target.path)")
        try outputs.write(report)
        var code = report.exitCode()
        if let gate, try !BaselineGate.holds(gate.file, named: gate.path, report: report), code == 0 { code = Exit.failed }
        if code != 0 { throw ExitCode(code) }
    }
}
