import CoachLab
import Foundation

extension Reporters {
    /// The terminal view of a run: a row per suite with its pass rate, 95% Wilson interval and
    /// threshold, then every case that did not pass with its reasons, repeats and flaky cases.
    public static func terminal(_ report: RunReport, colour: Bool) -> String {
        func paint(_ text: String, _ code: String) -> String { colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        var rows = [["SUITE", "CASES", "PASS", "FAIL", "ERROR", "PASS RATE (95% CI)", "THRESHOLD", ""]]
        for summary in report.suites {
            guard summary.cases > 0 else {
                rows.append([summary.suite, "0", "0", "0", "0", "–", String(format: "%.0f%%", summary.threshold * 100), "no cases"])
                continue
            }
            rows.append([summary.suite, "\(summary.cases)", "\(summary.passed)", "\(summary.failed)", "\(summary.errors)",
                         String(format: "%.1f%% (%.0f-%.0f%%)", summary.passRate * 100, summary.wilsonLow * 100, summary.wilsonHigh * 100),
                         String(format: "%.0f%%", summary.threshold * 100), summary.held ? "ok" : "MISSED"])
        }
        var out = ""
        for (index, var line) in TextTable.lines(rows).enumerated() {
            if index > 0 { line = line.replacingOccurrences(of: " ok", with: " " + paint("ok", "32")).replacingOccurrences(of: "MISSED", with: paint("MISSED", "1;31")) }
            out += line + "\n"
        }
        if !report.notPassing.isEmpty {
            out += "\n"
            for result in report.notPassing {
                if result.outcome == .error {
                    out += paint("ERROR", "1;35") + " \(result.id): \(result.error ?? "")\n"
                    continue
                }
                out += paint("FAIL", "1;31") + " \(result.id)\n"
                for failure in result.failures {
                    let simulated = result.turns.first { $0.turn == failure.turn }?.simulated == true
                    out += "  turn \(failure.turn)\(simulated ? " (simulated user)" : "") \(failure.check.check): \(failure.check.reason)\n"
                }
            }
        }
        for summary in report.suites where summary.repeats > 1 && summary.cases > 0 {
            out += String(format: "%@ over %d repeats: pass^%d %.1f%% (every repeat passed), pass@%d %.1f%% (at least one did)\n",
                          summary.suite, summary.repeats, summary.repeats, summary.passAllRepeats * 100, summary.repeats,
                          summary.passAnyRepeat * 100)
        }
        for summary in report.suites where !summary.flaky.isEmpty {
            out += "flaky in \(summary.suite): \(summary.flaky.joined(separator: ", "))\n"
        }
        out += String(format: "\n%d cases: %d passed, %d failed, %d errors\n", report.totals.cases, report.totals.passed,
                      report.totals.failed, report.totals.errors)
        if report.totals.cachedReplies > 0 {
            out += "\(report.totals.cachedReplies) replies came from the response cache (--no-cache to ask the provider again)\n"
        }
        return out
    }
}
