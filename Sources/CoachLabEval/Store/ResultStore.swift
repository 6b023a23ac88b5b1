import CoachLab
import CoachLabProviders
import Foundation
import GRDB

/// The embedded SQLite store of runs and their results. Each case is written, with its turns
/// and check results, as soon as it completes (a run's cases go through ``GroupCommit``, which
/// lets cases finishing together share a transaction), so a killed run loses nothing that had
/// finished and `--resume` can continue it. Keys are never stored.
public final class ResultStore: Sendable {
    let queue: DatabaseQueue
    let readOnly: Bool
    /// What opening the store made: its file (at this location) and the folders above it that
    /// did not exist, deepest first. ``discardIfNew()`` removes them; nil when the file was there.
    let made: (location: String, folders: [String])?
    /// The migrations `init(path:)` started, which every read and write waits for.
    let migration = StoreMigration()
    /// Hashes of the compiled prompts this store has written, so each is encoded once per
    /// process rather than once per case.
    let keptPrompts = KeptHashes()
    /// The counts of the runs this store started, kept as their cases are written.
    let tallies = RunTallies()
    /// Claimed by ``close()`` or the deinit, whichever comes first.
    let finished = ClaimFlag()
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
    init(path: String, location: String, clock: @escaping @Sendable () -> Date) throws {
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

    /// A file that is not SQLite named as the store (a report, a README): SQLite says "file is
    /// not a database", with the statement it was running.
    static func notADatabase(_ path: String) -> CoachLabError {
        CoachLabError(.usage, "\(path) is not a CoachLab result store (it is not a SQLite database); it is never changed",
                      at: SourceLocation(file: path, line: 1, column: 1),
                      hint: "name a new file with --store, or leave it out for .coachlab/coachlab.sqlite")
    }

    /// A folder named as the store: SQLite would say only that it is "unable to open database file".
    static func folderError(_ path: String) -> CoachLabError {
        CoachLabError(.usage, "the result store is a file, and \(path) is a folder", at: SourceLocation(file: path, line: 1, column: 1),
                      hint: "name a file in it, such as \((path as NSString).appendingPathComponent("coachlab.sqlite"))")
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

    func leaveWAL() {
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

    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) throws -> T {
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
    func refuseClosed() throws {
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
