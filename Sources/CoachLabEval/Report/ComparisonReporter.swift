import CoachLab
import Foundation

extension Reporters {
    /// The terminal view: a summary per provider, then every case with a cell per provider.
    public static func comparison(_ matrix: ComparisonMatrix) -> String {
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.2f s", $0) } ?? "–" }
        var summary = [["PROVIDER", "CASES", "PASS RATE (95% CI)", "ERRORS", "LATENCY p50", "p95", "TTFT p50", "TOKENS", "COST"]]
        for column in matrix.columns {
            let s = column.summary
            summary.append([column.label, "\(s.cases)",
                            String(format: "%.1f%% (%.0f-%.0f%%)", s.passRate * 100, s.wilsonLow * 100, s.wilsonHigh * 100),
                            "\(s.errors)", seconds(s.medianLatency), seconds(s.p95Latency), seconds(s.medianTimeToFirstToken),
                            "\(s.inputTokens + s.outputTokens)\(s.tokensEstimated ? " (est.)" : "")",
                            s.cost.map { String(format: "$%.4f", $0) } ?? "–"])
        }
        var cases = [["CASE"] + matrix.columns.map(\.label)]
        var failures: [String] = []
        for row in matrix.rows {
            cases.append([row.key] + matrix.columns.indices.map { index in
                guard let cell = row.cells[index] else { return "–" }
                return cell.outcome.rawValue.uppercased() + String(format: " %.2f s", cell.turns.reduce(0) { $0 + $1.latency })
            })
            for (index, column) in matrix.columns.enumerated() {
                guard let cell = row.cells[index] else { continue }
                if cell.outcome == .error { failures.append("\(column.label): ERROR \(row.key): \(cell.error ?? "")") }
                for failure in cell.failures {
                    failures.append("\(column.label): FAIL \(row.key) turn \(failure.turn) \(failure.check.check): \(failure.check.reason)")
                }
            }
        }
        var out = TextTable.lines(summary).joined(separator: "\n") + "\n\n" + TextTable.lines(cases).joined(separator: "\n") + "\n"
        if !failures.isEmpty { out += "\n" + failures.joined(separator: "\n") + "\n" }
        for run in matrix.runs { if let sheet = matrix.prices[run] { out += "\n" + (matrix.runs.count > 1 ? "\(run): " : "") + sheet.summary } }
        return out + "\n"
    }
}
