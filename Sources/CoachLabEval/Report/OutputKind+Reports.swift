import CoachLab
import Foundation

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
