import CoachLab
import CoachLabEval
import Foundation
import Testing
import CoachLabTestSupport

/// Results written in group commits: batched under load, each stored before `record` returns,
/// and a failed commit reported to every case it carried.
@Suite struct GroupCommitTests {
    static func results(_ count: Int) -> [CaseResult] {
        (1...count).map { ReportFromStoreTests.result("s", "f\($0)", 1, $0.isMultiple(of: 3) ? .fail : .pass) }
    }

    /// Polls until `condition` holds (the waiting tasks reach the writer in their own time).
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<2_000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
        #expect(condition())
    }

    @Test func resultsThatArriveDuringACommitShareTheNextTransaction() async throws {
        let store = try ResultStore(clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: nil)
        let queue = DispatchQueue(label: "held")
        queue.suspend()  // the first commit cannot start until every result is waiting
        let writer = GroupCommit(store: store, run: run, queue: queue)
        let results = Self.results(100)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for result in results { group.addTask { try await writer.record(result) } }
            try await Self.eventually { writer.pending == 100 }
            queue.resume()
            try await group.waitForAll()
        }
        #expect(writer.transactions == 1)
        #expect(try store.results(run: run).map(\.id).sorted() == results.map(\.id).sorted())
    }

    @Test func aTransactionCarriesAtMostTheBatchLimit() async throws {
        let store = try ResultStore(clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: nil)
        let queue = DispatchQueue(label: "held")
        queue.suspend()
        let writer = GroupCommit(store: store, run: run, queue: queue)
        let count = GroupCommit.batchLimit * 2 + 1
        try await withThrowingTaskGroup(of: Void.self) { group in
            for result in Self.results(count) { group.addTask { try await writer.record(result) } }
            try await Self.eventually { writer.pending == count }
            queue.resume()
            try await group.waitForAll()
        }
        #expect(writer.transactions == 3)
        #expect(try store.results(run: run).count == count)
    }

    /// What `--resume` relies on: once `record` returns, another connection sees the case.
    @Test func aRecordedResultIsStoredWhenRecordReturns() async throws {
        let path = Scratch.path("group") + "/coachlab.sqlite"
        let store = try ResultStore(path: path, clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: nil)
        let writer = GroupCommit(store: store, run: run)
        for result in Self.results(5) {
            try await writer.record(result)
            #expect(try ResultStore(readingFrom: path).results(run: run).map(\.id).contains(result.id))
        }
        #expect(writer.transactions == 5)
    }

    @Test func aFailedCommitFailsEveryCaseItCarried() async throws {
        let path = Scratch.path("group") + "/coachlab.sqlite"
        let run = try ResultStore(path: path, clock: Date.init).startRun(suites: [], providers: [], repeats: nil)
        let writer = GroupCommit(store: try ResultStore(readingFrom: path), run: run)
        let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
            for result in Self.results(10) {
                group.addTask {
                    do { try await writer.record(result); return false } catch { return true }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 10)
        #expect(writer.transactions == 0 && writer.pending == 0)
    }
}
