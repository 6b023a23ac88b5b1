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
