import CoachLab
import Foundation

extension Reporters {
    /// `coachlab runs`: one row per stored run, in the order given (the store's is newest
    /// first), with its status, counts and the suites' file names.
    public static func runs(_ runs: [ResultStore.RunInfo]) -> String {
        var rows = [["RUN", "STARTED", "STATUS", "CASES", "PASS", "FAIL", "ERROR", "SUITES"]]
        for run in runs {
            rows.append([run.id, String(run.startedAt.prefix(19)), run.status, "\(run.cases)", "\(run.passed)", "\(run.failed)",
                         "\(run.errors)", run.suites.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: ",")])
        }
        return TextTable.text(rows)
    }

    /// `coachlab runs --trend`: per suite and provider, each run's pass rate with its 95%
    /// interval, the change in points from the run before that had a rate, errors, cost and
    /// p95 latency, oldest first.
    public static func trends(_ trends: Trends) -> String {
        var out = ""
        for (suite, provider, points) in trends.series {
            out += "\(suite) on \(provider)\n"
            var rows = [["RUN", "STARTED", "CASES", "PASS RATE (95% CI)", "", "ERRORS", "COST", "LATENCY p95"]]
            var previous: Double?
            for point in points {
                let rate = point.passRate
                let change = previous.map { rate.total == 0 ? "" : String(format: "%+.1f", (rate.rate - $0) * 100) } ?? ""
                rows.append([point.run, String(point.startedAt.prefix(16)).replacingOccurrences(of: "T", with: " "), "\(point.cases)",
                             rate.total == 0 ? "–" : String(format: "%.1f%% (%.0f-%.0f%%)", rate.rate * 100, rate.wilson.low * 100, rate.wilson.high * 100),
                             change, "\(point.errors)", point.cost.map { String(format: "$%.4f", $0) } ?? "–",
                             point.p95Latency.map { String(format: "%.2f s", $0) } ?? "–"])
                if rate.total > 0 { previous = rate.rate }
            }
            out += TextTable.lines(rows).map { "  " + $0 }.joined(separator: "\n") + "\n\n"
        }
        return out.isEmpty ? "no runs in the store yet; coachlab eval makes one\n" : out
    }
}
