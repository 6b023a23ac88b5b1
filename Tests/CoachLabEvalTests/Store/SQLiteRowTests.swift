@testable import CoachLabEval
import GRDB
import GRDBSQLite
import Testing

/// The store binds its rows through SQLite's C API; what it writes must read back as GRDB
/// would have written it, and a refused value or a failed step must throw, never store a row
/// with a value missing.
@Suite struct SQLiteRowTests {
    func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE item (name TEXT NOT NULL, note TEXT, count INTEGER, ratio REAL, flag INTEGER)")
        }
        return queue
    }

    @Test func valuesReadBackAsGRDBWritesThem() throws {
        let queue = try database()
        let rows: [(String, String?, Int?, Double?, Bool)] = [
            ("", nil, nil, nil, false), ("ünïcödé 🙂\u{301}", "", 0, -0.5, true), ("a\tb", "x", Int.max, .infinity, false),
            (String(repeating: "long ", count: 10_000), nil, Int.min, 1e-300, true),
        ]
        try queue.write { db in
            for (name, note, count, ratio, flag) in rows {
                var row = SQLiteRow(try db.cachedStatement(sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)"))
                row(name); row(note); row(count); row(ratio); row(flag)
                try row.execute(in: db)
                try db.execute(sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)", arguments: [name, note, count, ratio, flag])
            }
        }
        try queue.read { db in
            let stored = try Row.fetchAll(db, sql: "SELECT name, note, count, ratio, flag, typeof(note), typeof(flag) FROM item")
            #expect(stored.count == 2 * rows.count)
            for index in rows.indices {
                // The row bound here and the one GRDB bound are the same values of the same types.
                #expect(stored[2 * index] == stored[2 * index + 1], "row \(index)")
                #expect(stored[2 * index]["name"] as String == rows[index].0)
            }
        }
    }

    @Test func aFailedStepThrowsWithTheStatementAndTheRowIsReusable() throws {
        let queue = try database()
        try queue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)")
            var bad = SQLiteRow(statement)
            bad(String?.none); bad("note"); bad(1); bad(1.0); bad(true)
            #expect {
                try bad.execute(in: db)
            } throws: { error in
                let error = error as? DatabaseError
                return error?.resultCode == .SQLITE_CONSTRAINT && error?.sql?.contains("INSERT INTO item") == true
            }
            var good = SQLiteRow(statement)
            good("kept"); good(String?.none); good(2); good(2.0); good(false)
            try good.execute(in: db)
        }
        #expect(try queue.read { try String.fetchAll($0, sql: "SELECT name FROM item") } == ["kept"])
    }

    @Test func aValueOverSQLitesLimitIsRefusedNotLeftOut() throws {
        let queue = try database()
        try queue.write { db in
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 100)
            var row = SQLiteRow(try db.cachedStatement(sql: "INSERT INTO item VALUES (?, ?, ?, ?, ?)"))
            row("name"); row(String(repeating: "x", count: 1_000)); row(1); row(1.0); row(true)
            #expect(throws: DatabaseError.self) { try row.execute(in: db) }
        }
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") } == 0)
    }
}
