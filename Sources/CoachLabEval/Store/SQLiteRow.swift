import GRDB
import GRDBSQLite

/// Writes one row through a statement GRDB prepared and caches, binding each value with
/// SQLite's C API (which GRDB exposes for this, as `Statement.sqliteStatement`). The store
/// writes about twenty values a case; building GRDB's `StatementArguments` for them, each
/// value boxed as a `DatabaseValue`, cost more than the insert itself. Values are stored
/// exactly as GRDB stores them: text, 64-bit integers, doubles, booleans as 0 and 1, nil as NULL.
struct SQLiteRow {
    private let statement: Statement
    private var position: Int32 = 0
    /// The first binding SQLite refused (a value over its size limit), reported by ``execute(in:)``.
    private var refused: Int32 = SQLITE_OK

    /// Starts a row of `statement`, which must be a statement of `db` that returns no rows.
    init(_ statement: Statement) {
        self.statement = statement
        sqlite3_reset(statement.sqliteStatement)
    }

    /// Binds the next parameter.
    mutating func callAsFunction(_ value: some SQLiteBindable) {
        position += 1
        let code = value.bind(to: statement.sqliteStatement, at: position)
        if refused == SQLITE_OK { refused = code }
    }

    /// Runs the statement with the values bound; throws SQLite's error, with the statement.
    func execute(in db: Database) throws {
        precondition(position == sqlite3_bind_parameter_count(statement.sqliteStatement), "every parameter is bound")
        let code = refused == SQLITE_OK ? sqlite3_step(statement.sqliteStatement) : refused
        guard code == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            sqlite3_reset(statement.sqliteStatement)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
        sqlite3_reset(statement.sqliteStatement)
    }
}
