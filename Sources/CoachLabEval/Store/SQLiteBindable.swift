import GRDB
import GRDBSQLite

/// SQLite copies a value bound with this destructor (`SQLITE_TRANSIENT`, a C macro Swift
/// cannot import).
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value ``SQLiteRow`` binds.
protocol SQLiteBindable {
    /// Binds the value; returns SQLite's result code.
    func bind(to statement: OpaquePointer, at position: Int32) -> Int32
}

extension String: SQLiteBindable {
    func bind(to statement: OpaquePointer, at position: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { bytes in
            // A null pointer would bind NULL, not empty text.
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(statement, position, "", 0, transient) }
            return sqlite3_bind_text64(statement, position, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self),
                                       UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
        }
    }
}

extension Int: SQLiteBindable {
    func bind(to statement: OpaquePointer, at position: Int32) -> Int32 { sqlite3_bind_int64(statement, position, Int64(self)) }
}

extension Double: SQLiteBindable {
    func bind(to statement: OpaquePointer, at position: Int32) -> Int32 { sqlite3_bind_double(statement, position, self) }
}

extension Bool: SQLiteBindable {
    func bind(to statement: OpaquePointer, at position: Int32) -> Int32 { sqlite3_bind_int64(statement, position, self ? 1 : 0) }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
    func bind(to statement: OpaquePointer, at position: Int32) -> Int32 {
        if let self { self.bind(to: statement, at: position) } else { sqlite3_bind_null(statement, position) }
    }
}
