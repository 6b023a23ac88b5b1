import Foundation
import Testing
import CoachLabTestSupport

/// A suite's `cases:` from a spreadsheet, run and linted from a project made by `init`.
@Suite struct CaseTableCommandTests {
    @Test func aSpreadsheetsRowsRunAsCasesAndItsMistakesFailLint() async throws {
        let directory = try CLI.temporaryDirectory()
        #expect(try await CLI.run(["init", "--app", "x"], in: directory).status == 0)
        try """
            id,pack,message,not-flagged,flagged
            hello,personas/x,"Hi, who are you?",yes,
            crisis,personas/x,I want to end my life,,crisis
            """.write(toFile: directory + "/fixtures/x/cases.csv", atomically: true, encoding: .utf8)
        try "suite:\n  id: cases\ncases: [fixtures/x/cases.csv]\n".write(toFile: directory + "/evals/cases.yaml", atomically: true, encoding: .utf8)
        #expect(try await CLI.run(["lint"], in: directory).status == 0)
        let run = try await CLI.run(["eval", "evals/cases.yaml"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2 cases: 2 passed"), "\(run.stdout)")
        // A rule the pack lacks, in a cell: lint says where.
        try "message,pack,flagged\nhi,personas/x,crissis\n".write(toFile: directory + "/fixtures/x/cases.csv", atomically: true, encoding: .utf8)
        let lint = try await CLI.run(["lint"], in: directory)
        let said = lint.stdout + lint.stderr
        #expect(lint.status == 2 && said.contains("fixtures/x/cases.csv:2:15: error: rule 'crissis' does not exist in pack 'x'"), "\(said)")
        #expect(said.contains("did you mean 'crisis'?"))
    }

    /// A thousand rows in each format run as one suite, and a bad row deep in the file is named by its line.
    @Test func aThousandRowsOfCSVAndOfJSONLRunAsASuite() async throws {
        let directory = try CLI.temporaryDirectory()
        #expect(try await CLI.run(["init", "--app", "x"], in: directory).status == 0)
        let topics = ["sleep", "work", "a friend", "my exams", "moving house"]
        var csv = "id,pack,message,not-flagged,flagged,tags\n"
        var jsonl = ""
        for row in 1...1000 {
            let crisis = row % 50 == 0
            let message = crisis ? "I want to end my life (\(row))" : "Can we talk about \(topics[row % topics.count]), number \(row)?"
            csv += "csv-\(row),personas/x,\"\(message)\",\(crisis ? "" : "yes"),\(crisis ? "crisis" : ""),\(crisis ? "safety" : "smalltalk")\n"
            jsonl += #"{"id": "jsonl-\#(row)", "pack": "personas/x", "message": "\#(message)", \#(crisis ? #""flagged": "crisis""# : #""not-flagged": true"#)}"# + "\n"
        }
        try csv.write(toFile: directory + "/fixtures/x/cases.csv", atomically: true, encoding: .utf8)
        try jsonl.write(toFile: directory + "/fixtures/x/cases.jsonl", atomically: true, encoding: .utf8)
        try "suite:\n  id: cases\ncases: [fixtures/x/cases.csv, fixtures/x/cases.jsonl]\n".write(toFile: directory + "/evals/cases.yaml", atomically: true, encoding: .utf8)
        let run = try await CLI.run(["eval", "evals/cases.yaml", "--json", "cases.json"], in: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2000 cases: 2000 passed"), "\(run.stdout)")
        // Row 734 of the JSONL (line 734) and of the CSV (line 735, after the header) broken.
        var lines = jsonl.split(separator: "\n").map(String.init)
        lines[733] = #"{"id": "jsonl-734", "pack": "personas/x", "mesage": "hi"}"#
        try (lines.joined(separator: "\n") + "\n").write(toFile: directory + "/fixtures/x/cases.jsonl", atomically: true, encoding: .utf8)
        var rows = csv.split(separator: "\n").map(String.init)
        rows[734] = "csv-734,personas/x,\"never closed"
        try (rows.joined(separator: "\n") + "\n").write(toFile: directory + "/fixtures/x/cases.csv", atomically: true, encoding: .utf8)
        let lint = try await CLI.run(["lint"], in: directory)
        let said = lint.stdout + lint.stderr
        #expect(lint.status == 2, "\(said)")
        #expect(said.contains("fixtures/x/cases.jsonl:734:"), "\(said)")
        #expect(said.contains("fixtures/x/cases.csv:735:"), "\(said)")
    }
}
