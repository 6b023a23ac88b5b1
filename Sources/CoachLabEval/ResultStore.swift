import CoachLab
import Foundation
import GRDB

/// The embedded SQLite store of runs and their results. Each case is written, with its turns
/// and check results, in one transaction as soon as it completes, so a killed run loses
/// nothing that had finished and `--resume` can continue it. Keys are never stored.
public final class ResultStore: Sendable {
    private let queue: DatabaseQueue
    /// The database file.
    public let path: String

    /// The default location, under the working directory.
    public static let defaultPath = ".coachlab/coachlab.sqlite"

    /// Opens (creating if needed) the store at `path`.
    /// - Throws: ``CoachLabError`` (io) when the file cannot be opened or migrated.
    public init(path: String) throws {
        self.path = path
        do {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)  // several processes (parallel CI jobs) may share one store
            queue = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(queue)
        } catch {
            throw CoachLabError(.io, "cannot open the result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "run") { t in
                t.primaryKey("id", .text)
                t.column("startedAt", .text).notNull()
                t.column("finishedAt", .text)
                t.column("suites", .text).notNull()
                t.column("providers", .text).notNull()
                t.column("repeats", .integer)
                t.column("status", .text).notNull()
            }
            try db.create(table: "caseResult") { t in
                t.column("runId", .text).notNull().references("run", onDelete: .cascade)
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
                t.foreignKey(["runId", "caseId"], references: "caseResult", onDelete: .cascade)
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
                t.foreignKey(["runId", "caseId"], references: "caseResult", onDelete: .cascade)
            }
        }
        return migrator
    }

    /// What a run was started with, so `--resume` can repeat it.
    public struct RunInfo: Sendable, Hashable {
        public var id: String
        public var startedAt: String
        public var finishedAt: String?
        public var suites: [String]
        public var providers: [String]
        public var repeats: Int?
        public var status: String
        public var cases: Int
        public var passed: Int
        public var failed: Int
        public var errors: Int
    }

    /// Starts a run and returns its id (time-ordered, with a random suffix).
    public func startRun(suites: [String], providers: [String], repeats: Int?, now: Date = Date()) throws -> String {
        let stamp = Self.timestamp(now)
        let id = String(stamp.prefix(19)).replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: "T", with: "-") + "-" + String(UInt32.random(in: 0..<0xFFFF_FFFF), radix: 36)
        try write { db in
            try db.execute(sql: "INSERT INTO run (id, startedAt, suites, providers, repeats, status) VALUES (?, ?, ?, ?, ?, 'running')",
                           arguments: [id, stamp, JSONValue.array(suites.map(JSONValue.string)).text,
                                       JSONValue.array(providers.map(JSONValue.string)).text, repeats])
        }
        return id
    }

    /// Marks a run finished or interrupted.
    public func finishRun(_ id: String, status: String, now: Date = Date()) throws {
        try write { db in
            try db.execute(sql: "UPDATE run SET status = ?, finishedAt = ? WHERE id = ?", arguments: [status, Self.timestamp(now), id])
        }
    }

    /// Records one finished case with its turns and checks, in one transaction.
    public func record(_ result: CaseResult, run: String) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM caseResult WHERE runId = ? AND caseId = ?", arguments: [run, result.id])
            try db.execute(sql: """
                INSERT INTO caseResult (runId, caseId, suite, fixture, provider, model, repeatIndex, outcome, score, error, tags, recordedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [run, result.id, result.suite, result.fixture, result.provider, result.model, result.repeatIndex,
                                 result.outcome.rawValue, result.score, result.error,
                                 JSONValue.array(result.tags.map(JSONValue.string)).text, Self.timestamp(Date())])
            for turn in result.turns {
                try db.execute(sql: """
                    INSERT INTO turnResult (runId, caseId, turn, user, reply, flaggedRule, latency, timeToFirstToken, inputTokens,
                                            outputTokens, usageEstimated, cost, finishReason, promptHash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [run, result.id, turn.turn, turn.user, turn.reply, turn.flaggedRule, turn.latency, turn.timeToFirstToken,
                                     turn.inputTokens, turn.outputTokens, turn.usageEstimated, turn.cost, turn.finishReason, turn.promptHash])
                for (position, check) in turn.checks.enumerated() {
                    try db.execute(sql: """
                        INSERT INTO checkResult (runId, caseId, turn, position, checkId, passed, score, reason, weight)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [run, result.id, turn.turn, position, check.check, check.passed, check.score, check.reason, check.weight])
                }
            }
        }
    }

    /// The ids of the cases a run has finished.
    public func finishedCases(run: String) throws -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT caseId FROM caseResult WHERE runId = ?", arguments: [run])) }
    }

    /// Every result of a run, rebuilt from the tables, in case-id order.
    public func results(run: String) throws -> [CaseResult] {
        try read { db in
            var checks: [String: [Int: [CheckResult]]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM checkResult WHERE runId = ? ORDER BY caseId, turn, position", arguments: [run]) {
                checks[row["caseId"], default: [:]][row["turn"], default: []].append(
                    CheckResult(check: row["checkId"], passed: row["passed"], score: row["score"], reason: row["reason"], weight: row["weight"]))
            }
            var turns: [String: [TurnResult]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM turnResult WHERE runId = ? ORDER BY caseId, turn", arguments: [run]) {
                let caseId: String = row["caseId"]
                let turn: Int = row["turn"]
                turns[caseId, default: []].append(TurnResult(
                    turn: turn, user: row["user"], reply: row["reply"], checks: checks[caseId]?[turn] ?? [], flaggedRule: row["flaggedRule"],
                    latency: row["latency"], timeToFirstToken: row["timeToFirstToken"], inputTokens: row["inputTokens"],
                    outputTokens: row["outputTokens"], usageEstimated: row["usageEstimated"], cost: row["cost"],
                    finishReason: row["finishReason"], promptHash: row["promptHash"]))
            }
            return try Row.fetchAll(db, sql: "SELECT * FROM caseResult WHERE runId = ? ORDER BY caseId", arguments: [run]).map { row in
                let caseId: String = row["caseId"]
                let tags = (try? JSONValue.parse(Data((row["tags"] as String).utf8)))?.array?.compactMap(\.string) ?? []
                return CaseResult(suite: row["suite"], fixture: row["fixture"], provider: row["provider"], model: row["model"],
                                  repeatIndex: row["repeatIndex"], outcome: Outcome(rawValue: row["outcome"]) ?? .error, score: row["score"],
                                  turns: turns[caseId] ?? [], error: row["error"], tags: tags)
            }
        }
    }

    /// A run, or nil.
    public func run(_ id: String) throws -> RunInfo? { try runs().first { $0.id == id } }

    /// Every run, newest first, with its counts.
    public func runs() throws -> [RunInfo] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT run.*, COUNT(caseResult.caseId) AS cases,
                       SUM(caseResult.outcome = 'pass') AS passed, SUM(caseResult.outcome = 'fail') AS failed,
                       SUM(caseResult.outcome = 'error') AS errors
                FROM run LEFT JOIN caseResult ON caseResult.runId = run.id
                GROUP BY run.id ORDER BY run.startedAt DESC, run.id DESC
                """).map { row in
                func list(_ column: String) -> [String] {
                    (try? JSONValue.parse(Data((row[column] as String? ?? "[]").utf8)))?.array?.compactMap(\.string) ?? []
                }
                return RunInfo(id: row["id"], startedAt: row["startedAt"], finishedAt: row["finishedAt"], suites: list("suites"),
                               providers: list("providers"), repeats: row["repeats"], status: row["status"], cases: row["cases"] ?? 0,
                               passed: row["passed"] ?? 0, failed: row["failed"] ?? 0, errors: row["errors"] ?? 0)
            }
        }
    }

    private func write(_ body: @escaping @Sendable (Database) throws -> Void) throws {
        do { try queue.write(body) } catch {
            throw CoachLabError(.io, "cannot write the result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    private func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        do { return try queue.read(body) } catch {
            throw CoachLabError(.io, "cannot read the result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
