import CoachLab
import Foundation

/// The report files of one run (`eval`, `merge`, `rescore`). Each goes where nothing is yet, or
/// replaces a report of its own kind (the run before's, say); a file of anything else at the
/// path is never overwritten. Commands call ``check(fileSystem:)`` before the run, so that a
/// refused path costs no provider calls, and ``write(_:fileSystem:)`` after it.
public struct ReportFiles: Sendable {
    public var json: String?
    public var junit: String?
    public var markdown: String?
    public var html: String?
    /// Where this run's baseline goes.
    public var baseline: String?

    public init(json: String? = nil, junit: String? = nil, markdown: String? = nil, html: String? = nil, baseline: String? = nil) {
        self.json = json
        self.junit = junit
        self.markdown = markdown
        self.html = html
        self.baseline = baseline
    }

    /// Throws for two reports named to one path, and for the first path that holds a file of
    /// another kind or is a folder.
    public func check(fileSystem: FileSystem) throws {
        let outputs: [(String?, OutputKind)] = [(json, .jsonReport), (junit, .junitReport), (markdown, .markdownSummary),
                                                (html, .htmlReport), (baseline, .baseline)]
        let paths = outputs.compactMap(\.0).map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if let twice = paths.first(where: { path in paths.filter { $0 == path }.count > 1 }) {
            throw CoachLabError(usage: "two reports would be written to \(twice)", hint: "give each report its own file")
        }
        for case let (path?, kind) in outputs { try fileSystem.checkReplaceable(path, by: kind) }
    }

    /// Writes every report asked for, the large ones a piece at a time.
    public func write(_ report: RunReport, fileSystem: FileSystem) throws {
        if let json { try fileSystem.stream(to: json, replacing: .jsonReport) { try Reporters.json(report, to: $0) } }
        if let junit { try fileSystem.stream(to: junit, replacing: .junitReport) { try Reporters.junit(report, to: $0) } }
        if let markdown { try fileSystem.write(Reporters.markdown(report), to: markdown, replacing: .markdownSummary) }
        if let html { try fileSystem.stream(to: html, replacing: .htmlReport) { try HTMLReport(runs: [report]).render(to: $0) } }
        if let baseline { try fileSystem.write(Baseline(report: report).json(), to: baseline, replacing: .baseline) }
    }
}

extension OutputKind {
    /// `eval --json`: the JSON report, which opens with its cases.
    public static let jsonReport = OutputKind("a CoachLab JSON report", opening: 4096) { $0.hasPrefix(Reporters.jsonOpening) }
    /// `eval --junit`.
    public static let junitReport = OutputKind("a CoachLab JUnit report", opening: 4096) { $0.hasPrefix(Reporters.junitOpening) }
    /// `eval --markdown` and `compare --markdown`: a summary under a CoachLab heading.
    public static let markdownSummary = OutputKind("a CoachLab Markdown summary", opening: 4096) {
        $0.hasPrefix(Reporters.markdownHeading) || $0.hasPrefix(ComparisonMatrix.markdownHeading)
    }
    /// The HTML pages of `eval`, `compare` and `runs --trend`, which name CoachLab as their generator.
    public static let htmlReport = OutputKind("a CoachLab HTML report", opening: 4096) { $0.prefix(1024).contains(HTMLReport.generator) }
    /// `eval --write-baseline`.
    public static let baseline = OutputKind("a CoachLab baseline", opening: 4096) { $0.hasPrefix(Baseline.opening) }
    /// `mutate --json` and `--markdown`.
    public static let mutationReport = OutputKind("a CoachLab mutation report", opening: 4096) {
        $0.hasPrefix(MutationReport.jsonOpening) || $0.hasPrefix(MutationReport.markdownHeading)
    }
}
