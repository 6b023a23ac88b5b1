import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation
import Testing

/// Counts calls, answering as the mock does.
final class CountingProvider: ChatProvider, @unchecked Sendable {
    let id = "mock"
    let model = MockProvider.modelName
    private let lock = NSLock()
    private var count = 0
    var calls: Int { lock.withLock { count } }

    func complete(_ request: ChatRequest) async throws -> ProviderReply {
        lock.withLock { count += 1 }
        return try await MockProvider().complete(request)
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        lock.withLock { count += 1 }
        return MockProvider().stream(request)
    }
}

struct Stop: Error {}

@Suite struct ResultStoreTests {
    static func temporaryStore() throws -> ResultStore {
        try ResultStore(path: NSTemporaryDirectory() + "coachlab-store-\(UUID().uuidString)/coachlab.sqlite")
    }

    /// What must be identical between runs (timings differ).
    static func essence(_ results: [CaseResult]) -> [String] {
        results.sorted { $0.id < $1.id }.map { result in
            "\(result.id) \(result.outcome) \(result.score) " + result.turns.map { turn in
                "\(turn.turn)|\(turn.reply)|\(turn.promptHash)|" + turn.checks.map { "\($0.check):\($0.passed):\($0.reason)" }.joined(separator: ",")
            }.joined(separator: ";")
        }
    }

    @Test func aStoppedRunResumesToTheSameResultsWithoutRedoingFinishedCases() async throws {
        let suites = try EvalSupport.suites().filter { ["kindred", "luna", "betterone-rollout"].contains($0.suite.id) }

        let straight = CountingProvider()
        let straightStore = try Self.temporaryStore()
        let straightRun = try straightStore.startRun(suites: [], providers: [], repeats: nil)
        try await EvalRunner(registry: ProviderRegistry(), concurrency: 1, fileSystem: EvalSupport.fileSystem()) { _, _ in straight }
            .run(suites) { try straightStore.record($0, run: straightRun) }
        let expected = try straightStore.results(run: straightRun)
        #expect(expected.count == 18)

        let counting = CountingProvider()
        let store = try Self.temporaryStore()
        let run = try store.startRun(suites: [], providers: [], repeats: nil)
        let runner = EvalRunner(registry: ProviderRegistry(), concurrency: 1, fileSystem: EvalSupport.fileSystem()) { _, _ in counting }
        let recorded = Counter()
        await #expect(throws: Stop.self) {
            try await runner.run(suites) { result in
                try store.record(result, run: run)
                if await recorded.increment() == 7 { throw Stop() }
            }
        }
        let finished = try store.finishedCases(run: run)
        #expect(finished.count == 7)
        let callsBefore = counting.calls
        try await runner.run(suites, include: { !finished.contains($0.id) }) { try store.record($0, run: run) }
        #expect(Self.essence(try store.results(run: run)) == Self.essence(expected))
        #expect(counting.calls == straight.calls, "calls: \(callsBefore) before the stop, \(counting.calls) in all, \(straight.calls) uninterrupted")
    }

    @Test func runsAreListedWithTheirCounts() throws {
        let store = try Self.temporaryStore()
        let run = try store.startRun(suites: ["evals/luna.yaml"], providers: ["mock"], repeats: 2)
        try store.record(CaseResult(suite: "s", fixture: "f", provider: "mock", model: "m", repeatIndex: 1, outcome: .fail, score: 0.5,
                                    turns: [], error: nil, tags: ["t"]), run: run)
        try store.finishRun(run, status: "finished")
        let info = try #require(try store.run(run))
        #expect(info.suites == ["evals/luna.yaml"] && info.providers == ["mock"] && info.repeats == 2)
        #expect(info.cases == 1 && info.failed == 1 && info.status == "finished")
        #expect(try store.results(run: run).first?.tags == ["t"])
    }
}

actor Counter {
    private var value = 0
    func increment() -> Int {
        value += 1
        return value
    }
}
