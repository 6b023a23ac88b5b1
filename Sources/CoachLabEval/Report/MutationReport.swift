import CoachLab
import Foundation

/// Renders a mutation run: the terminal table, Markdown and JSON. Pure.
public enum MutationReport {
    /// The per-pack and per-operator tables, then every survivor with its location, the text
    /// before and after, and a hint.
    public static func terminal(_ summary: MutationSummary, failUnder: Double? = nil, verbose: Bool = false) -> String {
        var out = table(["PACK", "MUTANTS", "KILLED", "LINT", "SURVIVED", "EQUIVALENT", "UNREAD", "SCORE"],
                        summary.packs.map { pack in row(name(pack), summary.counts(pack: pack), failUnder) }
                            + [row("overall", summary.counts(), nil)])
        out += "\n"
        let operators = Mutant.Operator.allCases.filter { op in summary.results.contains { $0.operator == op } }
        out += table(["OPERATOR", "MUTANTS", "KILLED", "LINT", "SURVIVED", "EQUIVALENT", "UNREAD", "SCORE"], operators.map { op in
            row(op.rawValue, MutationSummary(results: summary.results.filter { $0.operator == op }).counts(), nil)
        })
        let overall = summary.counts()
        if overall.unread > 0 {
            out += "\n\(overall.unread) mutant\(overall.unread == 1 ? "" : "s") changed an instruction line the mock cannot read (UNREAD); "
                + "the score covers only the lines it reads. Counting them as not caught: \(percent(overall.scoreCountingUnread)).\n"
        }
        let survivors = summary.results.filter { $0.verdict == .survived || $0.verdict == .unread }
        if !survivors.isEmpty {
            out += "\n\(survivors.count) survivors:\n"
            for survivor in survivors { out += describe(survivor) }
        }
        if verbose {
            for result in summary.results where result.verdict == .killed || result.verdict == .lint {
                out += "\(result.verdict.rawValue.uppercased()) \(result.id) \(result.location): \(result.description)\n    by \(result.caughtBy ?? "")\n"
            }
        }
        return out
    }

    /// The Markdown report's heading.
    public static let markdownHeading = "# Mutation score\n"
    /// How the JSON report opens (its keys are sorted).
    public static let jsonOpening = "{\n  \"mutants\" : ["

    /// A Markdown summary: the per-pack table and the survivors.
    public static func markdown(_ summary: MutationSummary) -> String {
        var out = markdownHeading + "\n| pack | mutants | killed | lint | survived | equivalent | unread | score |\n|---|---|---|---|---|---|---|---|\n"
        for (label, counts) in summary.packs.map({ (name($0), summary.counts(pack: $0)) }) + [("**overall**", summary.counts())] {
            out += "| \(label) | \(counts.scored + counts.equivalent + counts.unread) | \(counts.killed) | \(counts.lint) | \(counts.survived) | \(counts.equivalent) | \(counts.unread) | \(percent(counts.score)) |\n"
        }
        if summary.counts().unread > 0 {
            out += "\nUnread mutants changed an instruction line the mock cannot read; the score covers only the lines it reads "
                + "(\(percent(summary.counts().scoreCountingUnread)) counting them as not caught).\n"
        }
        let survivors = summary.results.filter { $0.verdict == .survived || $0.verdict == .unread }
        if !survivors.isEmpty {
            out += "\n## Survivors\n\n| mutant | where | what | before | after |\n|---|---|---|---|---|\n"
            for survivor in survivors {
                out += "| `\(survivor.id)` | `\(survivor.location)` | \(cell(survivor.description)) | \(cell(survivor.before)) | \(cell(survivor.after)) |\n"
            }
        }
        return out
    }

    /// JSON with sorted keys: the counts per pack and overall, and every mutant.
    public static func json(_ summary: MutationSummary) throws -> String {
        struct Document: Encodable {
            var packs: [String: MutationSummary.Counts]
            var overall: MutationSummary.Counts
            var mutants: [MutantResult]
        }
        let document = Document(packs: Dictionary(uniqueKeysWithValues: summary.packs.map { ($0, summary.counts(pack: $0)) }),
                                overall: summary.counts(), mutants: summary.results)
        let encoder = JSONEncoder.sorted(pretty: true)
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    static func describe(_ survivor: MutantResult) -> String {
        var out = "  \(survivor.location)  \(survivor.id): \(survivor.description)\n"
        if !survivor.before.isEmpty { out += "    before: \(survivor.before)\n" }
        out += "    after:  \(survivor.after.isEmpty ? "(removed)" : survivor.after)\n"
        if let hint = survivor.hint { out += "    hint:   \(hint)\n" }
        return out
    }

    static func row(_ label: String, _ counts: MutationSummary.Counts, _ failUnder: Double?) -> [String] {
        let mark = failUnder.map { counts.score >= $0 ? "ok" : "BELOW \(percent($0))" } ?? ""
        return [label, "\(counts.scored + counts.equivalent + counts.unread)", "\(counts.killed)", "\(counts.lint)", "\(counts.survived)",
                "\(counts.equivalent)", "\(counts.unread)", percent(counts.score) + (mark.isEmpty ? "" : "  " + mark)]
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }

    static func name(_ pack: String) -> String { String(pack.split(separator: "/").last ?? Substring(pack)) }
    static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
}
