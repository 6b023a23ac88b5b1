import CoachLab
import Foundation
import GRDB

/// How each suite's pass rate, cost and latency moved over stored runs, per provider: what
/// `coachlab runs --trend` prints and `coachlab report trends` draws.
public struct Trends: Sendable {
    /// One suite on one provider in one run.
    public struct Point: Sendable, Hashable {
        public var run: String
        /// ISO 8601, as stored.
        public var startedAt: String
        public var suite: String
        public var provider: String
        public var cases: Int
        public var passed: Int
        public var failed: Int
        public var errors: Int
        /// US dollars, when the provider had prices.
        public var cost: Double?
        /// Seconds, over the run's replies.
        public var p95Latency: Double?

        /// The scored cases of each fixture's repeats, for the interval.
        public var repeatGroups: RepeatGroups?

        /// Over the cases that did not error, with its 95% Wilson interval (repeats of one
        /// fixture counted as what they are worth, ``PassRate/effectiveTotal``).
        public var passRate: PassRate { PassRate(passed: passed, total: passed + failed, groups: repeatGroups) }
    }

    /// Every point, oldest run first.
    public var points: [Point]

    /// The series: suite, then provider, each oldest first.
    public var series: [(suite: String, provider: String, points: [Point])] {
        let grouped = Dictionary(grouping: points) { "\($0.suite)\u{0}\($0.provider)" }
        return grouped.keys.sorted().map { key in
            let points = grouped[key]!
            return (points[0].suite, points[0].provider, points)
        }
    }

    /// Reads the trend of every suite (or one) over the store's runs, at most `limit` runs back.
    public init(store: ResultStore, suite: String? = nil, limit: Int = 50) throws {
        points = try store.trendPoints(suite: suite, runs: limit)
    }

    public init(points: [Point]) { self.points = points }
}

extension ResultStore {
    /// Per run, suite and provider: counts, cost and p95 latency, for the newest `runs` runs.
    func trendPoints(suite: String?, runs: Int) throws -> [Trends.Point] {
        try read { db in
            let recent = try String.fetchAll(db, sql: "SELECT id FROM run ORDER BY startedAt DESC, id DESC LIMIT ?", arguments: [max(1, runs)])
            guard !recent.isEmpty else { return [] }
            let placeholders = Array(repeating: "?", count: recent.count).joined(separator: ", ")
            var arguments = StatementArguments(recent)
            var filter = ""
            if let suite {
                filter = " AND caseResult.suite = ?"
                arguments += [suite]
            }
            var points: [String: Trends.Point] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT run.id AS run, run.startedAt AS startedAt, caseResult.suite AS suite, caseResult.provider AS provider,
                       COUNT(*) AS cases, SUM(caseResult.outcome = 'pass') AS passed, SUM(caseResult.outcome = 'fail') AS failed,
                       SUM(caseResult.outcome = 'error') AS errors
                FROM caseResult JOIN run ON run.id = caseResult.runId
                WHERE run.id IN (\(placeholders))\(filter)
                GROUP BY run.id, caseResult.suite, caseResult.provider
                """, arguments: arguments) {
                let point = Trends.Point(run: row["run"], startedAt: row["startedAt"], suite: row["suite"], provider: row["provider"],
                                         cases: row["cases"], passed: row["passed"], failed: row["failed"], errors: row["errors"])
                points["\(point.run)\u{0}\(point.suite)\u{0}\(point.provider)"] = point
            }
            // Each fixture's repeats, summed as the pass rate's interval needs them.
            for row in try Row.fetchAll(db, sql: """
                SELECT run, suite, provider, COUNT(*) AS groups, SUM(passed * passed) AS passedSquared,
                       SUM(passed * scored) AS passedTimesScored, SUM(scored * scored) AS scoredSquared
                FROM (SELECT caseResult.runId AS run, caseResult.suite AS suite, caseResult.provider AS provider,
                             SUM(caseResult.outcome = 'pass') AS passed, SUM(caseResult.outcome IN ('pass', 'fail')) AS scored
                      FROM caseResult WHERE caseResult.runId IN (\(placeholders))\(filter)
                      GROUP BY caseResult.runId, caseResult.suite, caseResult.provider, caseResult.fixture)
                WHERE scored > 0
                GROUP BY run, suite, provider
                """, arguments: arguments) {
                var groups = RepeatGroups()
                groups.add(count: row["groups"], passedSquared: row["passedSquared"], passedTimesScored: row["passedTimesScored"],
                           scoredSquared: row["scoredSquared"])
                points["\(row["run"] as String)\u{0}\(row["suite"] as String)\u{0}\(row["provider"] as String)"]?.repeatGroups = groups
            }
            var latencies: [String: [Double]] = [:]
            var costs: [String: Double] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT turnResult.runId AS run, caseResult.suite AS suite, caseResult.provider AS provider,
                       turnResult.latency AS latency, turnResult.cost AS cost
                FROM turnResult JOIN caseResult ON caseResult.runId = turnResult.runId AND caseResult.caseId = turnResult.caseId
                WHERE turnResult.runId IN (\(placeholders))\(filter)
                """, arguments: arguments) {
                let key = "\(row["run"] as String)\u{0}\(row["suite"] as String)\u{0}\(row["provider"] as String)"
                latencies[key, default: []].append(row["latency"])
                if let cost = row["cost"] as Double? { costs[key, default: 0] += cost }
            }
            for (key, values) in latencies {
                let sorted = values.sorted()
                points[key]?.p95Latency = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
                points[key]?.cost = costs[key]
            }
            return points.values.sorted { ($0.startedAt, $0.run, $0.suite, $0.provider) < ($1.startedAt, $1.run, $1.suite, $1.provider) }
        }
    }
}
