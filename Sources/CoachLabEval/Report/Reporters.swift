import CoachLab
import Foundation

/// Reporters: pure renderers, one per format (terminal, comparison, guardrail scores,
/// red-team tables, JSON, JUnit, Markdown; the HTML page is ``HTMLReport``). JSON and JUnit
/// list every case, so they write through `write` a piece at a time while the report reads
/// cases in batches; the `String` forms collect the pieces. Each is pinned by a golden file.
public enum Reporters {
    /// How the JSON report opens, which tells a report from any other file at its path.
    public static let jsonOpening = "{\n  \"cases\" : ["
    /// How the JUnit report opens.
    public static let junitOpening = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"coachlab\""
    /// The Markdown summary's heading.
    public static let markdownHeading = "## CoachLab eval\n"

    /// JSON with sorted keys: `cases` (every case), `prices` (when the run kept them), `run`, `suites` and `totals`.
    public static func json(_ report: RunReport, to write: (String) throws -> Void) throws {
        let encoder = JSONEncoder.sorted(pretty: true)
        try write(jsonOpening)
        var first = true
        try report.forEachBatch { batch in
            for text in try cases(batch, indent: 4) {
                try write((first ? "\n    " : ",\n    ") + text)
                first = false
            }
        }
        try write((first ? "" : "\n  ") + "],\n")
        if let prices = report.prices { try write("  \"prices\" : " + indented(encoder.encode(prices), indent: "  ") + ",\n") }
        try write("  \"run\" : " + indented(encoder.encode(report.run), indent: "  ") + ",\n")
        try write("  \"suites\" : " + indented(encoder.encode(report.suites), indent: "  ") + ",\n")
        try write("  \"totals\" : " + indented(encoder.encode(report.totals), indent: "  ") + "\n}\n")
    }

    /// Pretty-printed JSON nested by indenting each of its lines. A line feed in encoded JSON is
    /// always layout, since one inside a string is written `\n`.
    private static func indented(_ data: Data, indent: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count + data.count / 8)
        data.withUnsafeBytes { data in
            for byte in data {
                bytes.append(byte)
                if byte == UInt8(ascii: "\n") { bytes.append(contentsOf: indent.utf8) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Each case's JSON, indented, in order. One thread writes them: sharing a batch between
    /// the cores saved 20-40 ms on 10,000 cases but took 2-3 MB more memory.
    private static func cases(_ results: [CaseResult], indent: Int) throws -> [String] {
        try results.map { try CaseJSON.text($0, indent: indent) }
    }

    public static func json(_ report: RunReport) throws -> String { try collect { try json(report, to: $0) } }

    /// JUnit XML: one testsuite per suite, one testcase per case × provider × repeat.
    public static func junit(_ report: RunReport, to write: (String) throws -> Void) throws {
        let escape = Markup.escape
        try write(junitOpening + " tests=\"\(report.totals.cases)\" failures=\"\(report.totals.failed)\" errors=\"\(report.totals.errors)\">\n")
        let summaries = Dictionary(report.suites.map { ($0.suite, $0) }) { first, _ in first }
        var open: String?
        try report.forEachCase { result in
            if open != result.suite {
                if open != nil { try write("  </testsuite>\n") }
                open = result.suite
                let summary = summaries[result.suite]
                try write("  <testsuite name=\"\(escape(result.suite))\" tests=\"\(summary?.cases ?? 0)\" failures=\"\(summary?.failed ?? 0)\" errors=\"\(summary?.errors ?? 0)\">\n")
            }
            let time = String(format: "%.3f", result.turns.reduce(0) { $0 + $1.latency })
            let name = "\(result.fixture) [\(result.provider)]" + ((summaries[result.suite]?.repeats ?? 1) > 1 ? " #\(result.repeatIndex)" : "")
            var xml = "    <testcase classname=\"\(escape(result.suite))\" name=\"\(escape(name))\" time=\"\(time)\""
            switch result.outcome {
            case .pass:
                xml += "/>\n"
            case .fail:
                let lines = result.failures.map { "turn \($0.turn): \($0.check.check): \($0.check.reason)" }
                xml += ">\n      <failure message=\"\(escape(lines.first ?? "failed"))\">\(escape(lines.joined(separator: "\n")))</failure>\n    </testcase>\n"
            case .error:
                xml += ">\n      <error message=\"\(escape(result.error ?? "error"))\"/>\n    </testcase>\n"
            }
            try write(xml)
        }
        if open != nil { try write("  </testsuite>\n") }
        try write("</testsuites>\n")
    }

    public static func junit(_ report: RunReport) throws -> String { try collect { try junit(report, to: $0) } }

    private static func collect(_ render: ((String) throws -> Void) throws -> Void) throws -> String {
        var out = ""
        try render { out += $0 }
        return out
    }

    /// Markdown for a CI job summary.
    public static func markdown(_ report: RunReport) -> String {
        var out = markdownSummary(report)
        let failures = markdownFailures(report)
        if !failures.isEmpty { out += "\n### Failing cases\n\n" + failures.joined() }
        return out
    }

    /// The heading, a note when the run did not run to its end, the suites' table, and the
    /// notes on costs, the cache and repeats.
    static func markdownSummary(_ report: RunReport) -> String {
        var out = markdownHeading
        if let note = report.incompleteNote { out += "\n> ⚠️ **Incomplete.** \(note)\n" }
        out += "\n| suite | cases | pass | fail | error | pass rate (95% CI) | threshold | |\n|---|---:|---:|---:|---:|---|---:|---|\n"
        for summary in report.suites {
            let verdict = !report.isComplete ? "⚠️ incomplete" : summary.held ? "✅" : "❌"
            out += "| \(MarkdownText.cell(summary.suite)) | \(summary.cases) | \(summary.passed) | \(summary.failed) | \(summary.errors) | "
            out += String(format: "%.1f%% (%.1f–%.1f%%)", summary.passRate * 100, summary.wilsonLow * 100, summary.wilsonHigh * 100)
            out += String(format: " | %.0f%% | %@ |\n", summary.threshold * 100, verdict)
        }
        if let prices = report.prices { out += "\n_Costs use \(prices.summary)._\n" }
        if report.totals.cachedReplies > 0 {
            out += "\n_\(report.totals.cachedReplies) replies came from the response cache, not the provider._\n"
        }
        let repeated = report.suites.filter { $0.repeats > 1 && $0.cases > 0 }
        if !repeated.isEmpty {
            out += "\n### Repeats\n\n| suite | repeats | pass^N (every repeat passed) | pass@N (one passed) | flaky |\n|---|---:|---:|---:|---|\n"
            for summary in repeated {
                out += String(format: "| %@ | %d | %.1f%% | %.1f%% | ", MarkdownText.cell(summary.suite), summary.repeats, summary.passAllRepeats * 100,
                              summary.passAnyRepeat * 100)
                out += (summary.flaky.isEmpty ? "none" : summary.flaky.map { MarkdownText.inert($0) }.joined(separator: ", ")) + " |\n"
            }
        }
        return out
    }

    /// One line for each failing check and each errored case. The reasons and errors are model,
    /// judge, script and provider text, so they render inert (``MarkdownText/inert(_:limit:)``).
    static func markdownFailures(_ report: RunReport) -> [String] {
        var lines: [String] = []
        for result in report.notPassing {
            let id = MarkdownText.inert(result.id, limit: 200)
            if result.outcome == .error {
                lines.append("- **\(id)** error: \(MarkdownText.inert(result.error ?? ""))\n")
            } else {
                for failure in result.failures {
                    lines.append("- **\(id)** turn \(failure.turn) \(MarkdownText.inert(failure.check.check, limit: 100)): \(MarkdownText.inert(failure.check.reason))\n")
                }
            }
        }
        return lines
    }
}
