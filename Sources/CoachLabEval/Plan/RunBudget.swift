import Foundation
import Synchronization

/// `--max-cost`: the most a run may spend, in US dollars. Each finished case adds its cost; the
/// run is to stop when what it has spent, plus what the cases still in flight are likely to
/// cost (the mean of a finished case's, for each), would pass the limit. What is done is stored,
/// so `--resume` goes on from there.
public final class RunBudget: Sendable {
    public let limit: Double
    private let state = Mutex((spent: 0.0, finished: 0, over: false))

    public init(limit: Double) { self.limit = limit }

    /// What has been spent.
    public var spent: Double { state.withLock { $0.spent } }
    /// Whether the run was stopped for the budget.
    public var stopped: Bool { state.withLock { $0.over } }

    /// Counts a finished case; true the first time the run should stop, with `inFlight` cases
    /// still running.
    public func record(_ result: CaseResult, inFlight: Int) -> Bool {
        let cost = result.turns.compactMap(\.cost).reduce(0, +)
        return state.withLock { state in
            state.spent += cost
            state.finished += 1
            guard !state.over else { return false }
            let likely = state.spent + state.spent / Double(state.finished) * Double(max(inFlight, 0))
            state.over = state.spent >= limit || likely > limit + 1e-9  // sums of prices are not exact in binary
            return state.over
        }
    }
}
