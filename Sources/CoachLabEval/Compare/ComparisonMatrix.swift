import CoachLab
import Foundation

/// Cases × providers: the side-by-side view `compare` prints and the HTML report draws.
/// A column is one provider in one run; a row is one case (suite/fixture#repeat) with a cell
/// per column that ran it. It holds every case in memory, so it is meant for comparison
/// runs (tens to a few thousand cases), not for ten-thousand-case soaks.
public struct ComparisonMatrix: Sendable {
    /// One provider in one run, with its summary.
    public struct Column: Sendable, Hashable {
        public var run: String
        public var provider: String
        /// What a person sees: the provider, with the run when several runs are compared.
        public var label: String
        public var summary: ColumnSummary
    }

    /// A column's figures.
    public struct ColumnSummary: Sendable, Hashable, Codable {
        public var cases = 0
        public var passed = 0
        public var failed = 0
        public var errors = 0
        /// Over cases that did not error.
        public var passRate = 0.0
        public var wilsonLow = 0.0
        public var wilsonHigh = 0.0
        /// Seconds per reply.
        public var medianLatency: Double?
        public var p95Latency: Double?
        public var medianTimeToFirstToken: Double?
        public var inputTokens = 0
        public var outputTokens = 0
        /// Whether any token count was estimated (the provider reported none).
        public var tokensEstimated = false
        /// US dollars; nil when the provider has no price.
        public var cost: Double?
        /// Every reply's latency, sorted (for the distribution chart).
        public var latencies: [Double] = []
    }

    /// One case across the columns.
    public struct Row: Sendable {
        /// suite/fixture#repeat.
        public var key: String
        public var suite: String
        public var fixture: String
        public var repeatIndex: Int
        public var tags: [String]
        /// By column index.
        public var cells: [Int: CaseResult]
    }

    /// Pass rate of one check in one column.
    public struct CheckRate: Sendable, Hashable {
        public var check: String
        /// By column index.
        public var rates: [Int: PassRate]
    }

    public var runs: [String]
    public var columns: [Column]
    public var rows: [Row]
    /// Every check that ran, by id, sorted.
    public var checks: [CheckRate]
    /// The prices of each run that kept them.
    public var prices: [String: PriceSheet]

    /// Builds the matrix of one or more stored runs.
    public init(runs reports: [RunReport]) throws {
        runs = reports.map(\.run)
        var columnIndex: [String: Int] = [:]
        var columns: [Column] = []
        var rows: [String: Row] = [:]
        var checkTotals: [String: [Int: PassRate]] = [:]
        var replyFigures: [Int: (latency: [Double], ttft: [Double])] = [:]
        // Each column's repeats of one fixture, for its pass rate's interval.
        var repeats: [Int: [String: (passed: Int, scored: Int)]] = [:]
        var prices: [String: PriceSheet] = [:]
        for report in reports {
            if let sheet = report.prices { prices[report.run] = sheet }
            var found: [CaseResult] = []
            try report.forEachCase { found.append($0) }
            // Columns follow the order the providers were named in, then the rest by name.
            let named = try report.store.run(report.run)?.providers ?? []
            let order = { (provider: String) in named.firstIndex(of: provider) ?? named.count }
            for provider in Set(found.map(\.provider)).sorted(by: { (order($0), $0) < (order($1), $1) }) {
                columnIndex[report.run + "\u{0}" + provider] = columns.count
                columns.append(Column(run: report.run, provider: provider, label: reports.count > 1 ? "\(provider) · \(report.run)" : provider,
                                      summary: ColumnSummary()))
            }
            for result in found {
                let column = columnIndex[report.run + "\u{0}" + result.provider]!
                let key = "\(result.suite)/\(result.fixture)#\(result.repeatIndex)"
                rows[key, default: Row(key: key, suite: result.suite, fixture: result.fixture, repeatIndex: result.repeatIndex,
                                       tags: result.tags, cells: [:])].cells[column] = result
                var summary = columns[column].summary
                summary.cases += 1
                switch result.outcome {
                case .pass: summary.passed += 1
                case .fail: summary.failed += 1
                case .error: summary.errors += 1
                }
                if result.outcome != .error {
                    var group = repeats[column, default: [:]][result.suite + "\u{0}" + result.fixture] ?? (0, 0)
                    group.scored += 1
                    if result.outcome == .pass { group.passed += 1 }
                    repeats[column, default: [:]][result.suite + "\u{0}" + result.fixture] = group
                }
                for turn in result.turns {
                    replyFigures[column, default: ([], [])].latency.append(turn.latency)
                    if let ttft = turn.timeToFirstToken { replyFigures[column, default: ([], [])].ttft.append(ttft) }
                    summary.inputTokens += turn.inputTokens
                    summary.outputTokens += turn.outputTokens
                    summary.tokensEstimated = summary.tokensEstimated || turn.usageEstimated
                    if let cost = turn.cost { summary.cost = (summary.cost ?? 0) + cost }
                    for check in turn.checks {
                        var rate = checkTotals[check.check, default: [:]][column] ?? PassRate(passed: 0, total: 0)
                        rate.total += 1
                        if check.passed { rate.passed += 1 }
                        checkTotals[check.check, default: [:]][column] = rate
                    }
                }
                columns[column].summary = summary
            }
        }
        for index in columns.indices {
            var summary = columns[index].summary
            var groups = RepeatGroups()
            for group in (repeats[index] ?? [:]).values { groups.add(passed: group.passed, scored: group.scored) }
            let rate = PassRate(passed: summary.passed, total: summary.passed + summary.failed, groups: groups)
            summary.passRate = rate.rate
            (summary.wilsonLow, summary.wilsonHigh) = rate.wilson
            let latencies = (replyFigures[index]?.latency ?? []).sorted()
            summary.latencies = latencies
            summary.medianLatency = Self.percentile(latencies, 0.5)
            summary.p95Latency = Self.percentile(latencies, 0.95)
            summary.medianTimeToFirstToken = Self.percentile((replyFigures[index]?.ttft ?? []).sorted(), 0.5)
            columns[index].summary = summary
        }
        self.columns = columns
        self.rows = rows.values.sorted { ($0.suite, $0.fixture, $0.repeatIndex) < ($1.suite, $1.fixture, $1.repeatIndex) }
        checks = checkTotals.keys.sorted().map { CheckRate(check: $0, rates: checkTotals[$0]!) }
        self.prices = prices
    }

    /// The nearest-rank percentile of sorted values; nil when there are none.
    public static func percentile(_ sorted: [Double], _ fraction: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}

extension ComparisonMatrix {
    /// The matrix as Markdown: the per-provider summary, then every case's outcome per provider.
    /// The Markdown summary's heading.
    public static let markdownHeading = "## CoachLab comparison\n"

    public func markdown() -> String {
        func seconds(_ value: Double?) -> String { value.map { String(format: "%.2f s", $0) } ?? "–" }
        var out = Self.markdownHeading + "\n| provider | cases | pass rate (95% CI) | errors | latency p50 | p95 | TTFT p50 | tokens | cost |\n"
        out += "|---|---:|---|---:|---:|---:|---:|---:|---:|\n"
        for column in columns {
            let s = column.summary
            out += "| \(column.label) | \(s.cases) | " + String(format: "%.1f%% (%.0f–%.0f%%)", s.passRate * 100, s.wilsonLow * 100, s.wilsonHigh * 100)
            out += " | \(s.errors) | \(seconds(s.medianLatency)) | \(seconds(s.p95Latency)) | \(seconds(s.medianTimeToFirstToken)) | "
            out += "\(s.inputTokens + s.outputTokens)\(s.tokensEstimated ? " (est.)" : "") | \(s.cost.map { String(format: "$%.4f", $0) } ?? "–") |\n"
        }
        out += "\n| case | " + columns.map(\.label).joined(separator: " | ") + " |\n|---|" + String(repeating: "---|", count: columns.count) + "\n"
        for row in rows {
            out += "| \(row.key) | " + columns.indices.map { index in
                guard let cell = row.cells[index] else { return "–" }
                return ["pass": "✅ pass", "fail": "❌ fail", "error": "⚠️ error"][cell.outcome.rawValue] ?? cell.outcome.rawValue
            }.joined(separator: " | ") + " |\n"
        }
        for run in runs { if let sheet = prices[run] { out += "\n_\(runs.count > 1 ? run + ": " : "")Costs use \(sheet.summary)._\n" } }
        return out
    }
}
