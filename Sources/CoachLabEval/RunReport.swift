import CoachLab
import Foundation

/// A finished (or interrupted) run, as reporters see it.
public struct RunReport: Sendable, Codable {
    /// One suite's totals.
    public struct SuiteSummary: Sendable, Codable, Hashable {
        public var suite: String
        public var threshold: Double
        public var cases: Int
        public var passed: Int
        public var failed: Int
        public var errors: Int
        /// Pass rate over cases that did not error.
        public var passRate: Double
        public var wilsonLow: Double
        public var wilsonHigh: Double
        /// Cases whose repeats disagreed.
        public var flaky: [String]
        /// Fixture-level pass^N (every repeat passed) and pass@N (at least one did).
        public var passAllRepeats: Double
        public var passAnyRepeat: Double
        public var held: Bool
    }

    public var run: String
    public var suites: [SuiteSummary]
    public var cases: [CaseResult]

    /// Builds a report from results.
    public init(run: String, suites: [Suite], results: [CaseResult]) {
        self.run = run
        self.cases = results.sorted { $0.id < $1.id }
        self.suites = suites.map { suite in
            let mine = results.filter { $0.suite == suite.id }
            let scored = mine.filter { $0.outcome != .error }
            let passed = scored.filter { $0.outcome == .pass }.count
            let rate = PassRate(passed: passed, total: scored.count)
            let byFixture = Dictionary(grouping: mine) { "\($0.fixture)/\($0.provider)" }
            let flaky = byFixture.filter { Set($0.value.map(\.outcome)).count > 1 }.keys.sorted()
            let groups = Double(max(byFixture.count, 1))
            let all = Double(byFixture.values.filter { $0.allSatisfy { $0.outcome == .pass } }.count) / groups
            let any = Double(byFixture.values.filter { $0.contains { $0.outcome == .pass } }.count) / groups
            let errors = mine.count - scored.count
            return SuiteSummary(suite: suite.id, threshold: suite.threshold, cases: mine.count, passed: passed,
                                failed: scored.count - passed, errors: errors, passRate: rate.rate, wilsonLow: rate.wilson.low,
                                wilsonHigh: rate.wilson.high, flaky: flaky, passAllRepeats: all, passAnyRepeat: any,
                                held: errors == 0 && !scored.isEmpty && rate.rate + 1e-9 >= suite.threshold)
        }
    }

    /// The overall pass rate over cases that did not error.
    public var passRate: Double {
        let scored = cases.filter { $0.outcome != .error }
        return scored.isEmpty ? 0 : Double(scored.filter { $0.outcome == .pass }.count) / Double(scored.count)
    }

    /// Exit code per DESIGN.md: 3 when a provider error kept cases from completing, 1 when a
    /// threshold (or `failUnder`) was missed, else 0.
    public func exitCode(failUnder: Double? = nil) -> Int32 {
        if cases.contains(where: { $0.outcome == .error }) { return 3 }
        if suites.contains(where: { !$0.held }) { return 1 }
        if let failUnder, passRate + 1e-9 < failUnder { return 1 }
        return 0
    }
}

/// Reporters: pure renderers of a run report.
public enum Reporters {
    /// JSON with sorted keys.
    public static func json(_ report: RunReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (String(data: (try? encoder.encode(report)) ?? Data(), encoding: .utf8) ?? "{}") + "\n"
    }

    /// JUnit XML: one testsuite per suite, one testcase per case × provider × repeat.
    public static func junit(_ report: RunReport) -> String {
        func escape(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&apos;"
                default:
                    if scalar.value < 0x20, scalar != "\n", scalar != "\t", scalar != "\r" { continue }
                    out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = report.cases.filter { $0.outcome == .fail }.count
        let errors = report.cases.filter { $0.outcome == .error }.count
        xml += "<testsuites name=\"coachlab\" tests=\"\(report.cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for summary in report.suites {
            let cases = report.cases.filter { $0.suite == summary.suite }
            xml += "  <testsuite name=\"\(escape(summary.suite))\" tests=\"\(cases.count)\" failures=\"\(summary.failed)\" errors=\"\(summary.errors)\">\n"
            for result in cases {
                let time = String(format: "%.3f", result.turns.reduce(0) { $0 + $1.latency })
                let name = "\(result.fixture) [\(result.provider)]" + (result.repeatIndex > 1 || cases.contains { $0.repeatIndex > 1 } ? " #\(result.repeatIndex)" : "")
                xml += "    <testcase classname=\"\(escape(result.suite))\" name=\"\(escape(name))\" time=\"\(time)\""
                switch result.outcome {
                case .pass:
                    xml += "/>\n"
                case .fail:
                    let lines = result.failures.map { "turn \($0.turn): \($0.check.check): \($0.check.reason)" }
                    xml += ">\n      <failure message=\"\(escape(lines.first ?? "failed"))\">\(escape(lines.joined(separator: "\n")))</failure>\n    </testcase>\n"
                case .error:
                    xml += ">\n      <error message=\"\(escape(result.error ?? "error"))\"/>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// Markdown for a CI job summary.
    public static func markdown(_ report: RunReport) -> String {
        var out = "## CoachLab eval\n\n| suite | cases | pass | fail | error | pass rate (95% CI) | threshold | |\n|---|---:|---:|---:|---:|---|---:|---|\n"
        for summary in report.suites {
            out += "| \(summary.suite) | \(summary.cases) | \(summary.passed) | \(summary.failed) | \(summary.errors) | "
            out += String(format: "%.1f%% (%.1f–%.1f%%)", summary.passRate * 100, summary.wilsonLow * 100, summary.wilsonHigh * 100)
            out += String(format: " | %.0f%% | %@ |\n", summary.threshold * 100, summary.held ? "✅" : "❌")
        }
        let failing = report.cases.filter { $0.outcome != .pass }
        if !failing.isEmpty {
            out += "\n### Failing cases\n\n"
            for result in failing {
                if result.outcome == .error {
                    out += "- **\(result.id)** error: \(result.error ?? "")\n"
                } else {
                    for failure in result.failures { out += "- **\(result.id)** turn \(failure.turn) `\(failure.check.check)`: \(failure.check.reason)\n" }
                }
            }
        }
        return out
    }
}
