import CoachLab
import CoachLabProviders
import Foundation
import Synchronization
import GRDB

/// The embedded SQLite store of runs and their results. Each case is written, with its turns
/// and check results, as soon as it completes (a run's cases go through ``GroupCommit``, which
/// lets cases finishing together share a transaction), so a killed run loses nothing that had
/// finished and `--resume` can continue it. Keys are never stored.
public final class ResultStore: Sendable {
    private let queue: DatabaseQueue
    private let readOnly: Bool
    /// What opening the store made: its file (at this location) and the folders above it that
    /// did not exist, deepest first. ``discardIfNew()`` removes them; nil when the file was there.
    private let made: (location: String, folders: [String])?
    /// The migrations `init(path:)` started, which every read and write waits for.
    private let migration = Migration()
    /// Hashes of the compiled prompts this store has written, so each is encoded once per
    /// process rather than once per case.
    private let keptPrompts = KeptHashes()
    /// The counts of the runs this store started, kept as their cases are written.
    private let tallies = RunTallies()
    /// Claimed by ``close()`` or the deinit, whichever comes first.
    private let finished = Once()
    /// The database file.
    public let path: String
    /// The time runs start and finish and results are recorded: the system clock, unless a
    /// test or an app replaying history gives another.
    public let clock: @Sendable () -> Date

    /// The default location, under the working directory.
    public static let defaultPath = ".coachlab/coachlab.sqlite"

    /// Opens (creating if needed) the store at `path`, relative to the folder of `system`'s
    /// file system, with the time from `system`.
    /// - Throws: ``CoachLabError`` (io) when the file cannot be opened. A store whose
    ///   migrations fail throws the same error from its first read or write.
    public convenience init(path: String, system: SystemEnvironment) throws {
        try self.init(path: path, on: system.fileSystem, clock: system.now)
    }

    /// Opens (creating if needed) the store at `path`, relative to the folder of `fileSystem`
    /// (``FileSystem/onDisk(_:)``); `clock` gives the times runs start and finish and results
    /// are recorded.
    public convenience init(path: String, on fileSystem: FileSystem, clock: @escaping @Sendable () -> Date) throws {
        try self.init(path: path, location: fileSystem.onDisk(path), clock: clock)
    }

    /// Opens (creating if needed) the store at `path`; `clock` gives the times runs start
    /// and finish and results are recorded.
    /// - Throws: ``CoachLabError`` (io) when the file cannot be opened. A store whose
    ///   migrations fail throws the same error from its first read or write.
    public convenience init(path: String, clock: @escaping @Sendable () -> Date) throws {
        try self.init(path: path, location: path, clock: clock)
    }

    /// Opens the store at `location`, which `path` names in messages.
    private init(path: String, location: String, clock: @escaping @Sendable () -> Date) throws {
        self.path = path
        self.clock = clock
        readOnly = false
        let start = SourceLocation(file: path, line: 1, column: 1)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: location, isDirectory: &isFolder), isFolder.boolValue { throw Self.folderError(path) }
        let directory = (location as NSString).deletingLastPathComponent
        var missing: [String] = []
        var folder = directory
        while !folder.isEmpty, folder != "/", folder != ".", !FileManager.default.fileExists(atPath: folder) {
            missing.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        made = location == ":memory:" || FileManager.default.fileExists(atPath: location) ? nil : (location, missing)
        if !directory.isEmpty, let reason = DiskWrites.makeFolders(directory) {
            throw CoachLabError(.io, "cannot create the result store's folder \((path as NSString).deletingLastPathComponent): \(reason)", at: start)
        }
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)  // several processes (parallel CI jobs) may share one store
            configuration.prepareDatabase { db in
                try Self.refuseForeign(db, path: path)
                // One small transaction per finished case: WAL with NORMAL sync keeps each commit
                // durable against a killed process without an fsync per case.
                try Self.useWAL(db)
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // Copy the log into the database every 128 pages rather than SQLite's 1,000, so
                // the copy happens while a run waits on its provider; what is left for the end
                // (``close()``, before the process exits) is a few milliseconds, not ten.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 128")
            }
            queue = try DatabaseQueue(path: location, configuration: configuration)
        } catch let error as CoachLabError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw Self.notADatabase(path)
        } catch {
            throw CoachLabError(.io, "cannot open the result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
        // The migrations run on another thread while the caller goes on (an eval loads its
        // packs meanwhile); every read and write waits for them, and fails with their error.
        let (migration, queue, origin) = (migration, queue, SourceLocation(file: path, line: 1, column: 1))
        migration.start {
            do {
                try Self.migrate(queue)
                return nil
            } catch {
                return CoachLabError(.io, "cannot open the result store: \(error)", at: origin)
            }
        }
    }

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

    /// A file that is not SQLite named as the store (a report, a README): SQLite says "file is
    /// not a database", with the statement it was running.
    private static func notADatabase(_ path: String) -> CoachLabError {
        CoachLabError(.usage, "\(path) is not a CoachLab result store (it is not a SQLite database); it is never changed",
                      at: SourceLocation(file: path, line: 1, column: 1),
                      hint: "name a new file with --store, or leave it out for .coachlab/coachlab.sqlite")
    }

    /// A folder named as the store: SQLite would say only that it is "unable to open database file".
    private static func folderError(_ path: String) -> CoachLabError {
        CoachLabError(.usage, "the result store is a file, and \(path) is a folder", at: SourceLocation(file: path, line: 1, column: 1),
                      hint: "name a file in it, such as \((path as NSString).appendingPathComponent("coachlab.sqlite"))")
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

    /// A writer leaves the file in rollback-journal mode when it is done (when no other process
    /// has it open), so that a reader without write access to its folder, which cannot create
    /// WAL's shared-memory file, can still open it. The next writer switches back to WAL.
    deinit {
        guard finished.claim() else { return }
        leaveWAL()
    }

    /// Leaves the file as ``deinit`` does and closes it, after which the store can no longer
    /// be read or written: for a process that exits without releasing what it holds.
    public func close() throws {
        guard finished.claim() else { return }
        leaveWAL()
        try queue.close()
    }

    /// Closes the store and removes its file, and the folders made for it, when opening it
    /// made the file and it holds no run: a command that refuses its input after opening the
    /// store (it opens first, so that the migrations run while it plans) leaves nothing behind.
    /// A store that was there before, that any process has started a run in, or that another
    /// connection still has open (a shard that opened the new store at the same moment and is
    /// still planning), is kept.
    public func discardIfNew() {
        let isEmpty = { (db: Database) in try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM run) + (SELECT COUNT(*) FROM guardrailLog)") == 0 }
        guard let made, (try? migration.wait()) != nil, (try? queue.read(isEmpty)) == true else { return }
        // Leaving WAL needs the only connection: one still in WAL is not alone with the store.
        leaveWAL()
        let mode = try? queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        guard mode?.lowercased() == "delete", (try? close()) != nil else { return }
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(made.location + suffix) }
        // `rmdir` removes a folder only when it is empty.
        for folder in made.folders { rmdir(folder) }
    }

    private func leaveWAL() {
        guard path != ":memory:", !readOnly, (try? migration.wait()) != nil else { return }
        // Another process still using the store keeps it in WAL; do not wait for it.
        try? queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA busy_timeout = 50")
            try db.execute(sql: "PRAGMA journal_mode = DELETE")
        }
    }

    /// Opens an existing store for reading only: nothing is created, migrated or written, so a
    /// store on a read-only disk, or one CI published as an artifact, can be listed and diffed.
    /// - Parameter fileSystem: Whose folder a relative `path` is taken from
    ///   (``FileSystem/onDisk(_:)``); none, the process's working folder.
    /// - Throws: ``CoachLabError`` (io) when there is no store at `path`, or it cannot be read.
    public init(readingFrom path: String, on fileSystem: FileSystem? = nil) throws {
        self.path = path
        let location = fileSystem?.onDisk(path) ?? path
        // A store opened for reading records nothing, so it never asks the time.
        clock = { Date(timeIntervalSince1970: 0) }
        readOnly = true
        made = nil
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location, isDirectory: &isFolder) else {
            throw CoachLabError(.io, "no result store at \(path)", at: SourceLocation(file: path, line: 1, column: 1),
                                hint: "coachlab eval creates it")
        }
        if isFolder.boolValue { throw Self.folderError(path) }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(30)
            queue = try DatabaseQueue(path: location, configuration: configuration)
            guard try queue.read({ try Self.migrator.hasCompletedMigrations($0) }) else {
                throw CoachLabError(.io, "the result store at \(path) was written by an older CoachLab", at: SourceLocation(file: path, line: 1, column: 1),
                                    hint: "open it once with a writable copy (coachlab runs on a copy) to upgrade it")
            }
        } catch let error as CoachLabError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw Self.notADatabase(path)
        } catch {
            throw CoachLabError(.io, "cannot read the result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// A store that lives in memory only (reports over results held by the caller).
    public init(clock: @escaping @Sendable () -> Date) throws {
        path = ":memory:"
        self.clock = clock
        readOnly = false
        made = nil
        do {
            queue = try DatabaseQueue()
            try Self.migrator.migrate(queue)
        } catch {
            throw CoachLabError(.io, "cannot create an in-memory result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// The store's schema, one migration a version. Each only adds tables, columns and
    /// indexes, never rebuilds a table, so each runs with foreign keys enforced as it goes
    /// (`.immediate`) rather than checked over the whole database after it, a check a new
    /// store paid for nine times.
    private static var migrator: DatabaseMigrator {
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
    private static func insert(_ result: CaseResult, screenings: [String?], run: String, stamp: String, db: Database) throws -> Bool {
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
    private static let checkRowsPerInsert = 100

    /// The insert of `rows` check rows.
    private static func checkInsert(rows: Int) -> String {
        rows < checkInserts.count ? checkInserts[rows] : checkInsertText(rows: rows)
    }

    private static let checkInserts = (0..<17).map(checkInsertText(rows:))

    private static func checkInsertText(rows: Int) -> String {
        "INSERT INTO checkResult (runId, caseId, turn, position, checkId, passed, score, reason, weight) VALUES "
            + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?)", count: rows).joined(separator: ", ")
    }

    /// A kept compiled prompt, by hash.
    public func compiledPrompt(_ hash: String) throws -> CompiledPrompt? {
        try read { db in
            guard let body = try String.fetchOne(db, sql: "SELECT body FROM compiledPrompt WHERE hash = ?", arguments: [hash]) else { return nil }
            return try? JSONDecoder().decode(CompiledPrompt.self, from: Data(body.utf8))
        }
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

    private static func log(_ entry: GuardrailLogEntry, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO guardrailLog (at, source, runId, caseId, turn, pack, trigger, stage, ruleId, ruleTitle, matched, excerpt, message, reply)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [entry.at, entry.source, entry.runId, entry.caseId, entry.turn, entry.pack, entry.trigger, entry.stage,
                                     entry.ruleId, entry.ruleTitle, entry.matched, entry.excerpt, entry.message, entry.reply])
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
    private static func results(_ rows: [Row], run: String, db: Database) throws -> [CaseResult] {
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
    private func tally(of run: String) throws -> RunTally? {
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
    private static func dataVersion(_ db: Database) throws -> Int {
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

    private func runs(where filter: String, _ arguments: [String]) throws -> [RunInfo] {
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

    @discardableResult
    private func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) throws -> T {
        try migration.wait()
        try refuseClosed()
        do { return try queue.write(body) } catch {
            throw CoachLabError(.io, "cannot write the result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) throws -> T {
        try migration.wait()
        try refuseClosed()
        do { return try queue.read(body) } catch {
            throw CoachLabError(.io, "cannot read the result store: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// SQLite must not be called on a closed connection at all: it reads freed memory.
    private func refuseClosed() throws {
        if finished.isClaimed {
            throw CoachLabError(.io, "the result store is closed", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// A timestamp as the store writes it: UTC to the millisecond, "2026-11-29T20:24:36.123Z",
    /// as `Date.ISO8601FormatStyle(includingFractionalSeconds: true)` writes it (the fraction
    /// truncated). The years 1600 to 9999 are written here: the format style builds a calendar
    /// and a time zone the first time, which was 1.3% of a one-case eval's CPU, on the thread
    /// that opens the run. Other years, where its calendar is not the proleptic Gregorian one
    /// this reckons in, go to the format style.
    public static func timestamp(_ date: Date) -> String {
        let time = date.timeIntervalSince1970
        let seconds = time.rounded(.down)
        guard let whole = Int64(exactly: seconds), (-11_676_096_000...253_402_300_799).contains(whole) else {
            return Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
        }
        let milliseconds = min(Int((time - seconds) * 1000), 999)
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = Int(whole - days * 86_400)
        let (year, month, day) = LocalDateTime.civilFromDays(Int(days))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        func append(_ value: Int, digits: Int, then separator: UInt8?) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            if let separator { bytes.append(separator) }
        }
        append(year, digits: 4, then: UInt8(ascii: "-"))
        append(month, digits: 2, then: UInt8(ascii: "-"))
        append(day, digits: 2, then: UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2, then: UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, digits: 2, then: UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2, then: UInt8(ascii: "."))
        append(milliseconds, digits: 3, then: UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// One flagged interaction, as the guardrail log keeps it (BetterOne's GuardrailLog).
public struct GuardrailLogEntry: Sendable, Codable, Hashable {
    public var at: String
    /// `eval` or `chat`.
    public var source: String
    public var runId: String?
    public var caseId: String?
    public var turn: Int?
    public var pack: String
    /// `rule_based` (stage 1) or `ai_classifier` (stage 2).
    public var trigger: String
    public var stage: Int
    public var ruleId: String
    public var ruleTitle: String
    /// The keyword, pattern or classifier reason.
    public var matched: String
    /// The part of the user's message that matched.
    public var excerpt: String
    /// The user's message.
    public var message: String
    /// The assistant's reply.
    public var reply: String

    public init(at: String, source: String, runId: String? = nil, caseId: String? = nil, turn: Int? = nil, pack: String, trigger: String,
                stage: Int, ruleId: String, ruleTitle: String, matched: String, excerpt: String, message: String, reply: String) {
        self.at = at
        self.source = source
        self.runId = runId
        self.caseId = caseId
        self.turn = turn
        self.pack = pack
        self.trigger = trigger
        self.stage = stage
        self.ruleId = ruleId
        self.ruleTitle = ruleTitle
        self.matched = matched
        self.excerpt = excerpt
        self.message = message
        self.reply = reply
    }

    /// An entry for a flag.
    public init(at: String, source: String, runId: String? = nil, caseId: String? = nil, turn: Int? = nil, pack: String,
                flag: GuardrailFlag, message: String, reply: String) {
        self.init(at: at, source: source, runId: runId, caseId: caseId, turn: turn, pack: pack,
                  trigger: flag.stage == 1 ? "rule_based" : "ai_classifier", stage: flag.stage, ruleId: flag.ruleId,
                  ruleTitle: flag.ruleTitle, matched: flag.matched, excerpt: flag.excerpt, message: message, reply: reply)
    }
}

/// A store's migrations, run once on a background thread. Until they are started (the
/// stores that migrate in place, or never) there is nothing to wait for.
private final class Migration: Sendable {
    private let finished = DispatchGroup()
    private let failure = Mutex<CoachLabError?>(nil)

    /// Runs `body` on a background thread; it returns the error that stopped it, if any.
    func start(_ body: @escaping @Sendable () -> CoachLabError?) {
        finished.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            let stopped = body()
            self.failure.withLock { $0 = stopped }
            self.finished.leave()
        }
    }

    /// Waits for the migrations, then throws what stopped them.
    func wait() throws {
        finished.wait()
        if let stopped = failure.withLock({ $0 }) { throw stopped }
    }
}

/// A run's counts, gathered case by case: from its rows when they are read back, or as its
/// cases are written (``RunTallies``). Both give the same figures, since both are this.
private struct RunTally {
    var groups: [CaseGroup.Key: CaseGroup] = [:]
    /// Turns recorded, and those of them answered from the response cache.
    var replies = 0, cachedReplies = 0

    mutating func add(_ key: CaseGroup.Key, outcome: String, repeatIndex: Int) {
        groups[key, default: CaseGroup(first: outcome)].add(outcome, repeatIndex: repeatIndex)
    }

    /// Each suite's counts, the groups of one case's repeats summed.
    var suiteCounts: [String: ResultStore.SuiteCounts] {
        var counts: [String: ResultStore.SuiteCounts] = [:]
        for (key, group) in groups {
            var count = counts.removeValue(forKey: key.suite) ?? ResultStore.SuiteCounts(repeats: 0)
            count.cases += group.cases
            count.passed += group.passed
            count.failed += group.failed
            count.errors += group.errors
            count.repeats = max(count.repeats, group.repeats)
            count.groups += 1
            if group.passed == group.cases { count.groupsAllPassed += 1 }
            if group.passed > 0 { count.groupsAnyPassed += 1 }
            count.repeatGroups.add(passed: group.passed, scored: group.passed + group.failed)
            // Repeats that disagree: a flaky case.
            if group.mixed { count.flaky.append("\(key.fixture)/\(key.provider)") }
            counts[key.suite] = count
        }
        // In SQLite's order for text (by bytes), as the list always was.
        for suite in counts.keys { counts[suite]?.flaky.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        return counts
    }
}

/// The tallies of the runs a store started, kept as their cases are written, so the report at
/// the end of a run reads none of its rows back (5-10 ms of a 2,000-case run, once every case
/// is in). A case recorded again drops its run's tally, as does a commit by another connection
/// to the file: the rows are then the only account. Only the latest runs' tallies are kept,
/// so an app that records run after run in one store does not gather them all.
private final class RunTallies: Sendable {
    /// How many runs' tallies are kept; an older run's counts come from its rows.
    static let kept = 4
    private let state = Mutex(State())

    private struct State {
        /// By the run id's bytes, as SQLite tells ids apart; each with the store's data
        /// version when the run began.
        var runs: [[UInt8]: (tally: RunTally, dataVersion: Int)] = [:]
        /// The runs begun, oldest first.
        var order: [[UInt8]] = []
    }

    func begin(_ run: String, dataVersion: Int) {
        let id = Array(run.utf8)
        state.withLock { state in
            state.runs[id] = (RunTally(), dataVersion)
            state.order.removeAll { $0 == id }
            state.order.append(id)
            while state.order.count > Self.kept { state.runs.removeValue(forKey: state.order.removeFirst()) }
        }
    }

    func drop(_ run: String) { _ = state.withLock { $0.runs.removeValue(forKey: Array(run.utf8)) } }

    /// Counts cases just committed to `run`, if its tally is kept.
    func add(_ results: [CaseResult], run: String, replacing: Bool) {
        let id = Array(run.utf8)
        state.withLock { state in
            guard let (kept, dataVersion) = state.runs.removeValue(forKey: id), !replacing else { return }
            var tally = kept
            for result in results {
                tally.add(CaseGroup.Key(suite: result.suite, fixture: result.fixture, provider: result.provider),
                          outcome: result.outcome.rawValue, repeatIndex: result.repeatIndex)
                tally.replies += result.turns.count
                tally.cachedReplies += result.turns.count { $0.cached }
            }
            state.runs[id] = (tally, dataVersion)
        }
    }

    subscript(run: String) -> (tally: RunTally, dataVersion: Int)? { state.withLock { $0.runs[Array(run.utf8)] } }
}

/// The repeats of one case in a run, counted by ``ResultStore/suiteCounts(run:)``.
private struct CaseGroup {
    /// Compared by bytes, as SQLite compares text: Swift's `==` would take "é" and "e\u{301}"
    /// for one fixture.
    struct Key: Hashable {
        var suite: String
        var fixture: String
        var provider: String

        static func == (left: Key, right: Key) -> Bool {
            left.suite.utf8.elementsEqual(right.suite.utf8) && left.fixture.utf8.elementsEqual(right.fixture.utf8)
                && left.provider.utf8.elementsEqual(right.provider.utf8)
        }

        func hash(into hasher: inout Hasher) {
            Self.combine(suite, into: &hasher)
            Self.combine(fixture, into: &hasher)
            Self.combine(provider, into: &hasher)
        }

        private static func combine(_ text: String, into hasher: inout Hasher) {
            var text = text
            hasher.combine(text.utf8.count)
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    var cases = 0, passed = 0, failed = 0, errors = 0, repeats = 0
    /// The first repeat's outcome, and whether any other repeat's differs.
    var first: String
    var mixed = false

    mutating func add(_ outcome: String, repeatIndex: Int) {
        cases += 1
        switch outcome {
        case Outcome.pass.rawValue: passed += 1
        case Outcome.fail.rawValue: failed += 1
        case Outcome.error.rawValue: errors += 1
        default: break
        }
        repeats = max(repeats, repeatIndex)
        mixed = mixed || outcome != first
    }
}

/// A flag the first claim sets.
private final class Once: Sendable {
    private let claimed = Mutex(false)

    /// Whether anyone has claimed it.
    var isClaimed: Bool { claimed.withLock { $0 } }

    /// True for the first caller only.
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}

/// A set of hashes shared by the tasks that record results.
private final class KeptHashes: Sendable {
    private let hashes = Mutex(Set<String>())

    func contains(_ hash: String) -> Bool { hashes.withLock { $0.contains(hash) } }
    func insert(_ new: [String]) {
        guard !new.isEmpty else { return }
        hashes.withLock { $0.formUnion(new) }
    }
}
