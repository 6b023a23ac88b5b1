import ArgumentParser
import CoachLab
import CoachLabEval
import Foundation

/// `coachlab runs`: the runs in the result store, or how suites moved over them.
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List the runs in the result store, newest first; --trend shows each suite over them.",
        discussion: """
        A run whose status is 'running' was stopped before it finished; continue it with coachlab eval --resume RUN. \
        --trend prints, per suite and provider, every run's pass rate with its 95% interval, the change \
        from the run before, errors, cost and p95 latency, oldest first. coachlab report trends --html \
        FILE draws the same as charts.

        Examples:
          coachlab runs
          coachlab runs --trend
          coachlab runs --trend luna --limit 10
        """
    )

    @Argument(help: "With --trend: only this suite.")
    var suite: String?
    @Flag(help: "Show how each suite's pass rate, cost and latency moved over the runs.")
    var trend = false
    @Option(help: "With --trend: the newest N runs.")
    var limit = 50
    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?

    func validate() throws {
        if suite != nil && !trend { throw ValidationError("a suite narrows --trend; add --trend") }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let path = Terminal.storePath(store)
        guard FileSystem.invocation.exists(path) else {
            Terminal.error("no result store at \(path); coachlab eval creates it")
            return
        }
        let results = try ResultStore(readingFrom: path, on: .invocation)
        if trend {
            Terminal.out(Reporters.trends(try Trends(store: results, suite: suite, limit: limit)), terminator: "")
        } else {
            Terminal.out(Reporters.runs(try results.runs()), terminator: "")
        }
    }
}

/// `coachlab report`: pages drawn from the result store.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write reports drawn from the stored runs.",
        subcommands: [TrendsPage.self]
    )

    struct TrendsPage: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trends",
            abstract: "A self-contained HTML page: each suite's pass rate with its interval, cost and p95 latency per provider over the runs.",
            usage: "coachlab report trends --html <html> [options]",
            discussion: "Example: coachlab report trends --html trends.html"
        )

        @Option(help: "Write the page here.")
        var html: String
        @Option(help: "Only this suite.")
        var suite: String?
        @Option(help: "The newest N runs.")
        var limit = 50
        @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
        var store: String?

        func run() throws {
            let path = Terminal.storePath(store)
            guard FileSystem.invocation.exists(path) else {
                throw CoachLabError(usage: "no result store at \(path)", hint: "coachlab eval creates it")
            }
            let trends = try Trends(store: ResultStore(readingFrom: path, on: .invocation), suite: suite, limit: max(1, limit))
            try ReportFiles(ReportFormats.trends, paths: ["html": html]).write(trends, fileSystem: .invocation)
            Terminal.error("trends of \(Set(trends.points.map(\.run)).count) runs written to \(html)")
        }
    }
}
