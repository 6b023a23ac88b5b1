import CoachLab
@testable import CoachLabEval
import CoachLabProviders
import Foundation
import Testing
import CoachLabTestSupport

@Suite struct ShardTests {
    @Test func slicesAreDisjointCoverEveryCaseAndAreStable() {
        let ids = (1...2_000).map { "suite-\($0 % 7)/fixture-\($0)/mock#\($0 % 3 + 1)" }
        let shards = (1...4).map { Shard("\($0)/4")! }
        var sizes = [Int](repeating: 0, count: 4)
        for id in ids {
            let owners = shards.indices.filter { shards[$0].contains(id) }
            #expect(owners.count == 1, "\(id) belongs to \(owners.count) slices")
            sizes[owners[0]] += 1
        }
        // FNV-1a spreads ids evenly: each slice within 20% of a quarter.
        #expect(sizes.allSatisfy { abs($0 - 500) < 100 }, "\(sizes)")
        // The assignment is FNV-1a of the id alone (the published test vector for "a"), so
        // slices agree across machines and versions.
        let vector: UInt64 = 0xaf63_dc4c_8601_ec8c
        #expect(StableHash.value("a") == vector)
        #expect(Shard("1/2")!.contains("a") == (vector % 2 == 0))
        #expect(Shard("1/1")!.contains("anything"))
    }

    @Test(arguments: ["0/4", "5/4", "1/0", "a/b", "1", "1/2/3", ""])
    func badShardsAreRefused(_ text: String) {
        #expect(Shard(text) == nil)
    }
}

@Suite struct RunDiffTests {
    static func result(_ fixture: String, _ outcome: Outcome, reply: String = "ok", repeatIndex: Int = 1) -> CaseResult {
        let check = CheckResult(check: "sentences", passed: outcome == .pass, reason: outcome == .pass ? "fine" : "too long")
        return CaseResult(suite: "s", fixture: fixture, provider: "mock", model: "m", repeatIndex: repeatIndex, outcome: outcome,
                          score: outcome == .pass ? 1 : 0,
                          turns: outcome == .error ? [] : [TurnResult(turn: 1, user: "hi", reply: reply, checks: [check], latency: 0.1,
                                                                      inputTokens: 1, outputTokens: 1, usageEstimated: true,
                                                                      finishReason: "stop", promptHash: "h")],
                          error: outcome == .error ? "boom" : nil, tags: [])
    }

    static func store(_ results: [CaseResult]) throws -> (ResultStore, String) {
        let store = try ResultStore(clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: nil)
        for result in results { try store.record(result, run: run) }
        return (store, run)
    }

    @Test func everyKindOfChangeIsListed() throws {
        let (before, a) = try Self.store([Self.result("regressed", .pass), Self.result("fixed", .fail), Self.result("errs", .fail),
                                          Self.result("reworded", .pass, reply: "one"), Self.result("same", .pass),
                                          Self.result("gone", .pass)])
        let (after, b) = try Self.store([Self.result("regressed", .fail), Self.result("fixed", .pass), Self.result("errs", .error),
                                         Self.result("reworded", .pass, reply: "two"), Self.result("same", .pass),
                                         Self.result("added", .pass)])
        let diff = try RunDiff(before: a, in: before, after: b, in: after)
        #expect(diff.regressions.map(\.id) == ["s/regressed/mock#1"])
        #expect(diff.regressions.first?.reason == "turn 1 sentences: too long")
        #expect(diff.fixes.map(\.id) == ["s/fixed/mock#1"])
        #expect(diff.otherChanges.map(\.id) == ["s/errs/mock#1"])
        #expect(diff.changedReplies.map { "\($0.id) \($0.turn) \($0.before)→\($0.after)" } == ["s/reworded/mock#1 1 one→two"])
        #expect(diff.new == ["s/added/mock#1"])
        #expect(diff.removed == ["s/gone/mock#1"])
        #expect(diff.compared == 5)
        #expect(diff.text().contains("REGRESSIONS (1)\n  s/regressed/mock#1: pass → fail — turn 1 sentences: too long"))
    }

    /// `passes` passing repeats of `fixture`, then `runs - passes` failing ones.
    static func repeats(_ fixture: String, _ passes: Int, of runs: Int, failing: Outcome = .fail) -> [CaseResult] {
        (1...runs).map { Self.result(fixture, $0 <= passes ? .pass : failing, repeatIndex: $0) }
    }

    static let suite = Suite(id: "s", threshold: 0, file: "s.yaml")

    @Test func aGroupRunOnceOnASideRegressesOnAnyDropFromPassingEveryRun() throws {
        let then = try RunReport(run: "then", suites: [Self.suite], results: Self.repeats("steady", 1, of: 1) + Self.repeats("slipped", 1, of: 1)
            + Self.repeats("failing", 0, of: 1) + Self.repeats("sampled", 1, of: 1) + Self.repeats("rerun", 3, of: 3))
        let baseline = try Baseline(report: then)
        #expect(baseline.cases["s/rerun/mock"] == Baseline.Entry(passed: 3, total: 3))
        let reread = try JSONDecoder().decode(Baseline.self, from: Data(baseline.json().utf8))
        #expect(reread == baseline)

        // One run gives no measure of chance: a deterministic provider that fails where it
        // passed has changed, however the other side was run.
        let now = try RunReport(run: "now", suites: [Self.suite], results: Self.repeats("steady", 1, of: 1)
            + Self.repeats("slipped", 0, of: 1, failing: .error) + Self.repeats("failing", 0, of: 1) + Self.repeats("sampled", 4, of: 5)
            + Self.repeats("rerun", 0, of: 1) + Self.repeats("new", 0, of: 1))
        let regressions = try reread.regressions(in: now)
        #expect(regressions.map(\.group) == ["s/rerun/mock", "s/sampled/mock", "s/slipped/mock"])
        #expect(regressions.allSatisfy { $0.pValue == nil })
        #expect(regressions.last?.description == "s/slipped/mock: passed 1/1 in the baseline, 0/1 now — boom")

        let missed = try reread.verdict(on: now, named: "evals/baseline.json")
        #expect(!missed.holds)
        #expect(missed.lines == ["3 regressions against the baseline evals/baseline.json:",
                                 "  REGRESSION s/rerun/mock: passed 3/3 in the baseline, 0/1 now — turn 1 sentences: too long",
                                 "  REGRESSION s/sampled/mock: passed 1/1 in the baseline, 4/5 now — turn 1 sentences: too long",
                                 "  REGRESSION s/slipped/mock: passed 1/1 in the baseline, 0/1 now — boom"])
        let held = try reread.verdict(on: then, named: "evals/baseline.json")
        #expect(held.holds && held.lines == ["no regressions against the baseline evals/baseline.json"])
    }

    @Test func withRepeatsOnBothSidesOnlyADropBeyondChanceRegresses() throws {
        let then = try RunReport(run: "then", suites: [Self.suite], results: Self.repeats("one-slip", 5, of: 5)
            + Self.repeats("collapsed", 5, of: 5) + Self.repeats("mostly", 4, of: 5) + Self.repeats("halved", 10, of: 10)
            + Self.repeats("pair", 2, of: 2) + Self.repeats("better", 3, of: 5))
        let now = try RunReport(run: "now", suites: [Self.suite], results: Self.repeats("one-slip", 4, of: 5)
            + Self.repeats("collapsed", 1, of: 5) + Self.repeats("mostly", 0, of: 5) + Self.repeats("halved", 7, of: 10)
            + Self.repeats("pair", 1, of: 2, failing: .error) + Self.repeats("better", 5, of: 5))
        let baseline = try Baseline(report: then)
        let drops = try baseline.drops(in: now)
        #expect(drops.map(\.group) == ["s/collapsed/mock", "s/halved/mock", "s/mostly/mock", "s/one-slip/mock", "s/pair/mock"])
        // A model that passes nine times in ten falls to 4/5 or lower in 41% of runs of five: chance.
        // Losing four of five is not, and neither is dropping from 4/5 to none, which the
        // old rule (only groups that passed every repeat) never looked at.
        #expect(try baseline.regressions(in: now).map(\.group) == ["s/collapsed/mock", "s/mostly/mock"])

        let verdict = try baseline.verdict(on: now, named: "b.json")
        #expect(!verdict.holds)
        #expect(verdict.lines == [
            "2 regressions against the baseline b.json:",
            "  REGRESSION s/collapsed/mock: passed 5/5 in the baseline, 1/5 now (p = 0.024) — turn 1 sentences: too long",
            "  REGRESSION s/mostly/mock: passed 4/5 in the baseline, 0/5 now (p = 0.024) — turn 1 sentences: too long",
            "3 groups passed fewer repeats than in the baseline, within what chance gives (one-sided Fisher exact test, p > 0.05); not regressions:",
            "  within noise s/halved/mock: passed 10/10 in the baseline, 7/10 now (p = 0.105) — turn 1 sentences: too long",
            "  within noise s/one-slip/mock: passed 5/5 in the baseline, 4/5 now (p = 0.500) — turn 1 sentences: too long",
            "  within noise s/pair/mock: passed 2/2 in the baseline, 1/2 now (p = 0.500) — boom",
        ])
        // 3/5 → 5/5 is a rise chance gives one time in five (p = 56/252): no fix either.
        #expect(try baseline.fixes(in: now).isEmpty)
    }

    @Test func theDropTestIsFishersExactTail() {
        func p(_ before: (Int, Int), _ after: (Int, Int)) -> Double? {
            Baseline.fall(from: Baseline.Entry(passed: before.0, total: before.1), to: Baseline.Entry(passed: after.0, total: after.1)).pValue
        }
        // Hypergeometric tails worked by hand: C(6,1)·C(4,4)/C(10,5), C(17,7)·C(3,3)/C(20,10), 1/C(6,3).
        #expect(abs(p((5, 5), (1, 5))! - 6.0 / 252) < 1e-12)
        #expect(abs(p((10, 10), (7, 10))! - 19_448.0 / 184_756) < 1e-12)
        #expect(abs(p((3, 3), (0, 3))! - 0.05) < 1e-12)
        // P(X ≤ 2) for X ~ Hypergeometric(20 runs, 10 passes, 10 drawn): Σ C(10,x)·C(10,10−x) / C(20,10) over x = 0, 1, 2.
        #expect(abs(p((8, 10), (2, 10))! - (1.0 + 100 + 2_025) / 184_756) < 1e-12)
        // No fall, or one side run once: no p-value.
        #expect(!Baseline.fall(from: .init(passed: 3, total: 5), to: .init(passed: 6, total: 10)).fell)
        #expect(!Baseline.fall(from: .init(passed: 3, total: 5), to: .init(passed: 4, total: 5)).fell)
        #expect(Baseline.fall(from: .init(passed: 1, total: 1), to: .init(passed: 0, total: 1)) == (true, nil))
        #expect(Baseline.fall(from: .init(passed: 0, total: 1), to: .init(passed: 0, total: 5)) == (false, nil))
    }

    @Test func thePullRequestCommentSeparatesRegressionsFromNoise() throws {
        let then = try RunReport(run: "then", suites: [Self.suite], results: Self.repeats("collapsed", 5, of: 5) + Self.repeats("one-slip", 5, of: 5))
        let now = try RunReport(run: "now", suites: [Self.suite], results: Self.repeats("collapsed", 0, of: 5) + Self.repeats("one-slip", 4, of: 5))
        let body = try PullRequestComment.body(report: now, baseline: try Baseline(report: then), promptDiff: nil, artifactURL: nil)
        #expect(body.contains("- ❌ **regression** `s/collapsed/mock`: passed 5/5 in the baseline, 0/5 now (p = 0.0040) — `turn 1 sentences: too long`"))
        #expect(body.contains("- ➖ within noise (not a regression): `s/one-slip/mock`: passed 5/5 in the baseline, 4/5 now (p = 0.500)"))
        #expect(!body.contains("**regression** `s/one-slip"))
    }

    /// A failing case whose check's reason is `reason`.
    static func failing(_ fixture: String, reason: String) -> CaseResult {
        var result = Self.result(fixture, .fail)
        result.turns[0].checks = [CheckResult(check: "judge", passed: false, reason: reason)]
        return result
    }

    /// Finding 3 of the secrets issue: a run killed part-way was posted as finished and held.
    @Test func aRunThatDidNotFinishSaysSoAndHoldsNothing() throws {
        let store = try ResultStore(clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: nil, planned: 12)
        try store.record((1...4).map { Self.result("f\($0)", .pass) }, run: run)
        // Killed: the run is never marked finished.
        let report = try RunReport(run: run, suites: [Self.suite], store: store)
        #expect(!report.isComplete)
        let body = try PullRequestComment.body(report: report, baseline: nil, promptDiff: nil, artifactURL: nil)
        #expect(body.contains("⚠️ **Incomplete.** This run did not finish (it was stopped part-way, or is still running): 4 of 12 planned cases have results."))
        #expect(!body.contains("✅") && body.contains("| ⚠️ incomplete |"))
        try store.finishRun(run, status: "interrupted")
        #expect(try RunReport(run: run, suites: [Self.suite], store: store).incompleteNote?.hasPrefix("This run was interrupted: 4 of 12") == true)
        // The same cases in a run that finished are held.
        let finished = try RunReport(run: "done", suites: [Self.suite], results: (1...4).map { Self.result("f\($0)", .pass) })
        #expect(finished.isComplete && Reporters.markdown(finished).contains("| ✅ |"))
    }

    /// Finding 4: an outage over the default suites, or one runaway judge reason, made a body
    /// GitHub refuses, and the old comment stayed up.
    @Test func theCommentAlwaysFitsGitHubsLimit() throws {
        let outage = (1...600).map { index -> CaseResult in
            var result = Self.result("case-\(index)", .error)
            result.error = "provider 'openai' failed after 4 attempts: HTTP 503 upstream connect error or disconnect/reset before headers. reset reason: overflow " + String(repeating: "x", count: 80)
            return result
        }
        let runaway = [Self.failing("runaway", reason: String(repeating: "The reply is wrong. ", count: 50_000))]
        let diff = "--- a\n+++ b\n" + (1...40_000).map { "+line \($0) é" }.joined(separator: "\n")
        for results in [outage, runaway] {
            let report = try RunReport(run: "r", suites: [Self.suite], results: results)
            let then = try RunReport(run: "t", suites: [Self.suite], results: results.map { Self.result($0.fixture, .pass) })
            let body = try PullRequestComment.body(report: report, baseline: try Baseline(report: then), promptDiff: diff, artifactURL: "https://x.example/a")
            #expect(body.utf8.count <= PullRequestComment.limit, "\(body.utf8.count) bytes")
            #expect(body.hasPrefix(PullRequestComment.marker) && body.contains("| s |") && body.contains("[The HTML report](https://x.example/a)"))
            #expect(body.hasSuffix("</details>\n") || !body.contains("<details>"))
        }
        let report = try RunReport(run: "r", suites: [Self.suite], results: outage)
        let body = try PullRequestComment.body(report: report, baseline: nil, promptDiff: nil, artifactURL: nil)
        #expect(body.contains("more failing checks or errors (the job log and the HTML report have every one)"))
    }

    /// Issue 64: "Compiled prompts changed (0 lines)" stood above two prompts that were not
    /// committed, whose drift has no diff lines.
    @Test func theDiffSummaryCountsPromptsThatDrifted() throws {
        let report = try RunReport(run: "r", suites: [Self.suite], results: [Self.result("a", .pass)])
        let missing = "missing: luna/night.txt is declared but not committed; run 'coachlab compile --all --out'\n"
            + "missing: luna/day.txt is declared but not committed; run 'coachlab compile --all --out'\n"
        let body = try PullRequestComment.body(report: report, baseline: nil, promptDiff: missing, artifactURL: nil)
        #expect(body.contains("<summary>Compiled prompts changed (2 prompts)</summary>"), "\(body)")
    }

    /// Finding 6: a judge's reason is model output, and reached GitHub's renderer raw.
    @Test func modelTextRendersInert() throws {
        let hostile = "Great reply! cc @octocat @org/team, see #12 <img src=x onerror=alert(1)></details> [click](javascript:alert(1)) ``` | x |"
        let report = try RunReport(run: "r", suites: [Self.suite], results: [Self.failing("hostile", reason: hostile)])
        let body = try PullRequestComment.body(report: report, baseline: nil, promptDiff: nil, artifactURL: nil)
        let line = try #require(body.split(separator: "\n").first { $0.contains("octocat") })
        // One code span, longer than any run of backticks inside it, with the pipe escaped.
        #expect(line.hasSuffix("````Great reply! cc @octocat @org/team, see #12 <img src=x onerror=alert(1)></details> [click](javascript:alert(1)) ``` \\| x \\|````"),
                "\(line)")
        #expect(MarkdownText.inert("`tick`") == "`` `tick` ``")
        #expect(MarkdownText.inert("a\u{0}b\u{1B}[2J\u{202E}c") == "`ab[2Jc`")
        #expect(MarkdownText.inert(String(repeating: "a", count: 400)).contains("… (400 characters; the report has it whole)"))
    }

    @Test func aFixIsARiseBeyondChanceToo() throws {
        let then = try RunReport(run: "then", suites: [Self.suite], results: Self.repeats("recovered", 1, of: 5)
            + Self.repeats("nudged", 4, of: 5) + Self.repeats("single", 0, of: 1) + Self.repeats("partly", 0, of: 1))
        let now = try RunReport(run: "now", suites: [Self.suite], results: Self.repeats("recovered", 5, of: 5)
            + Self.repeats("nudged", 5, of: 5) + Self.repeats("single", 1, of: 1) + Self.repeats("partly", 4, of: 5))
        #expect(try Baseline(report: then).fixes(in: now) == ["s/recovered/mock", "s/single/mock"])
    }
}

@Suite struct CassetteKeyTests {
    static func spec(body: String, key: String) -> HTTPRequestSpec {
        HTTPRequestSpec(url: "https://example.invalid/v1/chat/completions?key=\(key)",
                        headers: [HTTPHeader("Authorization", "Bearer \(key)"), HTTPHeader("content-type", "application/json")],
                        body: Data(body.utf8))
    }

    @Test func theKeyDependsOnTheRequestNotOnTheSecret() {
        let one = CassetteTransport.key(for: Self.spec(body: #"{"model":"m","messages":[]}"#, key: "sk-aaaaaaaaaaaaaaaaaaaa"), provider: "p")
        let rotated = CassetteTransport.key(for: Self.spec(body: #"{"model":"m","messages":[]}"#, key: "sk-bbbbbbbbbbbbbbbbbbbb"), provider: "p")
        let changed = CassetteTransport.key(for: Self.spec(body: #"{"model":"m","messages":[1]}"#, key: "sk-aaaaaaaaaaaaaaaaaaaa"), provider: "p")
        let otherProvider = CassetteTransport.key(for: Self.spec(body: #"{"model":"m","messages":[]}"#, key: "sk-aaaaaaaaaaaaaaaaaaaa"), provider: "q")
        #expect(one == rotated)
        #expect(one != changed)
        #expect(one != otherProvider)
        #expect(one.count == 32)
    }

    @Test func aRecordedCassetteHoldsNoSecretAndReplaysTheBody() async throws {
        let directory = "cassettes"
        let disk = FileSystem.inMemory([:])
        let secret = "sk-proj-SECRETVALUE0123456789abcdef"
        let body = #"{"choices":[{"message":{"content":"echo sk-proj-SECRETVALUE0123456789abcdef"}}]}"#
        let recorder = CassetteTransport.recording(to: directory, through: StaticTransport(body: body), fileSystem: disk)
        let spec = Self.spec(body: #"{"model":"m"}"#, key: secret)
        _ = try await recorder.send(spec, timeout: 5, provider: "p")
        let file = recorder.path(for: spec, provider: "p")
        let text = String(decoding: try disk.read(file), as: UTF8.self)
        #expect(!text.contains(secret))
        #expect(text.contains("\"authorization\" : \"[scrubbed]\""))
        #expect(text.contains("?key=[scrubbed]"))

        let replayed = try await CassetteTransport.replaying(from: directory, fileSystem: disk).send(spec, timeout: 5, provider: "p")
        var bytes: [UInt8] = []
        for try await chunk in replayed.body { bytes += chunk }
        #expect(replayed.status == 200)
        #expect(String(decoding: bytes, as: UTF8.self).contains("echo [scrubbed]"))

        await #expect(throws: ProviderError.self) {
            _ = try await CassetteTransport.replaying(from: directory, fileSystem: disk).send(Self.spec(body: #"{"model":"n"}"#, key: secret), timeout: 5, provider: "p")
        }
        // A provider nothing was ever recorded for is not "stale": it says what to record.
        do {
            _ = try await CassetteTransport.replaying(from: directory, fileSystem: disk).send(spec, timeout: 5, provider: "never")
            Issue.record("a provider with no cassettes replayed")
        } catch let error as ProviderError {
            #expect(error.message.hasPrefix("no cassettes were recorded for provider 'never' in cassettes") && !error.message.contains("stale"), "\(error.message)")
        }
    }
}

extension CassetteKeyTests {
    /// Finding 2 of the secrets issue: `--record` kept the raw stream, whose deltas spell a key
    /// echoed one character per event; cassettes are committed.
    @Test func anAnswerThatSpellsAKeyAcrossItsEventsIsNeverRecorded() async throws {
        let disk = FileSystem.inMemory([:])
        let secret = "sk-proj-SECRETVALUE0123456789abcdef"
        let stream = secret.map { #"data: {"choices":[{"index":0,"delta":{"content":"\#($0)"}}]}"# + "\n\n" }.joined() + "data: [DONE]\n\n"
        let recorder = CassetteTransport.recording(to: "cassettes", through: StaticTransport(body: stream), fileSystem: disk)
        let spec = Self.spec(body: #"{"model":"m","stream":true}"#, key: secret)
        await #expect(throws: ProviderError.self) { _ = try await recorder.send(spec, timeout: 5, provider: "p") }
        #expect(!disk.exists(recorder.path(for: spec, provider: "p")))
        // A key of the environment's that the request does not carry counts too.
        let other = "ghp_0123456789abcdefghij"
        let echo = other.map { #"data: {"choices":[{"index":0,"delta":{"content":"\#($0)"}}]}"# + "\n\n" }.joined()
        let guarded = CassetteTransport.recording(to: "cassettes", through: StaticTransport(body: echo), fileSystem: disk,
                                                  redactor: SecretRedactor(secrets: [other]))
        await #expect(throws: ProviderError.self) { _ = try await guarded.send(spec, timeout: 5, provider: "p") }
        // An ordinary stream is recorded.
        let plain = CassetteTransport.recording(to: "cassettes", through: StaticTransport(body: #"data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}"# + "\n\n"),
                                                fileSystem: disk, redactor: SecretRedactor(secrets: [other]))
        _ = try await plain.send(spec, timeout: 5, provider: "p")
        #expect(disk.exists(plain.path(for: spec, provider: "p")))
    }
}

/// Answers every request with one body.
struct StaticTransport: HTTPTransport {
    var body: String
    func send(_ request: HTTPRequestSpec, timeout: Double, provider: String) async throws -> HTTPResponse {
        let bytes = Array(body.utf8)
        return HTTPResponse(status: 200, headers: [HTTPHeader("content-type", "application/json"), HTTPHeader("x-request-id", "r1")],
                            body: AsyncThrowingStream { $0.yield(bytes); $0.finish() })
    }
}
