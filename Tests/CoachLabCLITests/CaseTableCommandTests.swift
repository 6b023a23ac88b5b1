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
}
