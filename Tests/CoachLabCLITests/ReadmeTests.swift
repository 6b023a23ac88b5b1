import Foundation
import Testing

/// The README's sample output is what the command prints: each line of its `swift run coachlab
/// eval` table (an ellipsis stands for the rows left out) is a line of the real table.
@Suite struct ReadmeTests {
    @Test func theSampleEvalTableIsTheRealOne() async throws {
        let readme = try String(contentsOfFile: CLI.root + "/README.md", encoding: .utf8)
        let blocks = readme.components(separatedBy: "```")
        let sample = try #require(blocks.first { $0.hasPrefix("\nSUITE ") || $0.hasPrefix("\nSUITE  ") }, "the README shows the eval table")
        let eval = try await CLI.run(["eval"])
        #expect(eval.status == 0, "\(eval.stderr)")
        let real = Set((eval.stdout + eval.stderr).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let shown = sample.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "…" }
        #expect(shown.count >= 4)
        for line in shown {
            #expect(real.contains(line), "README shows \"\(line)\", which `coachlab eval` does not print")
        }
    }
}
