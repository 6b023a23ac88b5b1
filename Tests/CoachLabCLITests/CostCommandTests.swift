import Foundation
import Testing
import CoachLabTestSupport

/// Cost before a run (`eval --dry-run`) and during one (`--max-cost`).
@Suite struct CostCommandTests {
    /// A project from `init`, with a priced provider answered by the mock.
    static func project() async throws -> String {
        let directory = try CLI.temporaryDirectory()
        #expect(try await CLI.run(["init", "--app", "x"], in: directory).status == 0)
        let providers = directory + "/providers.yaml"
        let text = try String(contentsOfFile: providers, encoding: .utf8)
        try (text + "  - id: priced-mock\n    kind: mock\n    prices: {input: 100, output: 100}\n")
            .write(toFile: providers, atomically: true, encoding: .utf8)
        return directory
    }

    @Test func aDryRunSendsNothingNeedsNoKeyAndCountsWhatTheRunWouldUse() async throws {
        let directory = try await Self.project()
        let store = directory + "/dry.sqlite"
        // OpenAI with no key, and --max-tokens for the bound: nothing is sent, so nothing fails.
        let dry = try await CLI.run(["eval", "evals/x.yaml", "--dry-run", "--provider", "priced-mock", "--provider", "x-openai",
                                     "--max-tokens", "100"], in: directory, environment: ["OPENAI_API_KEY": "", "COACHLAB_STORE": store])
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store), "a dry run stores nothing")
        let rows = dry.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        let mock = try #require(rows.first { $0.first == "priced-mock" })
        let openai = try #require(rows.first { $0.first == "x-openai" })
        #expect(mock[1] == openai[1] && mock[2] == openai[2], "the same requests and prompts go to both: \(dry.stdout)")
        #expect(Int(mock[4]) == Int(mock[1])! * 100, "the bound is each request at --max-tokens")
        #expect(dry.stdout.contains("nothing was sent"))
        // The run itself, metered: the estimate is its usage.
        let json = directory + "/r.json"
        let run = try await CLI.run(["eval", "evals/x.yaml", "--provider", "priced-mock", "--json", json], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as! [String: Any]
        let turns = (report["cases"] as! [[String: Any]]).flatMap { $0["turns"] as! [[String: Any]] }
        let input = turns.map { $0["inputTokens"] as! Int }.reduce(0, +), output = turns.map { $0["outputTokens"] as! Int }.reduce(0, +)
        #expect(abs(Double(Int(mock[2])! - input)) <= 0.1 * Double(input), "input: estimated \(mock[2]), metered \(input)")
        #expect(abs(Double(Int(mock[3])! - output)) <= 0.1 * Double(output), "output: estimated \(mock[3]), metered \(output)")
    }

    @Test func maxCostStopsTheRunAndResumeFinishesIt() async throws {
        let directory = try await Self.project()
        let store = directory + "/s.sqlite"
        let stopped = try await CLI.run(["eval", "evals/x.yaml", "--provider", "priced-mock", "--max-cost", "0.02", "-j", "1", "--store", store],
                                        in: directory)
        #expect(stopped.status == 4, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("stopped at the budget") && stopped.stderr.contains("--max-cost 0.02"), "\(stopped.stderr)")
        let run = try #require(stopped.stderr.components(separatedBy: "--resume ").last?.split(separator: " ").first.map(String.init))
        let resumed = try await CLI.run(["eval", "--resume", run, "--max-cost", "10", "--store", store], in: directory)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("6 cases: 6 passed"), "\(resumed.stdout)")
        // The mock has no price, so no budget can hold it.
        let unpriced = try await CLI.run(["eval", "evals/x.yaml", "--max-cost", "1", "--store", store], in: directory)
        #expect(unpriced.status == 2 && unpriced.stderr.contains("none for mock"), "\(unpriced.stderr)")
    }

    /// A fallback chain is estimated at its first link's price, as it runs when nothing fails.
    @Test func aFallbackChainIsPricedAsItsFirstLink() async throws {
        let dry = try await CLI.run(["eval", "evals/healthwallet.yaml", "--dry-run", "--provider", "healthwallet", "--provider", "openrouter-grok"],
                                    environment: ["OPENROUTER_API_KEY": "", "GEMINI_API_KEY": ""])
        #expect(dry.status == 0, "\(dry.stderr)")
        let rows = dry.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        let chain = try #require(rows.first { $0.first == "healthwallet" })
        let link = try #require(rows.first { $0.first == "openrouter-grok" })
        // The expected cost is the row's first dollar figure.
        let cost = { (row: [String]) in row.first { $0.hasPrefix("$") } }
        #expect(cost(chain) != nil && cost(chain) == cost(link), "\(dry.stdout)")
    }
}

