import CoachLab
import CoachLabEval
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

    @Test func aBaselineFlagsOnlyGroupsThatPassedEveryRepeat() throws {
        let suite = Suite(id: "s", threshold: 0, file: "s.yaml")
        let then = try RunReport(run: "then", suites: [suite], results: [
            Self.result("steady", .pass), Self.result("steady", .pass, repeatIndex: 2),
            Self.result("flaky", .pass), Self.result("flaky", .fail, repeatIndex: 2),
            Self.result("slipped", .pass), Self.result("slipped", .pass, repeatIndex: 2),
        ])
        let baseline = try Baseline(report: then)
        #expect(baseline.cases["s/flaky/mock"] == Baseline.Entry(passed: 1, total: 2))
        let reread = try JSONDecoder().decode(Baseline.self, from: Data(baseline.json().utf8))
        #expect(reread == baseline)

        let now = try RunReport(run: "now", suites: [suite], results: [
            Self.result("steady", .pass), Self.result("steady", .pass, repeatIndex: 2),
            Self.result("flaky", .fail), Self.result("flaky", .fail, repeatIndex: 2),
            Self.result("slipped", .pass), Self.result("slipped", .error, repeatIndex: 2),
            Self.result("new", .fail),
        ])
        let regressions = try reread.regressions(in: now)
        #expect(regressions.map(\.group) == ["s/slipped/mock"])
        #expect(regressions.first?.description == "s/slipped/mock: passed 2/2 in the baseline, 1/2 now — boom")

        // The gate's verdict: the lines eval and merge print, and whether it holds.
        let missed = try reread.verdict(on: now, named: "evals/baseline.json")
        #expect(!missed.holds)
        #expect(missed.lines == ["1 regressions against the baseline evals/baseline.json:",
                                 "  REGRESSION s/slipped/mock: passed 2/2 in the baseline, 1/2 now — boom"])
        let held = try reread.verdict(on: then, named: "evals/baseline.json")
        #expect(held.holds && held.lines == ["no regressions against the baseline evals/baseline.json"])
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
