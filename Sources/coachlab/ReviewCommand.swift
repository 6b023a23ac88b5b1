import ArgumentParser
import CoachLab
import CoachLabEval
import Foundation

/// `coachlab review`: what people marked in a report, brought back into the project.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Bring people's reviews from an HTML report into the project.",
        subcommands: [Import.self]
    )

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Turn a report's exported labels into judge-calibration labels and fixtures, and list where people and the checks disagree.",
            usage: "coachlab review import <labels> [options]",
            discussion: """
            In the HTML report (eval --html, compare --html), a reviewer marks replies, or single \
            checks, pass or fail, with a note; "Export labels" saves the marks as a JSON file. This \
            command reads that file in the project:
              - each reply whose judge-check results were marked becomes a judgement file (default \
            fixtures/judgements/), which judge calibrate then counts;
              - each reply marked as a whole becomes a fixture (default fixtures/reviewed/) that replays \
            its conversation up to that reply, with the reviewed reply as the mock's; a failed one \
            carries a judge check written from the reviewer's note;
              - a suite that runs those fixtures is written when none is there (evals/reviewed.yaml);
              - every label where the person and the run disagree is listed.
            Files an earlier import wrote are replaced; any other file at a path is never written over. \
            Exit codes: 0 done; 2 a usage or content error.

            Examples:
              coachlab review import ~/Downloads/coachlab-labels.json
              coachlab review import labels.json --fixtures fixtures/betterone/reviewed --suite evals/betterone-reviewed.yaml
            """
        )

        @Argument(help: "The labels file the report exported.")
        var labels: String
        @Option(help: "Where judgement files go.")
        var judgements = "fixtures/judgements"
        @Option(help: "Where fixtures of replies marked as a whole go.")
        var fixtures = "fixtures/reviewed"
        @Option(help: "The suite that runs those fixtures, written when absent.")
        var suite = "evals/reviewed.yaml"

        func run() throws {
            let fileSystem = FileSystem.invocation
            let loader = EvalLoader(fileSystem: fileSystem)
            let (read, problems) = loader.reviewLabels(at: labels)
            guard let read else { throw CoachLabError(.content, problems) }
            let project = ReviewProject(fileSystem: fileSystem)
            let plan = ReviewImport(read, suites: project.suites, fixtures: project.fixtures,
                                    judgementFolder: Self.folder(judgements), fixtureFolder: Self.folder(fixtures))
            for diagnostic in plan.diagnostics { Terminal.error(diagnostic.description) }
            let newSuite = !plan.fixtures.isEmpty && !fileSystem.exists(suite)
            let files = plan.judgements + plan.fixtures
                + (newSuite ? [ReviewImport.File(path: suite, text: ReviewImport.suite(id: Self.stem(suite), fixtureFolder: Self.folder(fixtures)))] : [])
            for file in files { try fileSystem.checkReplaceable(file.path, by: .reviewImport) }
            for file in files { try fileSystem.write(file.text, to: file.path, replacing: .reviewImport) }
            Terminal.out(report(read, plan: plan, newSuite: newSuite), terminator: "")
        }

        private func report(_ read: ReviewLabels, plan: ReviewImport, newSuite: Bool) -> String {
            let replies = Set(read.labels.map(\.replyKey)).count
            var out = "read \(plural(read.labels.count, "label")) on \(plural(replies, "reply", "replies")) from \(labels)\n"
            if !plan.judgements.isEmpty {
                out += "wrote \(plural(plan.judgements.count, "judgement file")) to \(Self.folder(judgements)): \(plural(plan.judgementLabels, "label")) for judge calibrate\n"
            }
            if !plan.fixtures.isEmpty {
                out += "wrote \(plural(plan.fixtures.count, "fixture")) to \(Self.folder(fixtures)), run by \(suite)\(newSuite ? " (new)" : "")\n"
            }
            if plan.judgements.isEmpty, plan.fixtures.isEmpty {
                out += "wrote nothing: no label is on a judge check of this project's suites, and none is on a whole reply\n"
            }
            let judged = read.labels.filter { $0.automated != nil }.count
            guard judged > 0 else { return out }
            out += "people and the run disagree on \(plan.disagreements.count) of \(judged) labels\(plan.disagreements.isEmpty ? "" : ":")\n"
            for disagreement in plan.disagreements {
                let label = disagreement.label
                let what = label.check.map { "\(disagreement.isJudge ? "judge" : "check") \($0)" } ?? "reply"
                let person = label.passed ? "pass" : "fail"
                out += "  \(label.place) \(what): person \(person), run \(label.passed ? "fail" : "pass")"
                if let reason = label.reason, !reason.isEmpty { out += " (\(reason))" }
                if let note = label.note { out += "; note: \(note)" }
                out += "\n"
            }
            return out
        }

        private func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
            "\(count) \(count == 1 ? one : many ?? one + "s")"
        }

        /// A file's name without its folder and extension: the id of the suite written there.
        private static func stem(_ path: String) -> String {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return name.hasSuffix(".yaml") ? String(name.dropLast(5)) : name
        }

        private static func folder(_ path: String) -> String {
            var path = path
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            return path
        }
    }
}

/// The project's suites and fixtures, as far as they load, for matching labels to checks.
private struct ReviewProject {
    var suites: [Suite] = []
    var fixtures: [String: Fixture] = [:]

    init(fileSystem: FileSystem) {
        let loader = EvalLoader(fileSystem: fileSystem)
        var read = Set<String>()
        for file in SuiteCatalog(fileSystem: fileSystem).suiteFiles() {
            guard let suite = loader.suite(at: file).0 else { continue }
            suites.append(suite)
            for path in loader.fixtureFiles(of: suite) where read.insert(path).inserted {
                if let fixture = loader.fixture(at: path).0, fixtures[fixture.id] == nil { fixtures[fixture.id] = fixture }
            }
        }
    }
}
