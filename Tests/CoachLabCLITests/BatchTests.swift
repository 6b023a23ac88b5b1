import CoachLab
import CoachLabMockServer
import CoachLabTestSupport
import Foundation
import Testing

/// `eval --batch` against serve-mock's imitations of OpenAI's, Anthropic's and Gemini's batch
/// APIs: results at the batch price, partial failure and expiry as errors to retry, and a run
/// killed after submitting that resumes with every result exactly once and nothing sent twice.
@Suite(.serialized) struct BatchTests {
    static let key = "sk-batch-test-0123456789abcdefXYZ"
    static let providers = ["oa", "an", "ge"]

    /// An `init`ed project with `rows` one-turn cases from a spreadsheet, and the three providers.
    static func project(rows: Int, port: Int) async throws -> String {
        let directory = try CLI.temporaryDirectory()
        #expect(try await CLI.run(["init", "--app", "x"], in: directory).status == 0)
        var csv = "id,pack,message,not-flagged\n"
        for row in 1...rows { csv += "row-\(row),personas/x,\"Can we talk about sleep, night \(row)?\",yes\n" }
        try csv.write(toFile: directory + "/fixtures/x/cases.csv", atomically: true, encoding: .utf8)
        try "suite:\n  id: cases\ncases: [fixtures/x/cases.csv]\n".write(toFile: directory + "/evals/cases.yaml", atomically: true, encoding: .utf8)
        try """
            providers:
              - {id: oa, kind: openai, model: gpt-4o-mini, baseURL: "http://127.0.0.1:\(port)/v1", apiKeyEnv: BATCH_KEY, prices: {input: 0.15, output: 0.60}}
              - {id: an, kind: anthropic, model: claude-haiku-4-5, baseURL: "http://127.0.0.1:\(port)", apiKeyEnv: BATCH_KEY, prices: {input: 1, output: 5}}
              - {id: ge, kind: gemini, model: gemini-2.0-flash, baseURL: "http://127.0.0.1:\(port)", apiKeyEnv: BATCH_KEY, prices: {input: 0.10, output: 0.40}}
            """.write(toFile: directory + "/providers.yaml", atomically: true, encoding: .utf8)
        return directory
    }

    static func report(_ path: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return object?["cases"] as? [[String: Any]] ?? []
    }

    static func cost(_ cases: [[String: Any]]) -> Double {
        cases.reduce(0) { total, item in total + ((item["turns"] as? [[String: Any]]) ?? []).reduce(0) { $0 + (($1["cost"] as? Double) ?? 0) } }
    }

    @Test func eachBatchAPIAnswersAsTheDirectCallAtHalfThePrice() async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, batches: MockBatchSettings(seconds: 0.5))) { server in
            let directory = try await Self.project(rows: 12, port: server.port)
            for provider in Self.providers {
                let direct = try await CLI.run(["eval", "evals/cases.yaml", "--provider", provider, "--no-cache", "--json", "\(provider)-direct.json", "--store", "s.sqlite"],
                                               in: directory, environment: ["BATCH_KEY": Self.key])
                #expect(direct.status == 0, "\(direct.stdout)\(direct.stderr)")
                let batched = try await CLI.run(["eval", "evals/cases.yaml", "--provider", provider, "--batch", "--batch-poll", "0.1", "--no-cache", "--json", "\(provider)-batch.json",
                                                 "--store", "s.sqlite"], in: directory, environment: ["BATCH_KEY": Self.key])
                #expect(batched.status == 0, "\(batched.stdout)\(batched.stderr)")
                #expect(batched.stderr.contains("submitted with 12 requests") && batched.stderr.contains("12 answered, 0 failed"), "\(batched.stdout)\(batched.stderr)")
                let (one, two) = (try Self.report(directory + "/\(provider)-direct.json"), try Self.report(directory + "/\(provider)-batch.json"))
                func replies(_ cases: [[String: Any]]) -> [String] { cases.compactMap { ($0["turns"] as? [[String: Any]])?.last?["reply"] as? String }.sorted() }
                #expect(replies(one) == replies(two) && replies(one).count == 12, "the batch API gives the direct call's replies: \(replies(one).count), \(replies(two).count)")
                #expect(Self.cost(one) > 0 && abs(Self.cost(two) - Self.cost(one) / 2) < 1e-9, "\(Self.cost(two)) is half of \(Self.cost(one))")
            }
            let journals = try FileManager.default.contentsOfDirectory(atPath: directory + "/batches")
            #expect(journals.count == 3)
            for journal in journals {
                #expect(!(try String(contentsOfFile: directory + "/batches/" + journal, encoding: .utf8)).contains(Self.key))
            }
        }
    }

    @Test func partialFailureAndExpiryAreErrorsThatRetryErrorsSubmitsAgain() async throws {
        for settings in [MockBatchSettings(seconds: 0.2, failEvery: 4), MockBatchSettings(seconds: 0.2, expire: true)] {
            try await RunningMockServer.with(MockServerConfiguration(port: 0, batches: settings)) { server in
                let directory = try await Self.project(rows: 8, port: server.port)
                let first = try await CLI.run(["eval", "evals/cases.yaml", "--provider", "an", "--batch", "--batch-poll", "0.1", "--no-cache", "--store", "s.sqlite"],
                                              in: directory, environment: ["BATCH_KEY": Self.key])
                #expect(first.status == 3, "\(first.stdout)\(first.stderr)")
                let errors = settings.expire ? 4 : 2
                #expect(first.stdout.contains("8 cases: \(8 - errors) passed, 0 failed, \(errors) errors"), "\(first.stdout)")
                #expect(first.stdout.contains(settings.expire ? "ended with this request expired" : "batch request failed"), "\(first.stdout)")
                let run = String(try #require(first.stderr.split(separator: "run ").last?.split(separator: " ").first))
                let again = try await CLI.run(["eval", "--retry-errors", run, "--batch", "--batch-poll", "0.1", "--no-cache", "--store", "s.sqlite"],
                                              in: directory, environment: ["BATCH_KEY": Self.key])
                #expect(again.stderr.contains("submitted with \(errors) requests"), "only the errored cases go again: \(again.stderr)")
                #expect(server.server.batches.submittedRequests == 8 + errors)
            }
        }
    }

    /// The figure: 2,000 cases on each imitated batch API, `kill -9` after the batch is
    /// submitted, then `--resume`: every result stored exactly once, and no request submitted twice.
    @Test(arguments: ["oa", "an", "ge"])
    func aRunKilledAfterSubmittingResumesWithEveryResultOnceAndNothingSentTwice(provider: String) async throws {
        try await RunningMockServer.with(MockServerConfiguration(port: 0, batches: MockBatchSettings(seconds: 3))) { server in
            let directory = try await Self.project(rows: 2000, port: server.port)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLI.binary)
            process.arguments = ["eval", "evals/cases.yaml", "--provider", provider, "--batch", "--batch-poll", "0.2", "--no-cache", "--store", "s.sqlite"]
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.environment = ProcessInfo.processInfo.environment.merging(["BATCH_KEY": Self.key, "COACHLAB_CACHE": directory + "/cache"]) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait for every request to be in a submitted batch, then kill the run outright.
            var journal: String?
            for _ in 0..<600 where journal == nil {
                try await Task.sleep(for: .milliseconds(50))
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/batches")) ?? []
                if let name = names.first, server.server.batches.submittedRequests == 2000,
                   (try? String(contentsOfFile: directory + "/batches/" + name, encoding: .utf8))?.contains("\"ids\"") == true {
                    journal = name
                }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let name = try #require(journal, "the run never submitted its 2,000 requests")
            #expect(!(try String(contentsOfFile: directory + "/batches/" + name, encoding: .utf8)).contains("outcomes"), "killed before the results came")
            let run = String(name.dropLast(".jsonl".count))
            let resumed = try await CLI.run(["eval", "--resume", run, "--batch", "--batch-poll", "0.2", "--no-cache", "--store", "s.sqlite", "--json", "resumed.json"],
                                            in: directory, environment: ["BATCH_KEY": Self.key])
            #expect(resumed.status == 0, "\(resumed.stdout.suffix(400))\(resumed.stderr.suffix(400))")
            #expect(!resumed.stderr.contains("submitted with"), "the resumed run submits nothing: \(resumed.stderr.suffix(400))")
            #expect(server.server.batches.submittedRequests == 2000 && server.server.batches.submittedBatches >= 1)
            let cases = try Self.report(directory + "/resumed.json")
            let ids = cases.compactMap { $0["fixture"] as? String }
            #expect(ids.count == 2000 && Set(ids).count == 2000, "every case once: \(ids.count) results, \(Set(ids).count) distinct")
        }
    }
}
