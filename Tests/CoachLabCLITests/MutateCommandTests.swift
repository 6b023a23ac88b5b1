import Foundation
import Testing

@Suite struct MutateCommandTests {
    /// Luna's renamed persona is caught by its greeting fixture; the gate, the JSON and the
    /// Markdown all say so.
    @Test func gatesAndWritesReports() async throws {
        let directory = try CLI.temporaryDirectory()
        let result = try await CLI.run(["mutate", "--pack", "luna", "--operator", "rename", "--operator", "invite-leak",
                                  "--fail-under", "0.9", "--json", directory + "/m.json", "--markdown", directory + "/m.md"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("luna     2        2       0     0         0           0       100.0%  ok"), "\(result.stdout)")
        #expect(result.stderr.contains("2 mutants in"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/m.json"))) as? [String: Any]
        let mutants = try #require(json?["mutants"] as? [[String: Any]])
        #expect(mutants.map { $0["verdict"] as? String } == ["killed", "killed"])
        #expect((mutants.first?["caughtBy"] as? String)?.hasPrefix("luna/luna-") == true)
        #expect(try String(contentsOfFile: directory + "/m.md", encoding: .utf8).hasPrefix("# Mutation score"))
    }

    @Test func aScoreBelowTheGateExits1() async throws {
        // One survivor of one mutant: a score of 0 for the pack.
        let result = try await CLI.run(["mutate", "--pack", "luna", "--operator", "drop-alert-line", "--fail-under", "1"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("BELOW 100.0%"))
        #expect(result.stdout.contains("survivors:"))
        #expect(result.stdout.contains("personas/luna/rules.yaml:"))
    }

    @Test func badArgumentsAreUsageErrors() async throws {
        let unknown = try await CLI.run(["mutate", "--operator", "drop-everything"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown operator 'drop-everything'"))
        #expect(try await CLI.run(["mutate", "--fail-under", "1.5"]).status == 2)
        let nothing = try await CLI.run(["mutate", "--pack", "no-such-pack"])
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("no mutants"))
    }
}
