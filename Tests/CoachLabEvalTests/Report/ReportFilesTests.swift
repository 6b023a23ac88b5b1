import CoachLab
import CoachLabEval
import Foundation
import Testing

/// Report files replace only reports of their own kind: each kind recognises what its own
/// renderer writes and nothing the others write, and a person's file at a report's path is
/// refused before the run and left as it was.
@Suite struct ReportFilesTests {
    /// Every report CoachLab writes, from the one list of them (``ReportFormats``), with the
    /// kind that guards it, and the other files commands write beside a person's own.
    static func outputs() async throws -> [(kind: OutputKind, text: String)] {
        let report = try await ReporterGoldenTests.report()
        let page = try HTMLReport(runs: [report], title: "CoachLab comparison")
        var outputs: [(kind: OutputKind, text: String)] = []
        for format in ReportFormats.run { outputs.append((format.kind, try format.text(report))) }
        for format in ReportFormats.comparison { outputs.append((format.kind, try format.text(page))) }
        for format in ReportFormats.mutation { outputs.append((format.kind, try format.text(MutationSummary(results: [])))) }
        for format in ReportFormats.trends { outputs.append((format.kind, try format.text(Trends(points: [])))) }
        for format in ReportFormats.attack { outputs.append((format.kind, try format.text(AttackReport(outcomes: [], skipped: [])))) }
        let comment = PullRequestComment.Content(report: report, baseline: nil, promptDiff: nil, artifactURL: nil)
        outputs.append((ReportFormats.pullRequestComment.kind, try ReportFormats.pullRequestComment.text(comment)))
        #expect(outputs.count == 12)
        return outputs + [
            (.schema, try #require(JSONSchemaEmitter.schema(for: "pack"))),
            (.recording, FixtureRecording(id: "x", pack: "p", inputs: CompileInputs(), turns: []).yaml),
        ]
    }

    /// Two reports of one command named to one path are refused before any work, whichever
    /// command's list they come from.
    @Test func twoReportsToOnePathAreRefused() throws {
        let files = ReportFiles(ReportFormats.mutation, paths: ["json": "out/score", "markdown": "./out/score"])
        #expect(throws: CoachLabError.self) { try files.check(fileSystem: .inMemory([:])) }
        let apart = ReportFiles(ReportFormats.mutation, paths: ["json": "out/score.json", "markdown": nil])
        #expect(apart.requested.map(\.path) == ["out/score.json"])
        try apart.check(fileSystem: .inMemory([:]))
    }

    /// A person's files that could sit at a report's path.
    static let theirs = ["# Notes\n\nMy own.\n", "{\n  \"cases\" : \"mine\"\n}\n", "<html><body>mine</body></html>\n",
                         "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"pytest\">\n", "## CoachLab notes\n"]

    @Test func eachKindRecognisesItsOwnReportsAndNoOneElses() async throws {
        let outputs = try await Self.outputs()
        for output in outputs {
            for other in outputs {
                #expect(other.kind.recognises(output.text) == (other.kind.name == output.kind.name),
                        "\(other.kind.name) on \(output.kind.name)'s file: \(output.text.prefix(60))")
            }
        }
        for kind in Set(outputs.map(\.kind.name)) {
            let kind = try #require(outputs.first { $0.kind.name == kind }?.kind)
            for text in Self.theirs { #expect(!kind.recognises(text), "\(kind.name) took \(text.prefix(40))") }
        }
    }

    @Test func aRunsReportsReplaceTheLastRunsAndNeverSomeoneElsesFile() async throws {
        let report = try await ReporterGoldenTests.report()
        let notes = "# Notes\n\nMy own.\n"
        let fileSystem = FileSystem.inMemory(["out/notes.md": notes])
        let files = ReportFiles(json: "out/r.json", junit: "out/r.xml", markdown: "out/r.md", html: "out/r.html", baseline: "out/b.json")
        try files.check(fileSystem: fileSystem)
        try files.write(report, fileSystem: fileSystem)
        try files.check(fileSystem: fileSystem)
        try files.write(report, fileSystem: fileSystem)
        #expect(String(decoding: try fileSystem.read("out/r.json"), as: UTF8.self) == (try Reporters.json(report)))

        // Two reports to one path are refused before anything is written.
        #expect(throws: CoachLabError.self) { try ReportFiles(json: "out/x.json", junit: "out/./x.json").check(fileSystem: fileSystem) }

        let onNotes = ReportFiles(json: "out/r2.json", markdown: "out/notes.md")
        #expect(throws: CoachLabError.self) { try onNotes.check(fileSystem: fileSystem) }
        #expect(throws: CoachLabError.self) { try onNotes.write(report, fileSystem: fileSystem) }
        #expect(String(decoding: try fileSystem.read("out/notes.md"), as: UTF8.self) == notes)
    }
}
