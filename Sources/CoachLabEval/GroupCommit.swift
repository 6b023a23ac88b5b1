import CoachLab
import Foundation

/// Stores a run's results as they finish, in group commits. A result waits while the
/// transaction ahead of it commits, then goes into the next one with every result that
/// arrived in the meantime. Under load one transaction carries many cases; a result that
/// arrives alone is committed alone, at once.
///
/// ``record(_:)`` returns only once its result is committed, so a case counts as finished only
/// when it is stored, and a killed run still loses nothing but the cases in flight. Commits run
/// on their own serial queue, so no thread of the task pool waits on SQLite.
public final class GroupCommit: @unchecked Sendable {
    /// The most cases one transaction carries.
    public static let batchLimit = 256

    private let store: ResultStore
    private let run: String
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var waiting: [(result: CaseResult, continuation: CheckedContinuation<Void, any Error>)] = []  // guarded by `lock`
    private var committing = false  // guarded by `lock`
    private var committed = 0  // guarded by `lock`

    /// A writer of results into `run` of `store`.
    /// - Parameter queue: The serial queue commits run on (a test may suspend it).
    public init(store: ResultStore, run: String, queue: DispatchQueue = DispatchQueue(label: "coachlab.group-commit")) {
        self.store = store
        self.run = run
        self.queue = queue
    }

    /// The transactions committed so far.
    public var transactions: Int { lock.withLock { committed } }

    /// Results waiting for a commit.
    public var pending: Int { lock.withLock { waiting.count } }

    /// Stores `result`, returning once the transaction that holds it has committed.
    /// - Throws: The store's error when that transaction fails (every result in it fails).
    public func record(_ result: CaseResult) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let idle = lock.withLock {
                waiting.append((result, continuation))
                defer { committing = true }
                return !committing
            }
            if idle { queue.async { self.drain() } }
        }
    }

    private func drain() {
        while true {
            let batch = lock.withLock {
                let batch = waiting.prefix(Self.batchLimit)
                waiting.removeFirst(batch.count)
                if batch.isEmpty { committing = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try store.record(batch.lazy.map(\.result), run: run)
                lock.withLock { committed += 1 }
                for entry in batch { entry.continuation.resume() }
            } catch {
                for entry in batch { entry.continuation.resume(throwing: error) }
            }
        }
    }
}
