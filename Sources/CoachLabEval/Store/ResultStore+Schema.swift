import CoachLab
import Foundation
import GRDB

extension ResultStore {
    /// Throws when `db` already holds tables but no record of the store's own migrations:
    /// another program's SQLite database named by mistake (`--store app.db`) is never given a
    /// store's tables or a new journal mode. A store whose migrations another process has
    /// begun (the record exists, with none or some of ours) is a store.
    static func refuseForeign(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        guard !tables.isEmpty else { return }
        if tables.contains("grdb_migrations"),
           try Set(String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")).isSubset(of: migrator.migrations) {
            return
        }
        throw CoachLabError(.usage, "\(path) is a SQLite database that is not a CoachLab result store (it holds \(tables.prefix(3).joined(separator: ", "))\(tables.count > 3 ? ", …" : "")); it is never changed",
                            at: SourceLocation(file: path, line: 1, column: 1), hint: "name a new file with --store, or leave it out for .coachlab/coachlab.sqlite")
    }

    /// Puts the file in WAL mode (or rollback-journal mode where WAL cannot work). Changing
    /// the mode needs the file to itself, and SQLite then answers "database is locked" at
    /// once instead of waiting, so when several processes open a store together the others
    /// try again for as long as the busy timeout.
    static func useWAL(_ db: Database) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while true {
            do {
                if try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") != "wal" {
                    try db.execute(sql: "PRAGMA journal_mode = DELETE")
                }
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && clock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
    }

    /// Brings the file up to date. GRDB reads which migrations are applied once, then applies
    /// each in a transaction of its own, so two processes opening a new store together
    /// (parallel CI jobs) both try the first ones, and the slower fails on a table the other
    /// just made, or before it sees the other's bookkeeping table. Migrating again carries on
    /// from where the other process got: at once while it makes progress, otherwise after a
    /// pause; a failure three tries in a row without progress is the file's own.
    static func migrate(_ queue: DatabaseQueue) throws {
        var applied: Set<String> = []
        var stalled = 0
        while true {
            do {
                return try migrator.migrate(queue)
            } catch {
                let now = (try? queue.read { try migrator.appliedIdentifiers($0) }) ?? applied
                if now.count > applied.count {
                    applied = now
                    stalled = 0
                    continue
                }
                stalled += 1
                guard stalled < 3 else { throw error }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// The store's schema, one migration a version. Each only adds tables, columns and
    /// indexes, never rebuilds a table, so each runs with foreign keys enforced as it goes
    /// (`.immediate`) rather than checked over the whole database after it, a check a new
    /// store paid for nine times.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1", foreignKeyChecks: .immediate) { db in
            try db.create(table: "run") { t in
                t.primaryKey("id", .text)
                t.column("startedAt", .text).notNull()
                t.column("finishedAt", .text)
                t.column("suites", .text).notNull()
                t.column("providers", .text).notNull()
                t.column("repeats", .integer)
                t.column("status", .text).notNull()
            }
            // Foreign keys name the columns they reference: left out, GRDB reads the referenced
            // table's primary key back from the schema for each one, most of a new store's cost.
            try db.create(table: "caseResult") { t in
                t.column("runId", .text).notNull().references("run", column: "id", onDelete: .cascade)
                t.column("caseId", .text).notNull()
                t.column("suite", .text).notNull()
                t.column("fixture", .text).notNull()
                t.column("provider", .text).notNull()
                t.column("model", .text).notNull()
                t.column("repeatIndex", .integer).notNull()
                t.column("outcome", .text).notNull()
                t.column("score", .double).notNull()
                t.column("error", .text)
                t.column("tags", .text).notNull()
                t.column("recordedAt", .text).notNull()
                t.primaryKey(["runId", "caseId"])
            }
            try db.create(table: "turnResult") { t in
                t.column("runId", .text).notNull()
                t.column("caseId", .text).notNull()
                t.column("turn", .integer).notNull()
                t.column("user", .text).notNull()
                t.column("reply", .text).notNull()
                t.column("flaggedRule", .text)
                t.column("latency", .double).notNull()
                t.column("timeToFirstToken", .double)
                t.column("inputTokens", .integer).notNull()
                t.column("outputTokens", .integer).notNull()
                t.column("usageEstimated", .boolean).notNull()
                t.column("cost", .double)
                t.column("finishReason", .text).notNull()
                t.column("promptHash", .text).notNull()
                t.primaryKey(["runId", "caseId", "turn"])
                t.foreignKey(["runId", "caseId"], references: "caseResult", columns: ["runId", "caseId"], onDelete: .cascade)
            }
            try db.create(table: "checkResult") { t in
                t.column("runId", .text).notNull()
                t.column("caseId", .text).notNull()
                t.column("turn", .integer).notNull()
                t.column("position", .integer).notNull()
                t.column("checkId", .text).notNull()
                t.column("passed", .boolean).notNull()
                t.column("score", .double).notNull()
                t.column("reason", .text).notNull()
                t.column("weight", .double).notNull()
                t.primaryKey(["runId", "caseId", "turn", "position"])
                t.foreignKey(["runId", "caseId"], references: "caseResult", columns: ["runId", "caseId"], onDelete: .cascade)
            }
        }
        migrator.registerMigration("v2: reports read by suite", foreignKeyChecks: .immediate) { db in
            try db.create(index: "caseResultBySuite", on: "caseResult", columns: ["runId", "suite", "caseId"])
        }
        migrator.registerMigration("v3: guardrail log", foreignKeyChecks: .immediate) { db in
            // Every flagged interaction: what triggered it, the user's excerpt and the reply.
            try db.create(table: "guardrailLog") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("at", .text).notNull()
                t.column("source", .text).notNull()  // eval or chat
                t.column("runId", .text)
                t.column("caseId", .text)
                t.column("turn", .integer)
                t.column("pack", .text).notNull()
                t.column("trigger", .text).notNull()  // rule_based or ai_classifier
                t.column("stage", .integer).notNull()
                t.column("ruleId", .text).notNull()
                t.column("ruleTitle", .text).notNull()
                t.column("matched", .text).notNull()
                t.column("excerpt", .text).notNull()
                t.column("message", .text).notNull()
                t.column("reply", .text).notNull()
            }
            try db.create(index: "guardrailLogByCase", on: "guardrailLog", columns: ["runId", "caseId"])
            try db.alter(table: "caseResult") { t in t.add(column: "pack", .text).notNull().defaults(to: "") }
        }
        migrator.registerMigration("v4: prices and compiled prompts", foreignKeyChecks: .immediate) { db in
            // The price table a run's costs were computed with, so every report can say so.
            try db.alter(table: "run") { t in t.add(column: "prices", .text) }
            // Each distinct compiled prompt once, by hash, with its layers and sources.
            try db.create(table: "compiledPrompt") { t in
                t.primaryKey("hash", .text)
                t.column("body", .text).notNull()
            }
        }
        migrator.registerMigration("v5: sanitised replies", foreignKeyChecks: .immediate) { db in
            // The lines the reply sanitiser removed (a JSON array), NULL when it was off.
            try db.alter(table: "turnResult") { t in t.add(column: "sanitized", .text) }
        }
        migrator.registerMigration("v6: inline provider settings", foreignKeyChecks: .immediate) { db in
            // What --base-url and --api-key-env were, so --resume needs neither again. The key's
            // variable name only; a key is never stored.
            try db.alter(table: "run") { t in
                t.add(column: "baseURL", .text)
                t.add(column: "apiKeyEnv", .text)
            }
        }
        migrator.registerMigration("v7: live settings and cached replies", foreignKeyChecks: .immediate) { db in
            // --max-tokens, --temperature, --timeout and --timeout-retries, so --resume and
            // --retry-errors send what the run sent; and which replies the response cache gave.
            try db.alter(table: "run") { t in t.add(column: "settings", .text) }
            try db.alter(table: "turnResult") { t in t.add(column: "cached", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v8: simulated users", foreignKeyChecks: .immediate) { db in
            // Whether a simulated user, not the fixture, wrote the turn's user message.
            try db.alter(table: "turnResult") { t in t.add(column: "simulated", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v9: each turn's screening", foreignKeyChecks: .immediate) { db in
            // Every flag a turn's message raised (JSON), when any did: the compiled prompt's row
            // is shared by every message that compiles to it, so its screening is one of theirs.
            try db.alter(table: "turnResult") { t in t.add(column: "screening", .text) }
        }
        migrator.registerMigration("v10: planned cases", foreignKeyChecks: .immediate) { db in
            // How many cases a run set out to run, so a report can say a run that was killed
            // part-way is incomplete.
            try db.alter(table: "run") { t in t.add(column: "planned", .integer) }
        }
        return migrator
    }
}
