import CoachLab
import CoachLabProviders
import Foundation
import GRDB

extension ResultStore {
    /// What a run was started with, so `--resume` can repeat it.
    public struct RunInfo: Sendable, Hashable {
        public var id: String
        public var startedAt: String
        public var finishedAt: String?
        public var suites: [String]
        public var providers: [String]
        public var repeats: Int?
        public var status: String
        /// The cases it set out to run; nil for runs stored before this was kept.
        public var planned: Int?
        public var cases: Int
        public var passed: Int
        public var failed: Int
        public var errors: Int
        /// The prices its costs used.
        public var prices: PriceSheet?
        /// `--base-url`, for inline providers.
        public var baseURL: String?
        /// `--api-key-env`, for inline providers: the variable's name, never the key.
        public var apiKeyEnv: String?
        /// The command line's provider settings.
        public var settings = ProviderOverrides()
    }

    /// A kept compiled prompt, by hash.
    public func compiledPrompt(_ hash: String) throws -> CompiledPrompt? {
        try read { db in
            guard let body = try String.fetchOne(db, sql: "SELECT body FROM compiledPrompt WHERE hash = ?", arguments: [hash]) else { return nil }
            return try? JSONDecoder().decode(CompiledPrompt.self, from: Data(body.utf8))
        }
    }

    /// The guardrail log, newest first: every entry, or those of one run or rule.
    public func guardrailLog(run: String? = nil, rule: String? = nil, limit: Int = 100) throws -> [GuardrailLogEntry] {
        let limit = min(max(1, limit), Int(Int32.max))
        return try read { db in
            var conditions: [String] = []
            var arguments: [(any DatabaseValueConvertible)?] = []
            if let run { conditions.append("runId = ?"); arguments.append(run) }
            if let rule { conditions.append("ruleId = ?"); arguments.append(rule) }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            return try Row.fetchAll(db, sql: "SELECT * FROM guardrailLog\(filter) ORDER BY id DESC LIMIT \(limit)",
                                    arguments: StatementArguments(arguments)).map { row in
                GuardrailLogEntry(at: row["at"], source: row["source"], runId: row["runId"], caseId: row["caseId"], turn: row["turn"],
                                  pack: row["pack"], trigger: row["trigger"], stage: row["stage"], ruleId: row["ruleId"],
                                  ruleTitle: row["ruleTitle"], matched: row["matched"], excerpt: row["excerpt"], message: row["message"],
                                  reply: row["reply"])
            }
        }
    }

    /// How many of a run's replies came from the response cache, and how many there were.
    public func cachedReplies(run: String) throws -> (cached: Int, replies: Int) {
        if let tally = try tally(of: run) { return (tally.cachedReplies, tally.replies) }
        return try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*) AS replies, SUM(cached) AS cached FROM turnResult WHERE runId = ?",
                                       arguments: [run])
            return (row?["cached"] ?? 0, row?["replies"] ?? 0)
        }
    }

    /// The ids of the cases a run has finished.
    public func finishedCases(run: String) throws -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT caseId FROM caseResult WHERE runId = ?", arguments: [run])) }
    }

    /// Results of a run, rebuilt from the tables, in case-id order: every one, or only those
    /// with the given outcomes.
    public func results(run: String, outcomes: Set<Outcome>? = nil) throws -> [CaseResult] {
        var all: [CaseResult] = []
        try forEachResult(run: run, outcomes: outcomes) { all.append($0) }
        return all
    }

    /// Calls `body` with each result of a run in (suite, case id) order, reading a batch at a
    /// time, so a report over any number of cases holds only one batch in memory.
    public func forEachResult(run: String, outcomes: Set<Outcome>? = nil, batchSize: Int = 256,
                              _ body: (CaseResult) throws -> Void) throws {
        try forEachBatch(run: run, outcomes: outcomes, batchSize: batchSize) { batch in
            for result in batch { try body(result) }
        }
    }

    /// Calls `body` with the results of a run in (suite, id) order, `batchSize` at a time.
    public func forEachBatch(run: String, outcomes: Set<Outcome>? = nil, batchSize: Int = 256,
                             _ body: ([CaseResult]) throws -> Void) throws {
        let filter = outcomes.map { set in " AND outcome IN (" + set.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ") + ")" } ?? ""
        var after: (suite: String, caseId: String)? = nil
        while true {
            let cursor = after
            let batch: [CaseResult] = try read { db in
                let rows = try Row.fetchAll(db, sql: """
                    SELECT caseId, suite, fixture, provider, model, repeatIndex, outcome, score, error, tags, pack
                    FROM caseResult WHERE runId = ?\(filter)\(cursor == nil ? "" : " AND (suite, caseId) > (?, ?)")
                    ORDER BY suite, caseId LIMIT \(batchSize)
                    """, arguments: StatementArguments([run] + (cursor.map { [$0.suite, $0.caseId] } ?? [])))
                return try Self.results(rows, run: run, db: db)
            }
            if !batch.isEmpty { try body(batch) }
            guard batch.count == batchSize, let last = batch.last else { return }
            after = (last.suite, last.id)
        }
    }

    /// The results of a batch of case rows, with their turns and checks read in one query each
    /// rather than two per case. Columns are read by position (named in each SELECT), which
    /// spares a name lookup per value.
    static func results(_ rows: [Row], run: String, db: Database) throws -> [CaseResult] {
        guard !rows.isEmpty else { return [] }
        let ids: [String] = rows.map { $0[0] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
        let arguments = StatementArguments([run] + ids)
        var checks: [String: [Int: [CheckResult]]] = [:]
        for check in try Row.fetchAll(db, sql: """
            SELECT caseId, turn, checkId, passed, score, reason, weight FROM checkResult
            WHERE runId = ? AND caseId IN (\(placeholders)) ORDER BY caseId, turn, position
            """, arguments: arguments) {
            checks[check[0], default: [:]][check[1], default: []].append(
                CheckResult(check: check[2], passed: check[3], score: check[4], reason: check[5], weight: check[6]))
        }
        var turns: [String: [TurnResult]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT caseId, turn, user, reply, flaggedRule, latency, timeToFirstToken, inputTokens, outputTokens, usageEstimated,
                   cost, finishReason, promptHash, sanitized, cached, simulated, screening
            FROM turnResult WHERE runId = ? AND caseId IN (\(placeholders)) ORDER BY caseId, turn
            """, arguments: arguments) {
            let caseId: String = row[0]
            let number: Int = row[1]
            var turn = TurnResult(turn: number, user: row[2], reply: row[3], checks: checks[caseId]?[number] ?? [],
                                  flaggedRule: row[4], latency: row[5], timeToFirstToken: row[6], inputTokens: row[7], outputTokens: row[8],
                                  usageEstimated: row[9], cost: row[10], finishReason: row[11], promptHash: row[12])
            turn.sanitized = (row[13] as String?).flatMap { try? JSONValue.parse(Data($0.utf8)) }?.array?.compactMap(\.string)
            turn.cached = row[14] ?? false
            turn.simulated = row[15] ?? false
            turn.screening = (row[16] as String?).flatMap { try? JSONDecoder().decode(ScreeningResult.self, from: Data($0.utf8)) }
            turns[caseId, default: []].append(turn)
        }
        return rows.map { row in
            let caseId: String = row[0]
            let tags = (try? JSONValue.parse(Data((row[9] as String).utf8)))?.array?.compactMap(\.string) ?? []
            return CaseResult(suite: row[1], fixture: row[2], provider: row[3], model: row[4], repeatIndex: row[5],
                              outcome: Outcome(rawValue: row[6]) ?? .error, score: row[7], turns: turns[caseId] ?? [], error: row[8],
                              tags: tags, pack: row[10])
        }
    }

    /// Per-suite counts of a run, computed in SQL.
    public struct SuiteCounts: Sendable, Hashable {
        public var cases = 0, passed = 0, failed = 0, errors = 0, repeats = 1
        /// Fixture × provider groups; those whose every repeat passed; those with at least one pass.
        public var groups = 0, groupsAllPassed = 0, groupsAnyPassed = 0
        /// `fixture/provider` groups whose repeats disagreed, sorted.
        public var flaky: [String] = []
        /// The scored cases of each group, for the pass rate's interval.
        public var repeatGroups = RepeatGroups()
    }

    /// The counts of each suite in a run, by suite id: one pass over the run's rows, grouped by
    /// fixture and provider (the repeats of one case), summed per suite here.
    public func suiteCounts(run: String) throws -> [String: SuiteCounts] {
        if let tally = try tally(of: run) { return tally.suiteCounts }
        return try read { db in
            // Grouped here as the rows are read: SQLite's GROUP BY would first sort every row
            // through a temporary B-tree, which took ten times as long as the reading.
            var tally = RunTally()
            let rows = try Row.fetchCursor(db, sql: "SELECT suite, fixture, provider, outcome, repeatIndex FROM caseResult WHERE runId = ?",
                                           arguments: [run])
            // Read by column index from a cursor: a run of 10,000 cases gives 10,000 groups.
            while let row = try rows.next() {
                tally.add(CaseGroup.Key(suite: row[0], fixture: row[1], provider: row[2]), outcome: row[3], repeatIndex: row[4])
            }
            return tally.suiteCounts
        }
    }

    /// The tally of a run this store started, kept as its cases were written; nil for a run
    /// it did not start (one being resumed, or another process's) or once a case was recorded
    /// again, which the tally does not take back: those are read from the file.
    func tally(of run: String) throws -> RunTally? {
        try refuseClosed()
        guard let (tally, dataVersion) = tallies[run] else { return nil }
        // Another connection (another process resuming the run, or a parallel job sharing the
        // file) that has committed since may have written the run's cases too.
        guard try read(Self.dataVersion) == dataVersion else {
            tallies.drop(run)
            return nil
        }
        return tally
    }

    /// SQLite's count of commits by other connections to the file, as this connection sees it.
    static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// The prices a run's costs used, without counting its cases as ``run(_:)`` does.
    public func prices(run: String) throws -> PriceSheet? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT prices FROM run WHERE id = ?", arguments: [run]).flatMap(PriceSheet.init(json:))
        }
    }

    /// A run, or nil. Reads that run's rows alone, however many runs the store holds.
    public func run(_ id: String) throws -> RunInfo? { try runs(where: "WHERE run.id = ?", [id]).first }

    /// Every run, newest first, with its counts.
    public func runs() throws -> [RunInfo] { try runs(where: "", []) }

    func runs(where filter: String, _ arguments: [String]) throws -> [RunInfo] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT run.*, COUNT(caseResult.caseId) AS cases,
                       SUM(caseResult.outcome = 'pass') AS passed, SUM(caseResult.outcome = 'fail') AS failed,
                       SUM(caseResult.outcome = 'error') AS errors
                FROM run LEFT JOIN caseResult ON caseResult.runId = run.id \(filter)
                GROUP BY run.id ORDER BY run.startedAt DESC, run.id DESC
                """, arguments: StatementArguments(arguments)).map { row in
                func list(_ column: String) -> [String] {
                    (try? JSONValue.parse(Data((row[column] as String? ?? "[]").utf8)))?.array?.compactMap(\.string) ?? []
                }
                return RunInfo(id: row["id"], startedAt: row["startedAt"], finishedAt: row["finishedAt"], suites: list("suites"),
                               providers: list("providers"), repeats: row["repeats"], status: row["status"], planned: row["planned"],
                               cases: row["cases"] ?? 0,
                               passed: row["passed"] ?? 0, failed: row["failed"] ?? 0, errors: row["errors"] ?? 0,
                               prices: (row["prices"] as String?).flatMap(PriceSheet.init(json:)),
                               baseURL: row["baseURL"], apiKeyEnv: row["apiKeyEnv"],
                               settings: (row["settings"] as String?).flatMap { try? JSONDecoder().decode(ProviderOverrides.self, from: Data($0.utf8)) }
                                   ?? ProviderOverrides())
            }
        }
    }
}
