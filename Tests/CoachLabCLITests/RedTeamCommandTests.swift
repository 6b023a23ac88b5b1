import Foundation
import Testing

@Suite struct RedTeamCommandTests {
    @Test func reportsEachRuleUnderEachRewriteForAShippedPack() async throws {
        let result = try await CLI.run(["redteam", "personas/luna"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("personas/luna, stage 1: 2 rules"))
        #expect(result.stdout.contains("(luna-test test, luna-guardrails dev)"))
        for row in ["as written", "typo", "homoglyph", "third-person"] {
            #expect(result.stdout.contains("\n\(row) "), "\(row)")
        }
        #expect(result.stdout.contains("REWRITE") && result.stdout.contains("crisis") && result.stdout.contains("HARMLESS FLAGGED"))
    }

    /// Which cells a gate fails on is tested in FailUnderTests; this is the exit code and the
    /// lines on stderr.
    @Test func aMissedGateExits1AndSaysWhere() async throws {
        // Joined words ("killmyself") are a known weakness: a gate of 1 on spacing fails and says where.
        let failed = try await CLI.run(["redteam", "personas/luna", "--perturbation", "spacing", "--fail-under", "spacing=1"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("fail-under: crisis under spacing: recall"), "\(failed.stderr)")
    }

    @Test func badInputIsAClearError() async throws {
        let unknown = try await CLI.run(["redteam", "personas/luna", "--perturbation", "rot13"])
        #expect(unknown.status == 2, "\(unknown.status)")
        #expect(unknown.stderr.contains("rot13"))
        let gate = try await CLI.run(["redteam", "personas/luna", "--fail-under", "typo=2"])
        #expect(gate.stderr.contains("--fail-under 'typo=2'"))
        let none = try await CLI.run(["redteam", "personas/kindred"])
        #expect(none.status == 0 && none.stdout.contains("no guardrail rules"))
    }

    @Test func paraphrasesFromAProviderAreMeasuredAndWrittenForReviewButNeverOverTheSameFile() async throws {
        let directory = try CLI.temporaryDirectory()
        let out = directory + "/luna-paraphrases.yaml"
        let result = try await CLI.run(["redteam", "personas/luna", "--split", "test", "--paraphrase", "2", "--paraphrase-out", out])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\nparaphrase "), "\(result.stdout)")
        #expect(result.stderr.contains("paraphrases to \(out) for review"))
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(written.contains("Paraphrases written by mock, for review"))
        #expect(written.contains("split: dev"))
        // The written set is a labelled set guard reads, labelled with the originals' rules.
        let guarded = try await CLI.run(["guard", "--dataset", out])
        #expect(guarded.status == 0, "\(guarded.stderr)")
        #expect(guarded.stdout.contains("crisis") && guarded.stdout.contains("no-medical-advice"))

        // A second run refuses the file and leaves it as it was.
        try (written + "# reviewed\n").write(toFile: out, atomically: true, encoding: .utf8)
        let again = try await CLI.run(["redteam", "personas/luna", "--paraphrase", "2", "--paraphrase-out", out])
        #expect(again.status == 2)
        #expect(again.stderr.contains("exists"), "\(again.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasSuffix("# reviewed\n"))

        let orphan = try await CLI.run(["redteam", "personas/luna", "--paraphrase-out", directory + "/other.yaml"])
        #expect(orphan.status == 2 && orphan.stderr.contains("--paraphrase-out needs --paraphrase N"))
        let alone = try await CLI.run(["redteam", "personas/luna", "--perturbation", "paraphrase"])
        #expect(alone.status == 2 && alone.stderr.contains("--perturbation paraphrase needs --paraphrase N"))
    }
}
