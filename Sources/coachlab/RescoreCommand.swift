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
        out and counted too; errored cases stay errored (retry them with eval --retry-errors).
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
        var rescorer = Rescorer(suites: loaded, fileSystem: .live) { try results.compiledPrompt($0) }
        let target = try results.startRun(suites: paths, providers: info.providers, repeats: info.repeats, prices: info.prices,
                                          baseURL: info.baseURL, apiKeyEnv: info.apiKeyEnv, settings: info.settings)
        var rescored: [CaseResult] = []
        try results.forEachResult(run: run) { rescored.append($0) }
        for stored in rescored { try results.record(try await rescorer.rescore(stored), run: target) }
        try results.finishRun(target, status: "finished")
        let report = try RunReport(run: target, suites: loaded.map(\.suite), store: results)
        Terminal.out(Reporters.terminal(report, colour: Terminal.stdoutIsTerminal), terminator: "")
        let summary = rescorer.summary
        var line = "rescored \(summary.rescored) cases of run \(run) into run \(target) with no provider calls"
        if summary.errored > 0 { line += "; \(summary.errored) errored cases kept as they were (eval --retry-errors \(run) runs them)" }
        if summary.judgeCarried > 0 { line += "; \(summary.judgeCarried) judge verdicts carried over, not graded again" }
        if summary.judgeUngraded > 0 { line += "; \(summary.judgeUngraded) judge checks new since the run were left out (grading calls a model)" }
        if !summary.orphaned.isEmpty { line += "; \(summary.orphaned.count) cases whose fixture is gone were kept as they were" }
        Terminal.error(line)
        for change in summary.changed.prefix(20) { Terminal.error("  changed \(change)") }
        if summary.changed.count > 20 { Terminal.error("  … and \(summary.changed.count - 20) more; coachlab diff \(run) \(target) lists them") }
        if let json { try Files.stream(to: json) { try Reporters.json(report, to: $0) } }
        if let markdown { try Files.write(Reporters.markdown(report), to: markdown) }
        let code = report.exitCode(failUnder: failUnder)
        if code != 0 { throw ExitCode(code) }
    }
}
