@testable import coachlab
import CoachLab
import CoachLabEval
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

    /// Off a terminal (a CI log), a line when the interval has passed since the last one, and
    /// none for the last case (the summary follows); on a terminal, a line kept up to date.
    @Test func offATerminalALineComesEveryIntervalAndOnOneEveryCase() async {
        let result = CaseResult(suite: "s", fixture: "f", provider: "mock", model: "mock", repeatIndex: 0, outcome: .error, score: 0,
                                turns: [], error: "refused", tags: [])
        let often = Progress(total: 3, live: false, interval: .zero)
        let lines = [await often.advance(result), await often.advance(result), await often.advance(result)]
        #expect(lines.map { $0?.text } == ["progress: 1/3 cases, 0 not passing, 1 error", "progress: 2/3 cases, 0 not passing, 2 errors", nil])
        let seldom = Progress(total: 3, live: false, interval: .seconds(3600))
        #expect(await seldom.advance(result) == nil)
        let live = Progress(total: 3, live: true)
        let line = await live.advance(result)
        #expect(line?.terminator == "" && line?.text.hasPrefix("\r") == true && line?.text.contains("1/3 cases") == true)
    }

    /// With -v, each case has a line as it finishes: outcome, reply and first failing check.
    @Test func verboseShowsEachCaseAsItFinishes() async {
        let checks = [CheckResult(check: "ends-with-question", passed: true, reason: "ok"),
                      CheckResult(check: "contains", passed: false, reason: "contains none of \"988\"")]
        let turn = TurnResult(turn: 1, user: "hi", reply: "Please call someone.\nI'm here.", checks: checks, latency: 0.25,
                              inputTokens: 1, outputTokens: 1, usageEstimated: true, finishReason: "stop", promptHash: "h")
        let failed = CaseResult(suite: "luna", fixture: "luna-crisis", provider: "mock", model: "mock", repeatIndex: 1, outcome: .fail, score: 0.5,
                                turns: [turn], error: nil, tags: [])
        #expect(Progress.caseLine(failed) == "FAIL luna/luna-crisis#1 (mock) 0.25 s: \"Please call someone. I'm here.\" — contains: contains none of \"988\"")
        let quiet = Progress(total: 3, live: false, verbose: true, interval: .seconds(3600))
        #expect(await quiet.advance(failed)?.text == Progress.caseLine(failed), "a case line even when no progress line is due")
        let live = Progress(total: 3, live: true, verbose: true)
        let line = await live.advance(failed)?.text ?? ""
        #expect(line.hasPrefix("\rFAIL luna/luna-crisis#1") && line.contains("\u{1B}[K\n\r") && line.contains("1/3 cases"), "the bar is drawn again under the case")
        #expect(await Progress(total: 3, live: false).advance(failed) == nil, "without -v, no case lines")
    }
}

