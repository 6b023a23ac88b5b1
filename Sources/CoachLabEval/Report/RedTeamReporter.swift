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

extension Reporters {
    /// `coachlab redteam --format json`: the pack, stage 1's report as `stage1`, and the two
    /// stages together as `combined` when stage 2 ran. `reports` are titled as for the text
    /// report, stage 1's first.
    public static func redTeamJSON(_ reports: [(title: String, report: RedTeamReport)], pack: String) throws -> String {
        var object: [String: JSONValue] = ["pack": .string(pack)]
        for (index, (_, report)) in reports.enumerated() {
            let data = try JSONEncoder.sorted(pretty: false).encode(report)
            object[index == 0 ? "stage1" : "combined"] = try JSONValue.parse(data)
        }
        return JSONValue.object(object).prettyText + "\n"
    }
}
