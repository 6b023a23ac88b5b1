import CoachLab
import Foundation
import Synchronization

/// Stores a run's results as they finish, in group commits. A result waits while the
/// transaction ahead of it commits, then goes into the next one with every result that
/// arrived in the meantime. Under load one transaction carries many cases; a result that
/// arrives alone is committed alone, at once.
///
/// ``record(_:)`` returns only once its result is committed, so a case counts as finished only
/// when it is stored, and a killed run still loses nothing but the cases in flight. Commits run
/// on their own serial queue, so no thread of the task pool waits on SQLite.
public final class GroupCommit: Sendable {
    /// The most cases one transaction carries.
    public static let batchLimit = 256

    private let store: ResultStore
    private let run: String
    private let queue: DispatchQueue
    private let state = Mutex(State())

    private struct State {
        var waiting: [(result: CaseResult, continuation: CheckedContinuation<Void, any Error>)] = []
        var committing = false
        var committed = 0
    }

    /// A writer of results into `run` of `store`.
    /// - Parameter queue: The serial queue commits run on (a test may suspend it).
    public init(store: ResultStore, run: String, queue: DispatchQueue = DispatchQueue(label: "coachlab.group-commit")) {
        self.store = store
        self.run = run
        self.queue = queue
    }

    /// The transactions committed so far.
    public var transactions: Int { state.withLock { $0.committed } }

    /// Results waiting for a commit.
    public var pending: Int { state.withLock { $0.waiting.count } }

    /// Stores `result`, returning once the transaction that holds it has committed.
    /// - Throws: The store's error when that transaction fails (every result in it fails).
    public func record(_ result: CaseResult) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let idle = state.withLock { state in
                state.waiting.append((result, continuation))
                defer { state.committing = true }
                return !state.committing
            }
            if idle { queue.async { self.drain() } }
        }
    }

    private func drain() {
        while true {
            let batch = state.withLock { state in
                let batch = Array(state.waiting.prefix(Self.batchLimit))
                state.waiting.removeFirst(batch.count)
                if batch.isEmpty { state.committing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try store.record(batch.lazy.map(\.result), run: run)
                state.withLock { $0.committed += 1 }
                for entry in batch { entry.continuation.resume() }
            } catch {
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
        }
    }
}
