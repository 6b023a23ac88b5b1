import CoachLab
import Foundation

/// The one comment CoachLab keeps on a pull request: pass rates, regressions and fixes
/// against the base branch's baseline, the failing checks, the compiled prompts that changed
/// (collapsed), and a link to the HTML report. A marker that opens the body finds it again, so
/// later pushes update it in place.
///
/// The comment always fits: GitHub refuses a body over 65,536 characters, and a refused post
/// would leave the last comment, perhaps a green one, standing. The suites' table and a run's
/// status always go in; regressions, failing checks and the prompt diff go in while there is
/// room, each list ending with how many lines it left out.
public enum PullRequestComment {
    /// The hidden line that opens CoachLab's comment.
    public static let marker = "<!-- coachlab-eval -->"
    /// The most UTF-8 bytes a comment holds: under GitHub's 65,536 characters however they
    /// are counted, with room to spare.
    public static let limit = 60_000

    /// The comment's Markdown, at most ``limit`` UTF-8 bytes.
    public static func body(report: RunReport, baseline: Baseline?, promptDiff: String?, artifactURL: String?) throws -> String {
        var out = marker + "\n" + Reporters.markdownSummary(report)
        let link = artifactURL.map { "\n[The HTML report](\($0)): charts, filters, every reply and its compiled prompt.\n" } ?? ""
        // What must still fit after the lists: the link, the diff's frame, and each list's last line.
        let reserve = link.utf8.count + 600
        func room() -> Int { limit - reserve - out.utf8.count }
        func append(_ lines: [String], more: (Int) -> String) {
            for (index, line) in lines.enumerated() {
                guard line.utf8.count <= room() else {
                    out += more(lines.count - index)
                    return
                }
                out += line
            }
        }
        if let baseline {
            let drops = try baseline.drops(in: report)
            let fixes = try baseline.fixes(in: report)
            out += "\n### Against the baseline\n\n"
            if !drops.contains(where: \.isSignificant) && fixes.isEmpty { out += "No regressions and no fixes against the baseline (run `\(baseline.run)`).\n" }
            let lines = drops.filter(\.isSignificant).map { "- ❌ **regression** \(line($0))\n" }
                + fixes.map { "- ✅ **fixed** \(MarkdownText.inert($0, limit: 200))\n" }
                + drops.filter { !$0.isSignificant }.map { "- ➖ within noise (not a regression): \(line($0))\n" }
            append(lines) { "- … and \($0) more (the job log and the HTML report have every one)\n" }
        }
        let failures = Reporters.markdownFailures(report)
        if !failures.isEmpty {
            out += "\n### Failing cases\n\n"
            append(failures) { "- … and \($0) more failing checks or errors (the job log and the HTML report have every one)\n" }
        }
        out += link
        if let promptDiff, !promptDiff.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            out += diffSection(promptDiff, room: limit - out.utf8.count)
        }
        return out
    }

    /// A drop against the baseline: the case group, the counts, and the failing reason, which
    /// is model, judge or script text and renders inert.
    static func line(_ drop: Baseline.Regression) -> String {
        MarkdownText.inert(drop.group, limit: 200)
            + ": passed \(drop.before.passed)/\(drop.before.total) in the baseline, \(drop.after.passed)/\(drop.after.total) now"
            + (drop.pValue.map { " (p = \(PairedComparison.format($0)))" } ?? "")
            + (drop.reason.map { " — " + MarkdownText.inert($0) } ?? "")
    }

    /// The collapsed diff of the compiled prompts, cut to `room` UTF-8 bytes.
    static func diffSection(_ promptDiff: String, room: Int) -> String {
        let lines = promptDiff.split(separator: "\n", omittingEmptySubsequences: false)
        let changed = lines.filter { ($0.hasPrefix("+") || $0.hasPrefix("-")) && !$0.hasPrefix("+++") && !$0.hasPrefix("---") }.count
        // Each prompt that drifted: a diff's header, or compile --check's line for a prompt
        // that is not committed or that no variant declares (no diff lines of its own).
        let prompts = lines.filter { $0.hasPrefix("--- ") || $0.hasPrefix("missing: ") || $0.hasPrefix("orphaned: ") }.count
        let summary = prompts == 0 ? "\(changed) lines" : "\(prompts) prompt\(prompts == 1 ? "" : "s")" + (changed > 0 ? ", \(changed) lines" : "")
        let open = "\n<details><summary>Compiled prompts changed (\(summary))</summary>\n\n```diff\n"
        let close = "\n```\n</details>\n"
        let cut = "\n… (cut; the job log has the whole diff)"
        let space = room - open.utf8.count - close.utf8.count - cut.utf8.count
        guard space > 0 else { return "" }
        var diff = promptDiff.replacingOccurrences(of: "```", with: "`\u{200B}``")
        if diff.utf8.count > space {
            var kept = Substring(diff).utf8.prefix(space)
            // Back to a whole character.
            while String(kept) == nil, !kept.isEmpty { kept = kept.dropLast() }
            diff = (String(kept) ?? "") + cut
        }
        return open + diff + close
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
