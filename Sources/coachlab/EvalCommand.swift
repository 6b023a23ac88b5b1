import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab eval`: the main job.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Replay fixtures against providers, score every reply, and report.",
        discussion: """
        With no suites, runs every suite in evals/ on the suites' providers (the mock by default).
        Exit codes: 0 every threshold held; 1 a check failed below a threshold or --fail-under;
        2 a usage or content error; 3 a provider error kept cases from completing.

        Examples:
          coachlab eval
          coachlab eval evals/betterone.yaml --provider openai-gpt-4o-mini --junit junit.xml
          coachlab eval --repeat 5 --provider local-gemma --markdown summary.md
        """
    )

    @Argument(help: "Suite files. Default: every evals/*.yaml.")
    var suites: [String] = []
    @OptionGroup var provider: ProviderOptions
    @Option(help: "Run each case N times (pass rate with a Wilson interval, pass^N, pass@N, flaky cases).")
    var `repeat`: Int?
    @Option(name: [.customShort("j"), .long], help: "Cases in flight at once.")
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

    func validate() throws {
        if let failUnder, !(0...1).contains(failUnder) { throw ValidationError("--fail-under takes a rate from 0 to 1") }
        if let value = self.repeat, value < 1 { throw ValidationError("--repeat must be at least 1") }
        if let concurrency, concurrency < 1 { throw ValidationError("-j/--concurrency must be at least 1") }
    }

    func run() async throws {
        let storePath = store ?? ProcessInfo.processInfo.environment["COACHLAB_STORE"] ?? ResultStore.defaultPath
        let results = try ResultStore(path: storePath)
        var suitePaths = suites
        var providers = provider.providers
        var repeats = self.repeat
        var finished: Set<String> = []
        if let resume {
            guard let previous = try results.run(resume) else {
                throw CoachLabError(usage: "no run '\(resume)' in \(storePath)", hint: "coachlab runs lists the stored runs")
            }
            if suitePaths.isEmpty { suitePaths = previous.suites }
            if providers.isEmpty { providers = previous.providers }
            repeats = repeats ?? previous.repeats
            finished = try results.finishedCases(run: resume)
        }
        let loaded = try EvalContent.load(suites: suitePaths)
        let registry = try provider.registry()
        let filter = self.filter
        let runner = EvalRunner(registry: registry, providerOverride: providers, baseURL: provider.baseURL,
                                apiKeyVariable: provider.apiKeyEnv, repeats: repeats, concurrency: concurrency)
        let run = try resume ?? results.startRun(suites: suitePaths.isEmpty ? loaded.map(\.suite.file) : suitePaths,
                                                   providers: providers, repeats: repeats)
        let skip = finished
        let include: @Sendable (EvalCase) -> Bool = { evalCase in
            !skip.contains(evalCase.id) && (filter.map { evalCase.id.contains($0) } ?? true)
        }
        let total = loaded.reduce(0) { $0 + runner.cases(of: $1).filter(include).count }
        if !finished.isEmpty { Terminal.error("resuming run \(run): \(finished.count) cases already finished, \(total) to go") }
        let progress = Progress(total: total, live: Terminal.stderrIsTerminal)
        do {
            try await runner.run(loaded, include: include) { result in
                try results.record(result, run: run)
                await progress.advance(result)
            }
        } catch let error as ProviderError {
            try? results.finishRun(run, status: "interrupted")
            Terminal.error("error: \(error)")
            throw ExitCode(Exit.infrastructure)
        }
        await progress.finish()
        try results.finishRun(run, status: "finished")
        let stored = try results.results(run: run).filter { result in filter.map { result.id.contains($0) } ?? true }
        let report = RunReport(run: run, suites: loaded.map(\.suite), results: stored)
        Terminal.out(TerminalReport.render(report, colour: Terminal.stdoutIsTerminal), terminator: "")
        Terminal.error("run \(run) is stored in \(storePath)")
        if let json { try Files.write(Reporters.json(report), to: json) }
        if let junit { try Files.write(Reporters.junit(report), to: junit) }
        if let markdown { try Files.write(Reporters.markdown(report), to: markdown) }
        let code = report.exitCode(failUnder: failUnder)
        if code != 0 { throw ExitCode(code) }
    }
}

/// A one-line progress bar on a terminal; nothing otherwise.
actor Progress {
    let total: Int
    let live: Bool
    private var done = 0
    private var failed = 0

    init(total: Int, live: Bool) {
        self.total = total
        self.live = live
    }

    func advance(_ result: CaseResult) {
        done += 1
        if result.outcome != .pass { failed += 1 }
        guard live, total >= 20 else { return }
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total) cases, \(failed) not passing".utf8))
    }

    func finish() {
        if live, total >= 20 { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// Loads suites and their fixtures, reporting content errors like lint.
enum EvalContent {
    static func load(suites paths: [String]) throws -> [LoadedSuite] {
        let loader = EvalLoader()
        let files = try paths.isEmpty ? defaultSuites() : paths
        var diagnostics: [Diagnostic] = []
        var loaded: [LoadedSuite] = []
        var fixtureIds: [String: String] = [:]
        for file in files {
            let (suite, problems) = loader.suite(at: file)
            diagnostics += problems
            guard let suite else { continue }
            var fixtures: [Fixture] = []
            for path in loader.fixtureFiles(of: suite) {
                let (fixture, problems) = loader.fixture(at: path)
                diagnostics += problems
                guard let fixture else { continue }
                if let other = fixtureIds[fixture.id], other != path {
                    diagnostics.append(.error("fixture id '\(fixture.id)' is also used by \(other)", at: fixture.location))
                }
                fixtureIds[fixture.id] = path
                if suite.tags.isEmpty || !Set(suite.tags).isDisjoint(with: fixture.tags) { fixtures.append(fixture) }
            }
            loaded.append(LoadedSuite(suite: suite, fixtures: fixtures))
        }
        let errors = diagnostics.filter { $0.severity == .error }
        for diagnostic in Array(Set(diagnostics)).sorted() { Terminal.error(diagnostic.description) }
        if !errors.isEmpty { throw ExitCode(Exit.usage) }
        return loaded
    }

    static func defaultSuites() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "evals")) ?? []
        let files = names.filter { $0.hasSuffix(".yaml") }.sorted().map { "evals/\($0)" }
        guard !files.isEmpty else {
            throw CoachLabError(usage: "no suites in evals/", hint: "run from the project root, or name suite files")
        }
        return files
    }
}

/// The terminal table and the failures under it.
enum TerminalReport {
    static func render(_ report: RunReport, colour: Bool) -> String {
        func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var rows = [["SUITE", "CASES", "PASS", "FAIL", "ERROR", "PASS RATE (95% CI)", "THRESHOLD", ""]]
        for summary in report.suites {
            rows.append([summary.suite, "\(summary.cases)", "\(summary.passed)", "\(summary.failed)", "\(summary.errors)",
                         String(format: "%.1f%% (%.0f-%.0f%%)", summary.passRate * 100, summary.wilsonLow * 100, summary.wilsonHigh * 100),
                         String(format: "%.0f%%", summary.threshold * 100), summary.held ? "ok" : "MISSED"])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var out = ""
        for (index, row) in rows.enumerated() {
            var line = row.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
            if index > 0 { line = line.replacingOccurrences(of: " ok", with: " " + paint("ok", "32")).replacingOccurrences(of: "MISSED", with: paint("MISSED", "1;31")) }
            out += line + "\n"
        }
        let failing = report.cases.filter { $0.outcome != .pass }
        if !failing.isEmpty {
            out += "\n"
            for result in failing {
                if result.outcome == .error {
                    out += paint("ERROR", "1;35") + " \(result.id): \(result.error ?? "")\n"
                    continue
                }
                out += paint("FAIL", "1;31") + " \(result.id)\n"
                for failure in result.failures { out += "  turn \(failure.turn) \(failure.check.check): \(failure.check.reason)\n" }
            }
        }
        for summary in report.suites where !summary.flaky.isEmpty {
            out += "flaky in \(summary.suite): \(summary.flaky.joined(separator: ", "))\n"
        }
        let total = report.cases.count
        out += String(format: "\n%d cases: %d passed, %d failed, %d errors\n", total, report.cases.filter { $0.outcome == .pass }.count,
                      report.cases.filter { $0.outcome == .fail }.count, report.cases.filter { $0.outcome == .error }.count)
        return out
    }
}
