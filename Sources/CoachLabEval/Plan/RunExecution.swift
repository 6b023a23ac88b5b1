import CoachLab
import CoachLabProviders

/// Runs a plan's cases into the store, a result at a time, and marks the run finished or
/// interrupted: cancelling the task that runs it is a clean stop, where the cases in flight
/// are dropped and finished ones stay stored for `--resume`.
public struct RunExecution: Sendable {
    /// Whether the run was cancelled before every case finished.
    public var interrupted: Bool
    /// Cases finished (and stored) by this execution.
    public var done: Int
    /// Wall-clock seconds, planning excluded.
    public var seconds: Double
    public var run: String

    /// Executes `plan`, handing each stored result to `progress`.
    /// - Throws: ``ProviderError`` when a provider cannot be built (the run is marked
    ///   interrupted); store errors.
    public static func run(_ plan: EvalPlan, store: ResultStore, clock: ContinuousClock = ContinuousClock(),
                           progress: @escaping @Sendable (CaseResult) async -> Void = { _ in }) async throws -> RunExecution {
        let started = clock.now
        let counter = Counter()
        let run = plan.run
        var interrupted = false
        let writer = GroupCommit(store: store, run: run)
        do {
            try await plan.runner.run(plan.suites, include: plan.include) { result in
                try await writer.record(result)
                await counter.increment()
                await progress(result)
            }
        } catch is CancellationError {
            interrupted = true
        } catch {
            try? store.finishRun(run, status: "interrupted")
            throw error
        }
        try store.finishRun(run, status: interrupted ? "interrupted" : "finished")
        let elapsed = started.duration(to: clock.now)
        return RunExecution(interrupted: interrupted, done: await counter.value,
                            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, run: run)
    }

    /// "N cases in S s (R cases/s)", with "1 case" for one.
    public var speed: String {
        "\(done) \(done == 1 ? "case" : "cases") in "
            + String(format: "%.2f s (%.0f cases/s)", seconds, seconds > 0 ? Double(done) / seconds : 0)
    }

    private actor Counter {
        var value = 0
        func increment() { value += 1 }
    }
}
