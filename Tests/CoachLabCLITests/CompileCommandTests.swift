import Foundation
import Testing
import CoachLabTestSupport

@Suite struct CompileCommandTests {
    static let flagged = ["compile", "personas/betterone", "--topic", "goal-setting", "--intent", "next_step",
                          "--profile", "freelance-designer", "--screen", "Do I have ADHD? I can't focus on anything."]

    @Test func printsTheSixLayersInOrderWithTheRiskAlertLast() async throws {
        let result = try await CLI.run(Self.flagged)
        #expect(result.status == 0, "\(result.stderr)")
        let headers = result.stdout.split(separator: "\n").filter { $0.hasPrefix("=== ") }
        #expect(headers == ["=== Rules of Engagement ===", "=== Persona Identity ===", "=== Topic Context + Intent ===",
                            "=== Follower Profile ===", "=== Knowledge Base ===", "=== Response Instructions ===",
                            "=== RISK ALERT (active for this response) ==="])
        #expect(result.stdout.contains("Trigger: rule_based — No mental health diagnosis"))
    }

    /// The layers without an alert, and the JSON and Markdown forms, are tested in
    /// BetterOneTests and CompiledPromptFormatTests; this is --format.
    @Test func jsonIsTheFormatAsked() async throws {
        let result = try await CLI.run(Self.flagged + ["--format", "json"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((json["layers"] as? [[String: Any]])?.count == 6)
    }

    /// `--format mock --screen` tells the mock which lines the flag added, as a run does, so an
    /// alert no title marks is shown as read.
    @Test func theMockViewReadsWhatTheFlagAdded() async throws {
        let directory = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/kai", withIntermediateDirectories: true)
        try TestPacks.plainAlert.write(toFile: directory + "/kai/pack.yaml", atomically: true, encoding: .utf8)
        let flagged = try await CLI.run(["compile", "kai", "--format", "mock", "--screen", "I want to hurt myself"], in: directory)
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(flagged.stdout.contains("alert = a RISK ALERT is active"), "\(flagged.stdout)")
        #expect(flagged.stdout.contains("Please ring Samaritans on 116 123 tonight"))
        let calm = try await CLI.run(["compile", "kai", "--format", "mock", "--screen", "I had a long day"], in: directory)
        #expect(!calm.stdout.contains("RISK ALERT"))
    }

    @Test func profileFromAFileAndTheLocalTime() async throws {
        let directory = try CLI.temporaryDirectory()
        let profile = directory + "/sam.yaml"
        try "nickname: Sam\nage: 8\nprimaryTics: [Head jerking or nodding]\n".write(toFile: profile, atomically: true, encoding: .utf8)
        let tic = try await CLI.run(["compile", "personas/ticbuddy", "--topic", "competing-responses", "--profile", profile])
        #expect(tic.status == 0, "\(tic.stderr)")
        #expect(tic.stdout.contains("You are talking with Sam, who is 8 years old."))
        let luna = try await CLI.run(["compile", "personas/luna", "--now", "2026-03-01T03:12:00-05:00"])
        #expect(luna.stdout.contains("It is 03:12 on Sunday where the user is (night)."))
    }

    @Test func usageErrorsExit2WithAHint() async throws {
        let unknown = try await CLI.run(["compile", "personas/betterone", "--topic", "goal-seting"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("error: pack 'betterone' has no topic 'goal-seting'"))
        #expect(unknown.stderr.contains("did you mean 'goal-setting'?"))
        let badTime = try await CLI.run(["compile", "personas/luna", "--now", "3am"])
        #expect(badTime.status == 2)
        #expect(badTime.stderr.contains("not an ISO 8601 date-time"))
        let badFlag = try await CLI.run(["compile", "personas/luna", "--colour"])
        #expect(badFlag.status == 2)
        let noPack = try await CLI.run(["compile", "personas/nope"])
        #expect(noPack.status == 2)
        #expect(noPack.stderr.contains("no such pack"))
    }

    @Test func allThenCheckRoundTripsAndARuleEditDrifts() async throws {
        let directory = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(atPath: CLI.root + "/personas/betterone", toPath: directory + "/betterone")
        let write = try await CLI.run(["compile", "--all", "--out", "prompts", "betterone"], in: directory)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stderr.contains("wrote 8 compiled prompts"))
        let clean = try await CLI.run(["compile", "--check", "prompts", "betterone"], in: directory)
        #expect(clean.status == 0, "\(clean.stdout)")
        // A second write leaves files already up to date alone.
        let written = directory + "/prompts/betterone/fifteen-goals.txt"
        let stamp = try #require(try FileManager.default.attributesOfItem(atPath: written)[.modificationDate] as? Date)
        try FileManager.default.setAttributes([.modificationDate: stamp.addingTimeInterval(-3600)], ofItemAtPath: written)
        let again = try await CLI.run(["compile", "--all", "--out", "prompts", "betterone"], in: directory)
        #expect(again.stderr.contains("wrote 0 compiled prompts to prompts; 8 were up to date"), "\(again.stderr)")
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: written)[.modificationDate] as? Date)
        #expect(abs(kept.timeIntervalSince(stamp) + 3600) < 1, "rewritten at \(kept)")
        // A file compile did not write is never removed, even in the folder it writes.
        try "my notes\n".write(toFile: directory + "/prompts/betterone/notes.txt", atomically: true, encoding: .utf8)
        let beside = try await CLI.run(["compile", "--all", "--out", "prompts", "betterone"], in: directory)
        #expect(beside.status == 0)
        #expect(beside.stderr.contains("warning: left prompts/betterone/notes.txt"), "\(beside.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/prompts/betterone/notes.txt"))
        try FileManager.default.removeItem(atPath: directory + "/prompts/betterone/notes.txt")

        let rules = directory + "/betterone/rules.yaml"
        let text = try String(contentsOfFile: rules, encoding: .utf8)
        try text.replacingOccurrences(of: "never a list of tips.", with: "never a numbered list.")
            .write(toFile: rules, atomically: true, encoding: .utf8)
        let drift = try await CLI.run(["compile", "--check", "prompts", "betterone"], in: directory)
        #expect(drift.status == 1)
        #expect(drift.stdout.contains("-- One idea at a time: Offer a single idea or step per reply, never a list of tips."))
        #expect(drift.stdout.contains("+- One idea at a time: Offer a single idea or step per reply, never a numbered list."))
        #expect(drift.stderr.contains("8 of 8 compiled prompts drifted"))
    }

    @Test func checkReportsMissingAndOrphanedFiles() async throws {
        let directory = try CLI.temporaryDirectory()
        try FileManager.default.copyItem(atPath: CLI.root + "/personas/luna", toPath: directory + "/luna")
        _ = try await CLI.run(["compile", "--all", "--out", "prompts", "luna"], in: directory)
        try FileManager.default.removeItem(atPath: directory + "/prompts/luna/three-am.txt")
        try "stale\n".write(toFile: directory + "/prompts/luna/old-variant.txt", atomically: true, encoding: .utf8)
        let result = try await CLI.run(["compile", "--check", "prompts", "luna"], in: directory)
        #expect(result.status == 1)
        #expect(result.stdout.contains("missing: prompts/luna/three-am.txt"))
        #expect(result.stdout.contains("orphaned: prompts/luna/old-variant.txt"))
    }
}
