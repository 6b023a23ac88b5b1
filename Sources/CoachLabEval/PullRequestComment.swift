import CoachLab
import Foundation

/// The one comment CoachLab keeps on a pull request: pass rates, regressions and fixes
/// against the base branch's baseline, the compiled prompts that changed (collapsed), and a
/// link to the HTML report. A marker finds it again, so later pushes update it in place.
public enum PullRequestComment {
    /// The hidden line that identifies CoachLab's comment.
    public static let marker = "<!-- coachlab-eval -->"
    /// GitHub refuses comments longer than 65,536 characters; the prompt diff is cut first.
    public static let limit = 60_000

    /// The comment's Markdown.
    public static func body(report: RunReport, baseline: Baseline?, promptDiff: String?, artifactURL: String?) throws -> String {
        var out = marker + "\n" + Reporters.markdown(report)
        if let baseline {
            let drops = try baseline.drops(in: report)
            let fixes = try baseline.fixes(in: report)
            out += "\n### Against the baseline\n\n"
            if !drops.contains(where: \.isSignificant) && fixes.isEmpty { out += "No regressions and no fixes against the baseline (run `\(baseline.run)`).\n" }
            for regression in drops where regression.isSignificant { out += "- ❌ **regression** \(regression)\n" }
            for fix in fixes { out += "- ✅ **fixed** `\(fix)`\n" }
            for drop in drops where !drop.isSignificant { out += "- ➖ within noise (not a regression): \(drop)\n" }
        }
        if let artifactURL { out += "\n[The HTML report](\(artifactURL)): charts, filters, every reply and its compiled prompt.\n" }
        if let promptDiff, !promptDiff.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let lines = promptDiff.split(separator: "\n", omittingEmptySubsequences: false)
            let changed = lines.filter { ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---") }.count
            var diff = promptDiff.replacingOccurrences(of: "```", with: "`\u{200B}``")
            let room = limit - out.count - 200
            if diff.count > room { diff = String(diff.prefix(max(0, room))) + "\n… (cut; the job log has the whole diff)" }
            out += "\n<details><summary>Compiled prompts changed (\(changed) lines)</summary>\n\n```diff\n\(diff)\n```\n</details>\n"
        }
        return out
    }
}
