import CoachLab
import CoachLabProviders
import Foundation
import GRDB

extension ResultStore {
    /// Starts a run and returns its id: `id` when given, else time-ordered with a random suffix.
    public func startRun(suites: [String], providers: [String], repeats: Int?, prices: PriceSheet? = nil,
                         baseURL: String? = nil, apiKeyEnv: String? = nil, settings: ProviderOverrides = ProviderOverrides(),
                         planned: Int? = nil, id given: String? = nil) throws -> String {
        let stamp = Self.timestamp(clock())
        // "2026-11-29T20:24:36" becomes "20261129-202436".
        let id = given ?? String(stamp.prefix(19).compactMap { $0 == ":" || $0 == "-" ? nil : $0 == "T" ? "-" : $0 })
            + "-" + String(UInt32.random(in: 0..<0xFFFF_FFFF), radix: 36)
        let version = try write { db in
            try db.execute(sql: """
                INSERT INTO run (id, startedAt, suites, providers, repeats, status, prices, baseURL, apiKeyEnv, settings, planned)
                VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)
                """, arguments: [id, stamp, JSONValue.array(suites.map(JSONValue.string)).text,
                                 JSONValue.array(providers.map(JSONValue.string)).text, repeats, prices?.json, baseURL, apiKeyEnv,
                                 settings.isEmpty ? nil : String(decoding: try JSONEncoder.sorted().encode(settings), as: UTF8.self), planned])
            return try Self.dataVersion(db)
        }
        tallies.begin(id, dataVersion: version)
        return id
    }

    /// Marks a continued run (`--resume`, `--retry-errors`) running again until it ends, so a
    /// continuation killed part-way is not left marked finished.
    public func reopenRun(_ id: String) throws {
        try write { db in
            try db.execute(sql: "UPDATE run SET status = 'running', finishedAt = NULL WHERE id = ?", arguments: [id])
        }
    }

    /// Marks a run finished or interrupted.
    public func finishRun(_ id: String, status: String) throws {
        let stamp = Self.timestamp(clock())
        try write { db in
            try db.execute(sql: "UPDATE run SET status = ?, finishedAt = ? WHERE id = ?", arguments: [status, stamp, id])
        }
    }

    /// Records one finished case with its turns and checks, in one transaction.
    public func record(_ result: CaseResult, run: String) throws {
        try record(CollectionOfOne(result), run: run)
    }

    /// Records finished cases, with their turns and checks, in one transaction: all of them
    /// are stored or none is. A case recorded again replaces its earlier result.
    public func record(_ results: some Collection<CaseResult>, run: String) throws {
        guard !results.isEmpty else { return }
        let encoder = JSONEncoder.sorted()
        func json(_ value: some Encodable) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        var seen = Set<String>()
        let prompts = try results.flatMap(\.prompts).filter { !keptPrompts.contains($0.hash) && seen.insert($0.hash).inserted }
            .map { ($0.hash, try json($0)) }
        let stamp = Self.timestamp(clock())
        let results = Array(results)
        // Each flagged turn's screening, as JSON, by the same encoder as the prompts.
        let screenings = try results.map { try $0.turns.map { try $0.screening.map(json) } }
        let replaced = try write { db in
            for (hash, body) in prompts {
                try db.cachedStatement(sql: "INSERT OR IGNORE INTO compiledPrompt (hash, body) VALUES (?, ?)").execute(arguments: [hash, body])
            }
            var replaced = false
            for (result, screenings) in zip(results, screenings) {
                replaced = try Self.insert(result, screenings: screenings, run: run, stamp: stamp, db: db) || replaced
            }
            return replaced
        }
        keptPrompts.insert(prompts.map(\.0))
        tallies.add(results, run: run, replacing: replaced)
    }

    /// Inserts one case; true when it replaced an earlier result.
    /// - Parameter screenings: Each turn's screening as JSON, in the order of its turns.
    static func insert(_ result: CaseResult, screenings: [String?], run: String, stamp: String, db: Database) throws -> Bool {
        let insertCase = try db.cachedStatement(sql: """
            INSERT INTO caseResult (runId, caseId, suite, fixture, provider, model, repeatIndex, outcome, score, error, tags, recordedAt, pack)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (runId, caseId) DO NOTHING
            """)
        let tags = JSONValue.array(result.tags.map(JSONValue.string)).text
        func insert() throws {
            var row = SQLiteRow(insertCase)
            row(run); row(result.id); row(result.suite); row(result.fixture); row(result.provider); row(result.model)
            row(result.repeatIndex); row(result.outcome.rawValue); row(result.score); row(result.error); row(tags); row(stamp)
            row(result.pack)
            try row.execute(in: db)
        }
        try insert()
        let replaced = db.changesCount == 0
        if replaced {
            // Recorded before (a resumed or retried case): the new result replaces it, with its
            // turns and checks (deleted with it) and its guardrail log entries. A case recorded
            // for the first time, nearly every one, costs no lookup for an earlier result.
            try db.cachedStatement(sql: "DELETE FROM caseResult WHERE runId = ? AND caseId = ?").execute(arguments: [run, result.id])
            try db.cachedStatement(sql: "DELETE FROM guardrailLog WHERE runId = ? AND caseId = ?").execute(arguments: [run, result.id])
            try insert()
        }
        for turn in result.turns {
            guard let flag = turn.flag else { continue }
            try log(GuardrailLogEntry(at: stamp, source: "eval", runId: run, caseId: result.id, turn: turn.turn,
                                      pack: result.pack, flag: flag, message: turn.user, reply: turn.reply), db: db)
        }
        for (turn, screening) in zip(result.turns, screenings) {
            var row = SQLiteRow(try db.cachedStatement(sql: """
                INSERT INTO turnResult (runId, caseId, turn, user, reply, flaggedRule, latency, timeToFirstToken, inputTokens,
                                        outputTokens, usageEstimated, cost, finishReason, promptHash, sanitized, cached, simulated,
                                        screening)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """))
            row(run); row(result.id); row(turn.turn); row(turn.user); row(turn.reply); row(turn.flaggedRule); row(turn.latency)
            row(turn.timeToFirstToken); row(turn.inputTokens); row(turn.outputTokens); row(turn.usageEstimated); row(turn.cost)
            row(turn.finishReason); row(turn.promptHash); row(turn.sanitized.map { JSONValue.array($0.map(JSONValue.string)).text })
            row(turn.cached); row(turn.simulated)
            row(screening)
            try row.execute(in: db)
            // A turn's checks in one statement, a row each.
            let checks = Array(turn.checks.enumerated())
            for start in stride(from: 0, to: checks.count, by: Self.checkRowsPerInsert) {
                let rows = checks[start..<min(start + Self.checkRowsPerInsert, checks.count)]
                var row = SQLiteRow(try db.cachedStatement(sql: Self.checkInsert(rows: rows.count)))
                for (position, check) in rows {
                    row(run); row(result.id); row(turn.turn); row(position); row(check.check); row(check.passed); row(check.score)
                    row(check.reason); row(check.weight)
                }
                try row.execute(in: db)
            }
        }
        return replaced
    }

    /// Check rows one insert carries at most: 9 values each, within SQLite's oldest limit of
    /// 999 values a statement.
    static let checkRowsPerInsert = 100

    /// The insert of `rows` check rows.
    static func checkInsert(rows: Int) -> String {
        rows < checkInserts.count ? checkInserts[rows] : checkInsertText(rows: rows)
    }

    static let checkInserts = (0..<17).map(checkInsertText(rows:))

    static func checkInsertText(rows: Int) -> String {
        "INSERT INTO checkResult (runId, caseId, turn, position, checkId, passed, score, reason, weight) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// Copies a run of `source` (another store, or this one) into the run `target` here:
    /// cases with their turns and checks, their guardrail log and their compiled prompts.
    /// Returns the ids of the cases copied.
    @discardableResult
    public func copy(run: String, from source: ResultStore, into target: String) throws -> [String] {
        var ids: [String] = []
        try source.forEachResult(run: run) { result in
            try record(result, run: target)
            ids.append(result.id)
        }
        for entry in try source.guardrailLog(run: run, limit: Int.max).reversed() {
            var entry = entry
            entry.runId = target
            try log(entry)
        }
        let prompts: [(String, String)] = try source.read { db in
            try Row.fetchAll(db, sql: """
                SELECT DISTINCT compiledPrompt.hash, compiledPrompt.body FROM compiledPrompt
                JOIN turnResult ON turnResult.promptHash = compiledPrompt.hash WHERE turnResult.runId = ?
                """, arguments: [run]).map { ($0["hash"], $0["body"]) }
        }
        try write { db in
            for (hash, body) in prompts {
                try db.execute(sql: "INSERT OR IGNORE INTO compiledPrompt (hash, body) VALUES (?, ?)", arguments: [hash, body])
            }
        }
        return ids
    }

    /// Records a flagged interaction outside an eval (a chat).
    public func log(_ entry: GuardrailLogEntry) throws {
        try write { db in try Self.log(entry, db: db) }
    }

    static func log(_ entry: GuardrailLogEntry, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO guardrailLog (at, source, runId, caseId, turn, pack, trigger, stage, ruleId, ruleTitle, matched, excerpt, message, reply)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [entry.at, entry.source, entry.runId, entry.caseId, entry.turn, entry.pack, entry.trigger, entry.stage,
                                     entry.ruleId, entry.ruleTitle, entry.matched, entry.excerpt, entry.message, entry.reply])
    }
}
