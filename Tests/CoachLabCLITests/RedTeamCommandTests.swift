import Foundation
import Testing

@Suite struct RedTeamCommandTests {
    @Test func reportsEachRuleUnderEachRewriteForAShippedPack() throws {
        let result = try CLI.run(["redteam", "personas/luna"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("personas/luna, stage 1: 2 rules"))
        #expect(result.stdout.contains("(luna-test test, luna-guardrails dev)"))
        for row in ["as written", "typo", "homoglyph", "third-person"] {
            #expect(result.stdout.contains("\n\(row) "), "\(row)")
        }
        #expect(result.stdout.contains("REWRITE") && result.stdout.contains("crisis") && result.stdout.contains("HARMLESS FLAGGED"))
    }

    @Test func failUnderGatesOneRewriteOrAll() throws {
        // Joined words ("killmyself") are a known weakness: a gate of 1 on spacing fails and says where.
        let failed = try CLI.run(["redteam", "personas/luna", "--perturbation", "spacing", "--fail-under", "spacing=1"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("fail-under: crisis under spacing: recall"), "\(failed.stderr)")
        // Case changes nothing the screen reads, so it holds a gate of 1.
        let held = try CLI.run(["redteam", "personas/luna", "--perturbation", "case", "--fail-under", "1"])
        #expect(held.status == 0, "\(held.stderr)")

        let json = try CLI.run(["redteam", "personas/ticbuddy", "--perturbation", "homoglyph", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let stage1 = try #require(object["stage1"] as? [String: Any])
        let rows = try #require(stage1["rows"] as? [[String: Any]])
        #expect(rows.count == 1 && rows[0]["perturbation"] as? String == "homoglyph")
        #expect((rows[0]["cells"] as? [[String: Any]])?.map { $0["rule"] as? String } == ["child-in-danger", "medical-questions"])
    }

    @Test func badInputIsAClearError() throws {
        let unknown = try CLI.run(["redteam", "personas/luna", "--perturbation", "rot13"])
        #expect(unknown.status == 2, "\(unknown.status)")
        #expect(unknown.stderr.contains("rot13"))
        let gate = try CLI.run(["redteam", "personas/luna", "--fail-under", "typo=2"])
        #expect(gate.stderr.contains("--fail-under 'typo=2'"))
        let none = try CLI.run(["redteam", "personas/kindred"])
        #expect(none.status == 0 && none.stdout.contains("no guardrail rules"))
    }
}
