import Synchronization

/// The tallies of the runs a store started, kept as their cases are written, so the report at
/// the end of a run reads none of its rows back (5-10 ms of a 2,000-case run, once every case
/// is in). A case recorded again drops its run's tally, as does a commit by another connection
/// to the file: the rows are then the only account. Only the latest runs' tallies are kept,
/// so an app that records run after run in one store does not gather them all.
final class RunTallies: Sendable {
    /// How many runs' tallies are kept; an older run's counts come from its rows.
    static let kept = 4
    private let state = Mutex(State())

    private struct State {
        /// By the run id's bytes, as SQLite tells ids apart; each with the store's data
        /// version when the run began.
        var runs: [[UInt8]: (tally: RunTally, dataVersion: Int)] = [:]
        /// The runs begun, oldest first.
        var order: [[UInt8]] = []
    }

    func begin(_ run: String, dataVersion: Int) {
        let id = Array(run.utf8)
        state.withLock { state in
            state.runs[id] = (RunTally(), dataVersion)
            state.order.removeAll { $0 == id }
            state.order.append(id)
            while state.order.count > Self.kept { state.runs.removeValue(forKey: state.order.removeFirst()) }
        }
    }

    func drop(_ run: String) { _ = state.withLock { $0.runs.removeValue(forKey: Array(run.utf8)) } }

    /// Counts cases just committed to `run`, if its tally is kept.
    func add(_ results: [CaseResult], run: String, replacing: Bool) {
        let id = Array(run.utf8)
        state.withLock { state in
            guard let (kept, dataVersion) = state.runs.removeValue(forKey: id), !replacing else { return }
            var tally = kept
            for result in results {
                tally.add(CaseGroup.Key(suite: result.suite, fixture: result.fixture, provider: result.provider),
                          outcome: result.outcome.rawValue, repeatIndex: result.repeatIndex)
                tally.replies += result.turns.count
                tally.cachedReplies += result.turns.count { $0.cached }
            }
            state.runs[id] = (tally, dataVersion)
        }
    }

    subscript(run: String) -> (tally: RunTally, dataVersion: Int)? { state.withLock { $0.runs[Array(run.utf8)] } }
}
