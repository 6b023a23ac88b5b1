@testable import CoachLabEval
import Foundation
import Testing

/// The charts CoachLab draws into the HTML report.
@Suite struct HTMLChartTests {
    /// A check no reply of a provider met is "n/a", not a bar of 0%, and every bar says its rate.
    @Test func theCheckChartTellsNoSuchCheckFromNoneThatPassed() async throws {
        let report = try await ReporterGoldenTests.report()
        var matrix = try ComparisonMatrix(runs: [report])
        #expect(matrix.columns.count == 2)
        let row = try #require(matrix.checks.firstIndex { $0.rates.count == 2 })
        matrix.checks[row].rates[0] = PassRate(passed: 0, total: 3)
        matrix.checks[row].rates[1] = nil
        let chart = try HTMLReport(runs: [report]).checkChart(matrix)
        let check = matrix.checks[row].check
        #expect(chart.contains("\(check) on \(matrix.columns[0].label): 0/3 passed"))
        #expect(chart.contains(">0%</text>"))
        #expect(chart.contains(">n/a<title>\(check) on \(matrix.columns[1].label): no reply met this check</title>"))
        #expect(chart.components(separatedBy: "class=\"na\"").count - 1 == 1, "only the missing rate is n/a")
    }

    /// Latency ticks are round numbers from 0 that reach past the slowest reply.
    static let latencies: [(Double, [Double])] = [(0.025, [0, 0.01, 0.02, 0.03]), (0.019, [0, 0.005, 0.01, 0.015, 0.02]),
                                                  (3.2, [0, 1, 2, 3, 4]), (0, [0, 0.00025, 0.0005, 0.00075, 0.001])]

    @Test(arguments: latencies)
    func latencyTicksAreRound(maximum: Double, expected: [Double]) {
        let ticks = HTMLReport.ticks(upTo: maximum)
        #expect(ticks.count == expected.count)
        for (tick, want) in zip(ticks, expected) { #expect(abs(tick - want) < 1e-12) }
        #expect(ticks.last! >= maximum)
    }
}
