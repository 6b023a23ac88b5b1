import CoachLab
import Foundation

/// Every report CoachLab writes, listed once: a run's, a comparison's, mutate's, the trends
/// page, an attack run's and the pull-request comment. Each command's report options name
/// formats from here, and ``ReportFiles`` checks and writes them.
public enum ReportFormats {
    /// A run's reports: `--json`, `--junit`, `--markdown`, `--html` and `--write-baseline`.
    public static let run: [ReportFormat<RunReport>] = [
        ReportFormat("json", .jsonReport) { try Reporters.json($0, to: $1) },
        ReportFormat("junit", .junitReport) { try Reporters.junit($0, to: $1) },
        ReportFormat("markdown", .markdownSummary) { try $1(Reporters.markdown($0)) },
        ReportFormat("html", .htmlReport) { try HTMLReport(runs: [$0]).render(to: $1) },
        ReportFormat("baseline", .baseline) { try $1(Baseline(report: $0).json()) },
    ]

    /// `compare --markdown` and `--html`: the runs side by side, with the paired comparisons.
    public static let comparison: [ReportFormat<HTMLReport>] = [
        ReportFormat("markdown", .markdownSummary) { page, write in
            let paired = page.matrix.pairedComparisons
            let section = paired.isEmpty ? "" : "\n### Paired comparison\n\n" + paired.map { "- " + $0.summary + "\n" }.joined()
            try write(page.matrix.markdown() + section)
        },
        ReportFormat("html", .htmlReport) { try $0.render(to: $1) },
    ]

    /// `mutate --json` and `--markdown`.
    public static let mutation: [ReportFormat<MutationSummary>] = [
        ReportFormat("json", .mutationReport) { try $1(try MutationReport.json($0)) },
        ReportFormat("markdown", .mutationReport) { try $1(MutationReport.markdown($0)) },
    ]

    /// `runs --trend --html`.
    public static let trends: [ReportFormat<Trends>] = [
        ReportFormat("html", .htmlReport) { try $1(TrendsReport($0).render()) },
    ]

    /// `attack --json`.
    public static let attack: [ReportFormat<AttackReport>] = [
        ReportFormat("json", .attackReport) { try $1(AttackReporter.json($0.outcomes, skipped: $0.skipped)) },
    ]

    /// `pr-comment`: posted on the pull request, or printed with `--dry-run`.
    public static let pullRequestComment = ReportFormat<PullRequestComment.Content>("comment", .pullRequestComment) {
        try $1(try PullRequestComment.body(report: $0.report, baseline: $0.baseline, promptDiff: $0.promptDiff, artifactURL: $0.artifactURL))
    }
}

/// What an attack run found, as `attack --json` writes it.
public struct AttackReport: Sendable {
    public var outcomes: [AttackRun.Outcome]
    public var skipped: [AttackPlanner.Skipped]

    public init(outcomes: [AttackRun.Outcome], skipped: [AttackPlanner.Skipped]) {
        self.outcomes = outcomes
        self.skipped = skipped
    }
}

extension PullRequestComment {
    /// What the comment is made of.
    public struct Content: Sendable {
        public var report: RunReport
        public var baseline: Baseline?
        public var promptDiff: String?
        public var artifactURL: String?

        public init(report: RunReport, baseline: Baseline?, promptDiff: String?, artifactURL: String?) {
            self.report = report
            self.baseline = baseline
            self.promptDiff = promptDiff
            self.artifactURL = artifactURL
        }
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
    /// The pull-request comment, which opens with its marker.
    public static let pullRequestComment = OutputKind("a CoachLab pull-request comment", opening: 64) {
        $0.hasPrefix(PullRequestComment.marker)
    }
}
