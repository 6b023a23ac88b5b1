import CoachLab
@testable import CoachLabEval
import Foundation
import Testing

/// The repeats of one fixture are not independent samples. The pass rate's interval counts
/// them as what they are worth: ten fixtures whose ten repeats always agree are ten cases,
/// not a hundred, and repeats that vary as fresh cases would count in full.
@Suite struct RepeatIntervalTests {
    /// A pass rate over groups of repeats, each given as (passes, scored cases).
    static func rate(_ groups: [(passed: Int, scored: Int)]) -> PassRate {
        var repeats = RepeatGroups()
        for group in groups { repeats.add(passed: group.passed, scored: group.scored) }
        return PassRate(passed: groups.reduce(0) { $0 + $1.passed }, total: groups.reduce(0) { $0 + $1.scored }, groups: repeats)
    }

    static func close(_ left: (low: Double, high: Double), _ right: (low: Double, high: Double)) -> Bool {
        abs(left.low - right.low) < 1e-12 && abs(left.high - right.high) < 1e-12
    }

    @Test func repeatsThatAlwaysAgreeCountOncePerFixture() {
        // Seven fixtures always pass and three always fail, ten repeats each. As a hundred
        // independent cases the interval was 60-78%; as ten fixtures it is 40-89%.
        let agreeing = Self.rate(Array(repeating: (10, 10), count: 7) + Array(repeating: (0, 10), count: 3))
        #expect(agreeing.effectiveTotal == 10)
        #expect(Self.close(agreeing.wilson, PassRate(passed: 7, total: 10).wilson))
        let asIndependent = PassRate(passed: 70, total: 100).wilson
        #expect(agreeing.wilson.low < asIndependent.low - 0.15 && agreeing.wilson.high > asIndependent.high + 0.1)
    }

    @Test func repeatsThatAllPassSayNoMoreThanTheirFixtures() {
        let passing = Self.rate(Array(repeating: (10, 10), count: 10))
        #expect(passing.effectiveTotal == 10)
        #expect(Self.close(passing.wilson, PassRate(passed: 10, total: 10).wilson))
        #expect(passing.wilson.low < 0.75 && PassRate(passed: 100, total: 100).wilson.low > 0.96)
        let failing = Self.rate(Array(repeating: (0, 4), count: 5))
        #expect(failing.effectiveTotal == 5 && failing.wilson.low == 0)
    }

    @Test func repeatsThatVaryAsFreshCasesWouldCountInFull() {
        // Every fixture passes 7 of its 10: nothing sets one fixture apart from another.
        let even = Self.rate(Array(repeating: (7, 10), count: 10))
        #expect(even.effectiveTotal == 100)
        #expect(Self.close(even.wilson, PassRate(passed: 70, total: 100).wilson))
    }

    @Test func partlyAgreeingRepeatsCountBetweenTheirFixturesAndTheirCases() {
        // Fixtures that lean one way but not always: the design effect falls between.
        let leaning = Self.rate([(5, 5), (5, 5), (4, 5), (5, 5), (1, 5), (0, 5), (4, 5), (5, 5)])
        let p = 29.0 / 40
        let spread = [5, 5, 4, 5, 1, 0, 4, 5].reduce(0.0) { $0 + pow(Double($1) - 5 * p, 2) }
        let clustered = 8.0 / 7 * spread / (40 * 40)
        let expected = 40 * (p * (1 - p) / 40) / clustered
        #expect(abs(leaning.effectiveTotal - expected) < 1e-9)
        #expect(leaning.effectiveTotal > 8 && leaning.effectiveTotal < 40)
    }

    @Test func oneCaseAFixtureIsThePlainInterval() {
        let single = Self.rate([(1, 1), (0, 1), (1, 1), (1, 1)])
        #expect(single.effectiveTotal == 4)
        #expect(Self.close(single.wilson, PassRate(passed: 3, total: 4).wilson))
        // Groups unknown: each case its own.
        #expect(PassRate(passed: 70, total: 100).effectiveTotal == 100)
    }

    /// The run's report, the comparison of runs and the trend over runs give one interval for
    /// the same cases.
    @Test func theReportTheComparisonAndTheTrendAgree() throws {
        let store = try ResultStore(clock: { Date(timeIntervalSince1970: 0) })
        let run = try store.startRun(suites: ["evals/x.yaml"], providers: ["mock"], repeats: 4, id: "r1")
        var results: [CaseResult] = []
        for (fixture, passes) in [("a", 4), ("b", 4), ("c", 0), ("d", 3), ("e", 4)] {
            for repeatIndex in 1...4 {
                let outcome: Outcome = repeatIndex <= passes ? .pass : .fail
                results.append(CaseResult(suite: "x", fixture: fixture, provider: "mock", model: "m", repeatIndex: repeatIndex,
                                          outcome: outcome, score: outcome == .pass ? 1 : 0, turns: [], error: nil, tags: []))
            }
        }
        // An error is no scored case, and a fixture of errors alone is no group.
        results.append(CaseResult(suite: "x", fixture: "f", provider: "mock", model: "m", repeatIndex: 1, outcome: .error, score: 0,
                                  turns: [], error: "timeout", tags: []))
        try store.record(results, run: run)
        let expected = Self.rate([(4, 4), (4, 4), (0, 4), (3, 4), (4, 4)]).wilson
        let files = ["evals/x.yaml": "suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\n",
                     "fixtures/x/a.yaml": "fixture: {id: a, pack: personas/luna}\nturns:\n  - user: Hello\n"]
        let suite = try #require(EvalLoader(fileSystem: .inMemory(files)).suite(at: "evals/x.yaml").0)
        let report = try RunReport(run: run, suites: [suite], store: store)
        let summary = try #require(report.suites.first)
        #expect(Self.close((summary.wilsonLow, summary.wilsonHigh), expected))
        #expect(summary.wilsonLow < PassRate(passed: 15, total: 20).wilson.low)
        let column = try #require(try ComparisonMatrix(runs: [report]).columns.first)
        #expect(Self.close((column.summary.wilsonLow, column.summary.wilsonHigh), expected))
        let point = try #require(try Trends(store: store).points.first)
        #expect(Self.close(point.passRate.wilson, expected))
    }

    /// Three fixtures on which A always beats B, four repeats each, and two ties: as twenty
    /// independent pairs the exact test said p = 0.0005; as five fixtures it is no finding.
    @Test func pairsOfOneFixtureAreClusteredInTheComparison() throws {
        let store = try ResultStore(clock: { Date(timeIntervalSince1970: 0) })
        let run = try store.startRun(suites: ["evals/x.yaml"], providers: ["a", "b"], repeats: 4, id: "r1")
        var results: [CaseResult] = []
        for (fixture, aPasses, bPasses) in [("f1", true, false), ("f2", true, false), ("f3", true, false), ("f4", true, true), ("f5", true, true)] {
            for repeatIndex in 1...4 {
                for (provider, passes) in [("a", aPasses), ("b", bPasses)] {
                    results.append(CaseResult(suite: "x", fixture: fixture, provider: provider, model: "m", repeatIndex: repeatIndex,
                                              outcome: passes ? .pass : .fail, score: passes ? 1 : 0, turns: [], error: nil, tags: []))
                }
            }
        }
        try store.record(results, run: run)
        let files = ["evals/x.yaml": "suite: {id: x}\nfixtures: [fixtures/x/*.yaml]\n",
                     "fixtures/x/a.yaml": "fixture: {id: a, pack: personas/luna}\nturns:\n  - user: Hello\n"]
        let suite = try #require(EvalLoader(fileSystem: .inMemory(files)).suite(at: "evals/x.yaml").0)
        let matrix = try ComparisonMatrix(runs: [try RunReport(run: run, suites: [suite], store: store)])
        let paired = PairedComparison(matrix, columns: 0, 1)
        #expect(paired.onlyA == 12 && paired.onlyB == 0 && paired.pairs == 20 && paired.isClustered)
        #expect(paired.effectivePairs == 5)
        // Durkalski: 12² over three fixtures of 4² each, 3 on χ²(1).
        #expect(abs(paired.pValue - erfc(1.5.squareRoot())) < 1e-12)
        #expect(paired.verdict == .noDetectableDifference)
        var independent = paired
        independent.clusters = []
        #expect(independent.pValue < 0.001 && independent.verdict == .aBetter)
        #expect(paired.interval.low < independent.interval.low - 0.15)
        #expect(paired.summary.contains("on 20 paired cases (5 fixtures with their repeats, worth about 5 independent pairs)"))
        #expect(paired.summary.contains("clustered McNemar p = 0.083") && paired.summary.contains("fixtures would show"), "\(paired.summary)")
    }
}
