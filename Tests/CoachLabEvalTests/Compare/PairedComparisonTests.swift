@testable import CoachLabEval
import Testing

/// The paired comparison against published and hand-worked tables.
@Suite struct PairedComparisonTests {
    @Test func theIntervalReducesToNewcombesPublishedExampleWithoutCorrelation() {
        // Newcombe (1998), "Interval estimation for the difference between independent
        // proportions", method 10: 56/70 − 48/80 = 0.2, with 95% limits 0.0524 and 0.3339.
        let interval = PairedComparison.newcombe(p1: 56.0 / 70, PairedComparison.wilson(56, 70),
                                                 p2: 48.0 / 80, PairedComparison.wilson(48, 80), phi: 0)
        #expect(abs(interval.low - 0.0524) < 0.00005, "\(interval)")
        #expect(abs(interval.high - 0.3339) < 0.00005, "\(interval)")
        // Wilson's own example: 81 of 263 gives 0.2553 to 0.3662 (Newcombe 1998, single proportion).
        let single = PairedComparison.wilson(81, 263)
        #expect(abs(single.0 - 0.2553) < 0.00005 && abs(single.1 - 0.3662) < 0.00005, "\(single)")
    }

    @Test func pairsThatAgreeGiveANarrowerIntervalThanIndependentSamples() {
        // The same margins, once with the discordance spread thin (strongly correlated) and
        // once as independent samples would be: pairing is what makes the difference clear.
        let paired = PairedComparison(bothPassed: 36, onlyA: 12, onlyB: 2, neither: 0)
        #expect(abs(paired.difference - 0.2) < 1e-12)
        let correlated = PairedComparison(bothPassed: 38, onlyA: 10, onlyB: 0, neither: 2)
        #expect(correlated.interval.high - correlated.interval.low < paired.interval.high - paired.interval.low)
        #expect(paired.interval.low > 0 && paired.interval.high < 0.35)
    }

    @Test func theExactMcNemarPValueIsTheBinomialTail() {
        // 1 pair for A, 6 for B: 2 · P(X ≤ 1), X ~ Bin(7, ½) = 2 · 8/128 = 0.125.
        #expect(abs(PairedComparison(bothPassed: 10, onlyA: 1, onlyB: 6, neither: 3).pValue - 0.125) < 1e-12)
        // 0 against 6: 2/64.
        #expect(abs(PairedComparison(bothPassed: 0, onlyA: 0, onlyB: 6, neither: 0).pValue - 2.0 / 64) < 1e-12)
        // Even splits and no discordant pairs are p = 1.
        #expect(PairedComparison(bothPassed: 5, onlyA: 3, onlyB: 3, neither: 5).pValue == 1)
        #expect(PairedComparison(bothPassed: 9, onlyA: 0, onlyB: 0, neither: 1).pValue == 1)
        // Agresti's presidential approval table (794, 150, 86, 570): significant far below 0.001.
        let approval = PairedComparison(bothPassed: 794, onlyA: 150, onlyB: 86, neither: 570)
        #expect(approval.pValue < 0.0001 && approval.verdict == .aBetter)
    }

    @Test func theVerdictNamesTheBetterSideOrHowManyCasesWouldTell() {
        let clear = PairedComparison(bothPassed: 20, onlyA: 0, onlyB: 9, neither: 1, labelA: "mock", labelB: "gemma")
        #expect(clear.verdict == .bBetter)
        #expect(clear.summary.hasSuffix("gemma is better."))
        let unclear = PairedComparison(bothPassed: 20, onlyA: 3, onlyB: 1, neither: 6, labelA: "a", labelB: "b")
        #expect(unclear.verdict == .noDetectableDifference)
        let needed = try! #require(unclear.casesNeeded)
        #expect(needed > unclear.pairs)
        #expect(unclear.summary.contains("No detectable difference at this sample size; about \(needed) paired cases"))
        #expect(PairedComparison(bothPassed: 4, onlyA: 2, onlyB: 2, neither: 0).summary.hasSuffix("they disagreed equally often."))
    }
}

/// A judge measured against people's labels.
@Suite struct CalibrationTests {
    @Test func cohensKappaMatchesTheTextbookTables() {
        // Wikipedia's worked examples: (20, 5, 10, 15) gives 0.4; (45, 15, 25, 15) gives 0.1304.
        #expect(abs(Calibration.kappa(20, 5, 10, 15) - 0.4) < 1e-12)
        #expect(abs(Calibration.kappa(45, 15, 25, 15) - 0.130434782608) < 1e-9)
        #expect(Calibration.kappa(10, 0, 0, 10) == 1)
        #expect(Calibration.kappa(0, 10, 10, 0) == -1)
    }

    @Test func theReportCountsTheTableAndListsTheDisagreements() {
        let calibration = Calibration(judge: "j", pairs: [
            .init(judgement: "a", criterion: "c", humanPassed: true, judgePassed: true, judgeReason: "ok"),
            .init(judgement: "b", criterion: "c", humanPassed: false, judgePassed: true, judgeReason: "judge (j) pass: looks fine"),
            .init(judgement: "c", criterion: "c", humanPassed: false, judgePassed: false, judgeReason: "no"),
            .init(judgement: "d", criterion: "c", humanPassed: true, judgePassed: nil, judgeReason: "could not be parsed"),
        ])
        #expect(calibration.answered == 3)
        #expect(abs(calibration.agreement - 2.0 / 3) < 1e-12)
        let text = calibration.text()
        #expect(text.contains("(1 got no usable answer)"))
        #expect(text.contains("b c: the person said fail, the judge judge (j) pass: looks fine"))
        #expect(text.contains("d c: could not be parsed"))
    }
}
