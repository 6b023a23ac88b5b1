import ArgumentParser
import CoachLab
import CoachLabEval
import Foundation

/// `coachlab rescore`: the current checks over a stored run's replies, with no provider calls.
struct RescoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rescore",
        abstract: "Score a stored run's replies again with the current checks, calling no provider.",
        usage: "coachlab rescore <run> [<suites> ...] [options]",
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
    @Argument(help: "Suite files to take the checks from, or folders of them. Default: the run's suites.")
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
        try ReportFiles(json: json, markdown: markdown).check(fileSystem: .invocation)
        let storePath = Terminal.storePath(store)
        guard FileSystem.invocation.exists(storePath) else {
            throw CoachLabError(usage: "no result store at \(storePath)", hint: "coachlab eval creates it")
        }
        let results = try ResultStore(path: storePath, system: Invocation.current.system)
        guard let info = try results.run(run) else {
            throw CoachLabError(usage: "no run '\(run)' in \(storePath)", hint: "coachlab runs lists the stored runs")
        }
        let paths = suites.isEmpty ? info.suites : suites
        let loaded = try EvalContent.load(suites: paths)
        let (target, summary) = try await Rescorer.rescore(info, suites: loaded, paths: paths, in: results, fileSystem: .invocation)
        let report = try RunReport(run: target, suites: loaded.map(\.suite), store: results)
        Terminal.out(Reporters.terminal(report, colour: Terminal.stdoutIsTerminal), terminator: "")
        for line in summary.lines(run: run, target: target) { Terminal.error(line) }
        try ReportFiles(json: json, markdown: markdown).write(report)
        let code = report.exitCode(failUnder: failUnder)
        if code != 0 { throw ExitCode(code) }
    }
}
