import ArgumentParser
import CoachLab
import CoachLabEval
import Foundation

/// `coachlab rescore`: the current checks over a stored run's replies, with no provider calls.
struct RescoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescore",
        abstract: "Score a stored run's replies again with the current checks, calling no provider.",
        discussion: """
        Edit a check, then see what it says about replies already paid for. Every stored reply is \
        scored by its suite's checks and its fixture's expect: as written now, against the compiled \
        prompt it answered, into a new run that diff and compare read. Judge verdicts are carried \
        over (grading again would call a model) and counted; judge checks added since are left \
        out and counted too; errored cases stay errored (retry them with eval --retry-errors). \
        Exit codes as eval: 0 thresholds held; 1 a check failed below a threshold; 2 usage.

        Examples:
          coachlab rescore 20261121-101500-abc
          coachlab rescore 20261121-101500-abc evals/luna.yaml --json rescored.json
          coachlab diff 20261121-101500-abc <the new run>
        """
    )

    @Argument(help: "The stored run.")
    var run: String
    @Argument(help: "Suite files to take the checks from. Default: the run's suites.")
    var suites: [String] = []
    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?
    @Option(help: "Write a JSON report (sorted keys) here.")
    var json: String?
    @Option(help: "Write a Markdown summary here.")
    var markdown: String?
    @Option(help: "Fail (exit 1) when the overall pass rate is below this, 0-1.")
    var failUnder: Double?

    func validate() throws {
        if let failUnder, !(0...1).contains(failUnder) { throw ValidationError("--fail-under takes a rate from 0 to 1") }
    }

    func run() async throws {
        let storePath = Terminal.storePath(store)
        guard FileManager.default.fileExists(atPath: storePath) else {
            throw CoachLabError(usage: "no result store at \(storePath)", hint: "coachlab eval creates it")
        }
        let results = try ResultStore(path: storePath)
        guard let info = try results.run(run) else {
            throw CoachLabError(usage: "no run '\(run)' in \(storePath)", hint: "coachlab runs lists the stored runs")
        }
        let paths = suites.isEmpty ? info.suites : suites
        let loaded = try EvalContent.load(suites: paths)
        let (target, summary) = try await rescore(info, suites: loaded, paths: paths, store: results)
        let report = try RunReport(run: target, suites: loaded.map(\.suite), store: results)
        Terminal.out(Reporters.terminal(report, colour: Terminal.stdoutIsTerminal), terminator: "")
        for line in Self.describe(summary, run: run, target: target) { Terminal.error(line) }
        try ReportFiles(json: json, markdown: markdown).write(report)
        let code = report.exitCode(failUnder: failUnder)
        if code != 0 { throw ExitCode(code) }
    }

    /// Scores every stored case of the run again into a new run of the same store.
    private func rescore(_ info: ResultStore.RunInfo, suites: [LoadedSuite], paths: [String],
                         store: ResultStore) async throws -> (target: String, summary: Rescorer.Summary) {
        var rescorer = Rescorer(suites: suites, fileSystem: .live) { try store.compiledPrompt($0) }
        let target = try store.startRun(suites: paths, providers: info.providers, repeats: info.repeats, prices: info.prices,
                                        baseURL: info.baseURL, apiKeyEnv: info.apiKeyEnv, settings: info.settings)
        var stored: [CaseResult] = []
        try store.forEachResult(run: info.id) { stored.append($0) }
        for result in stored { try store.record(try await rescorer.rescore(result), run: target) }
        try store.finishRun(target, status: "finished")
        return (target, rescorer.summary)
    }

    /// What rescoring did and did not do, and the verdicts it changed.
    static func describe(_ summary: Rescorer.Summary, run: String, target: String) -> [String] {
        var line = "rescored \(summary.rescored) cases of run \(run) into run \(target) with no provider calls"
        if summary.errored > 0 { line += "; \(summary.errored) errored cases kept as they were (eval --retry-errors \(run) runs them)" }
        if summary.judgeCarried > 0 { line += "; \(summary.judgeCarried) judge verdicts carried over, not graded again" }
        if summary.judgeUngraded > 0 { line += "; \(summary.judgeUngraded) judge checks new since the run were left out (grading calls a model)" }
        if !summary.orphaned.isEmpty { line += "; \(summary.orphaned.count) cases whose fixture is gone were kept as they were" }
        var lines = [line] + summary.changed.prefix(20).map { "  changed \($0)" }
        if summary.changed.count > 20 { lines.append("  … and \(summary.changed.count - 20) more; coachlab diff \(run) \(target) lists them") }
        return lines
    }
}
