@testable import coachlab
import Testing

/// What a run says while it works: the cases done out of the total, those not passing and
/// erroring, the rate and the time left.
@Suite struct ProgressTests {
    @Test func theStatusLineSaysHowFarTheRunIsAndWhatIsLeft() {
        #expect(Progress.status(done: 120, total: 552, failed: 3, errors: 1, elapsed: .seconds(30))
                == "120/552 cases, 3 not passing, 1 error, 4.0 cases/s, about 1m48s left")
        #expect(Progress.status(done: 500, total: 552, failed: 0, errors: 0, elapsed: .seconds(2))
                == "500/552 cases, 0 not passing, 250 cases/s, about 0s left")
        // Under a second in, there is no rate yet to promise a time by.
        #expect(Progress.status(done: 3, total: 10, failed: 0, errors: 2, elapsed: .milliseconds(400)) == "3/10 cases, 0 not passing, 2 errors")
        #expect(Progress.status(done: 10, total: 10, failed: 1, errors: 0, elapsed: .seconds(5)) == "10/10 cases, 1 not passing, 2.0 cases/s")
    }

    /// Off a terminal (a CI log), a run that ends within ten seconds prints no progress line.
    @Test func aFastRunOffATerminalPrintsNoProgress() async throws {
        let run = try await CLI.run(["eval", "evals/luna.yaml"])
        #expect(run.status == 0)
        #expect(!run.stderr.contains("progress:"), "\(run.stderr)")
    }
}
