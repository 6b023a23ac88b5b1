import Foundation
import Testing
import CoachLabTestSupport

/// People's reviews, end to end: marks made in the HTML report in headless Chromium, exported,
/// imported into an `init`ed project as judgement files and fixtures, counted by `judge
/// calibrate`, and run.
@Suite(.serialized) struct ReviewTests {
    /// An `init`ed project whose suite has a judge check of two criteria, and its HTML report.
    static func project() async throws -> (directory: String, report: String) {
        let directory = try CLI.temporaryDirectory()
        #expect(try await CLI.run(["init", directory, "--app", "sage"]).status == 0)
        let suite = directory + "/evals/sage.yaml"
        var text = try String(contentsOfFile: suite, encoding: .utf8)
        text = text.replacingOccurrences(of: "  - leaked-prompt\n", with: """
              - leaked-prompt
              - {check: judge, id: tone, rubric: The coach is warm without promising outcomes., criteria: [warmth, no-false-promises]}

            """) + "judge: mock\n"
        try text.write(toFile: suite, atomically: true, encoding: .utf8)
        let eval = try await CLI.run(["eval", "evals/sage.yaml", "--html", "report.html", "--store", "s.sqlite"], in: directory)
        #expect([0, 1].contains(eval.status), "\(eval.stderr)")
        return (directory, directory + "/report.html")
    }

    static func labels(_ file: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        return object?["labels"] as? [[String: Any]] ?? []
    }

    @Test(.enabled(if: Browser.path != nil || Browser.required, "needs headless Chromium (apt-get install chromium)"))
    func marksInTheReportBecomeCalibrationLabelsAndFixtures() async throws {
        #expect(Browser.path != nil, "COACHLAB_REQUIRE_BROWSER=1 but no Chromium is installed")
        guard Browser.path != nil else { return }
        let (directory, report) = try await Self.project()
        let downloads = directory + "/downloads"
        try FileManager.default.createDirectory(atPath: downloads, withIntermediateDirectories: true)

        let (exported, seen) = try await DevTools.run { browser in
            try browser.open("file://" + report, downloads: downloads)
            func reply(_ index: Int) -> String { "document.querySelectorAll('tbody.case')[\(index)].querySelector('article.reply')" }
            var seen: [String: String] = [:]
            // Reply 1: failed as a whole, with a note, and its warmth criterion failed.
            try browser.click("document.querySelectorAll('tbody.case')[0].querySelector('.toggle')")
            try browser.click(reply(0) + ".querySelector('.review .mark[data-verdict=fail]')")
            try browser.type("It promises she will sleep tonight.", into: reply(0) + ".querySelector('.review .note')")
            try browser.click(reply(0) + ".querySelector('li[data-check=\"tone.warmth\"] .mark[data-verdict=fail]')")
            // Reply 2: passed as a whole, and its no-false-promises criterion passed.
            try browser.click("document.querySelectorAll('tbody.case')[1].querySelector('.toggle')")
            try browser.click(reply(1) + ".querySelector('.review .mark[data-verdict=pass]')")
            try browser.click(reply(1) + ".querySelector('li[data-check=\"tone.no-false-promises\"] .mark[data-verdict=pass]')")
            // Reply 3: one format check failed, twice clicked pass first (a second click undoes).
            try browser.click("document.querySelectorAll('tbody.case')[2].querySelector('.toggle')")
            try browser.click(reply(2) + ".querySelector('li[data-check=\"ends-with-question\"] .mark[data-verdict=pass]')")
            try browser.click(reply(2) + ".querySelector('li[data-check=\"ends-with-question\"] .mark[data-verdict=pass]')")
            try browser.click(reply(2) + ".querySelector('li[data-check=\"ends-with-question\"] .mark[data-verdict=fail]')")
            seen["count"] = try browser.evaluate("document.getElementById('review-count').textContent") as? String
            // The marks live in the browser's storage: a reload keeps them.
            try browser.reload()
            seen["afterReload"] = try browser.evaluate("document.getElementById('review-count').textContent") as? String
            seen["pressed"] = try browser.evaluate("String(document.querySelectorAll('.mark[aria-pressed=true]').length)") as? String
            seen["note"] = try browser.evaluate(reply(0) + ".querySelector('.review .note').value") as? String
            try browser.click("document.getElementById('review-export')")
            return (try browser.download(into: downloads), seen)
        }
        #expect(seen["count"] == "3 replies reviewed, 5 labels")
        #expect(seen["afterReload"] == seen["count"])
        #expect(seen["pressed"] == "5")
        #expect(seen["note"] == "It promises she will sleep tonight.")

        let labels = try Self.labels(exported)
        #expect(labels.count == 5)
        #expect(labels.filter { $0["check"] == nil }.map { $0["verdict"] as? String } == ["fail", "pass"])
        #expect(labels.compactMap { $0["check"] as? String }.sorted() == ["ends-with-question", "tone.no-false-promises", "tone.warmth"])
        let first = try #require(labels.first)
        #expect(first["note"] as? String == "It promises she will sleep tonight.")
        #expect(first["suite"] as? String == "sage" && first["turn"] as? Int == 1 && first["pack"] as? String == "personas/sage")
        let transcript = try #require(first["transcript"] as? [[String: String]])
        #expect(transcript.count == 2 && transcript[0]["user"] != nil && transcript[1]["coach"] != nil)

        let imported = try await CLI.run(["review", "import", exported], in: directory)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("read 5 labels on 3 replies"))
        #expect(imported.stdout.contains("wrote 2 judgement files to fixtures/judgements: 2 labels for judge calibrate"))
        #expect(imported.stdout.contains("wrote 2 fixtures to fixtures/reviewed, run by evals/reviewed.yaml (new)"))
        // The format check passed in the run and the person failed it: a disagreement, listed.
        #expect(imported.stdout.contains("ends-with-question: person fail, run pass"))

        let calibration = try await CLI.run(["judge", "calibrate"], in: directory)
        #expect([0, 1].contains(calibration.status), "\(calibration.stderr)")
        #expect(calibration.stdout.contains("on 2 labelled transcripts, 2 criterion verdicts"), "\(calibration.stdout)")

        let lint = try await CLI.run(["lint"], in: directory)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let run = try await CLI.run(["eval", "evals/reviewed.yaml", "--json", "reviewed.json", "--store", "s.sqlite"], in: directory)
        #expect([0, 1].contains(run.status), "\(run.stderr)")
        let results = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: directory + "/reviewed.json"))) as? [String: Any]
        let cases = (results?["cases"] as? [[String: Any]]) ?? []
        #expect(cases.count == 2)
        // On the mock each fixture replays the reply the person reviewed.
        let replies = Set(cases.compactMap { (($0["turns"] as? [[String: Any]])?.last?["reply"]) as? String })
        let reviewed = Set(labels.filter { $0["check"] == nil }.compactMap { (($0["transcript"] as? [[String: String]])?.last?["coach"]) })
        #expect(replies == reviewed)

        // Importing again replaces the import's own files; another file at a path is never written over.
        #expect(try await CLI.run(["review", "import", exported], in: directory).status == 0)
        let fixture = try #require(try FileManager.default.contentsOfDirectory(atPath: directory + "/fixtures/reviewed").first)
        try "mine\n".write(toFile: directory + "/fixtures/reviewed/" + fixture, atomically: true, encoding: .utf8)
        let refused = try await CLI.run(["review", "import", exported], in: directory)
        #expect(refused.status == 2 && refused.stderr.contains("is never overwritten"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: directory + "/fixtures/reviewed/" + fixture, encoding: .utf8) == "mine\n")
    }

    @Test func aFailedReplyCarriesTheReviewersNoteAsAJudgeCheck() async throws {
        let (directory, _) = try await Self.project()
        let labels = directory + "/labels.json"
        try """
            {"format": "coachlab-review", "version": 1, "labels": [
              {"run": "r1", "suite": "sage", "case": "sage-greeting", "provider": "mock", "turn": 1, "verdict": "fail",
               "note": "Too cheerful\\nfor 3 a.m.: \\"great!\\"", "automated": "pass",
               "transcript": [{"user": "hi: [not yaml] # nor this"}, {"coach": "Hello! {braces} and - dashes"}]},
              {"run": "r1", "suite": "sage", "case": "sage-greeting", "provider": "mock", "turn": 1, "check": "tone.warmth", "verdict": "pass",
               "automated": "fail", "reason": "acknowledges nothing",
               "transcript": [{"user": "hi: [not yaml] # nor this"}, {"coach": "Hello! {braces} and - dashes"}]}
            ]}
            """.write(toFile: labels, atomically: true, encoding: .utf8)
        let result = try await CLI.run(["review", "import", "labels.json"], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("people and the run disagree on 2 of 2 labels"))
        #expect(result.stdout.contains("judge tone.warmth: person pass, run fail (acknowledges nothing)"))
        let fixture = try String(contentsOfFile: directory + "/fixtures/reviewed/reviewed-sage-greeting-mock-t1.yaml", encoding: .utf8)
        #expect(fixture.contains(#"mock: "Hello! {braces} and - dashes""#))
        #expect(fixture.contains("id: reviewer"))
        #expect(fixture.contains(#"Too cheerful\nfor 3 a.m.: \"great!\""#), "the note is quoted, never YAML structure")
        let judgement = try String(contentsOfFile: directory + "/fixtures/judgements/review-sage-greeting-mock-t1-tone.yaml", encoding: .utf8)
        #expect(judgement.contains("  \"warmth\": pass"))
        #expect(judgement.contains(#"criteria:"#) && !judgement.contains(#"- name: "no-false-promises""#), "only the criteria the person marked")
        let lint = try await CLI.run(["lint"], in: directory)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    }

    @Test func aBadLabelsFileIsLocated() async throws {
        let directory = try CLI.temporaryDirectory()
        try """
            {"format": "coachlab-review", "labels": [
              {"run": "r1", "suite": "s", "case": "c", "provider": "mock", "turn": 1, "verdict": "maybe",
               "transcript": [{"user": "hi"}, {"coach": "hello"}]},
              {"run": "r1", "suite": "s", "case": "c", "provider": "mock", "turn": 1, "verdict": "pass", "transcript": [{"user": "hi"}]}
            ]}
            """.write(toFile: directory + "/labels.json", atomically: true, encoding: .utf8)
        let result = try await CLI.run(["review", "import", "labels.json"], in: directory)
        #expect(result.status == 2)
        #expect(result.stderr.contains("labels.json:2:"), "\(result.stderr)")
        #expect(result.stderr.contains("maybe"), "\(result.stderr)")
        try "{\"format\": \"coachlab-review\", \"labels\": [\n  {\"run\": \"r1\", \"suite\": \"s\", \"case\": \"c\", \"provider\": \"mock\", \"turn\": 1, \"verdict\": \"pass\", \"transcript\": [{\"user\": \"hi\"}]}\n]}\n"
            .write(toFile: directory + "/short.json", atomically: true, encoding: .utf8)
        let short = try await CLI.run(["review", "import", "short.json"], in: directory)
        #expect(short.status == 2 && short.stderr.contains("short.json:2:") && short.stderr.contains("end with the reviewed reply"), "\(short.stderr)")
        #expect(try await CLI.run(["review", "import", "missing.json"], in: directory).status == 2)
        #expect(!FileManager.default.fileExists(atPath: directory + "/fixtures"), "nothing is written from a bad file")
    }
}
