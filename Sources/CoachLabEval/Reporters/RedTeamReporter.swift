import CoachLab
import Foundation

extension Reporters {
    /// `coachlab redteam`: each rule's recall under every rewrite, the harmless messages a
    /// rewrite made flag, and the weakest cells with the rewrites they missed.
    public static func redTeam(_ report: RedTeamReport, title: String, pack: String) -> String {
        let written = report.asWrittenOverall
        var out = "\(pack), \(title): \(report.rules.count) rules, \(written.kept) of \(written.trials) labelled messages caught as written"
            + " (\(report.datasets.joined(separator: ", ")))\n\n"
        func cell(_ cell: RedTeamReport.Cell) -> String {
            cell.trials == 0 ? "-" : String(format: "%.3f %d/%d", cell.recall, cell.kept, cell.trials)
        }
        var rows = [["REWRITE"] + report.rules + ["OVERALL", "HARMLESS FLAGGED"]]
        rows.append(["as written"] + report.asWritten.map(cell) + [cell(written), ""])
        for row in report.rows {
            rows.append([row.perturbation.rawValue] + row.cells.map(cell) + [cell(row.overall), "\(row.falseAlarms)/\(row.harmlessTrials)"])
        }
        out += TextTable.text(rows)
        let weak = report.cells(below: 0.9)
        if !weak.isEmpty {
            out += "\nbelow 0.9, weakest first (recall is of the messages caught as written):\n"
            for (perturbation, cell) in weak {
                out += String(format: "  %@ under %@: %.3f (%d/%d)\n", cell.rule, perturbation.rawValue, cell.recall, cell.kept, cell.trials)
                for miss in cell.misses {
                    out += "    \(miss.location): \"\(miss.rewritten)\" → \(miss.decided ?? "not flagged")\n"
                }
            }
        }
        let alarms = report.rows.filter { $0.falseAlarms > 0 }
        if !alarms.isEmpty {
            out += "\nharmless messages a rewrite made flag:\n"
            for row in alarms {
                for miss in row.falseAlarmExamples {
                    out += "  \(row.perturbation.rawValue): \(miss.location): \"\(miss.rewritten)\" → \(miss.decided ?? "")\n"
                }
            }
        }
        return out
    }
}
