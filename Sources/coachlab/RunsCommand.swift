import ArgumentParser
import CoachLabEval
import Foundation

/// `coachlab runs`: the runs in the result store.
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List the runs in the result store, newest first.",
        discussion: "A run whose status is 'running' was stopped before it finished; continue it with coachlab eval --resume RUN."
    )

    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?

    func run() throws {
        let path = Terminal.storePath(store)
        guard FileManager.default.fileExists(atPath: path) else {
            Terminal.error("no result store at \(path); coachlab eval creates it")
            return
        }
        let runs = try ResultStore(readingFrom: path).runs()
        var table = [["RUN", "STARTED", "STATUS", "CASES", "PASS", "FAIL", "ERROR", "SUITES"]]
        for run in runs {
            table.append([run.id, String(run.startedAt.prefix(19)), run.status, "\(run.cases)", "\(run.passed)", "\(run.failed)",
                          "\(run.errors)", run.suites.map { ($0 as NSString).lastPathComponent }.joined(separator: ",")])
        }
        for line in Terminal.table(table) { Terminal.out(line) }
    }
}
