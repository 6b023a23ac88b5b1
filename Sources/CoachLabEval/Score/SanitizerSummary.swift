import CoachLab
import Foundation

/// What `eval --sanitize` did over a run: how many replies the sanitiser read, and which
/// turns it took leaked prompt lines out of.
public struct SanitizerSummary: Sendable, Hashable {
    /// Replies the sanitiser read.
    public var replies = 0
    /// `case id turn N` of each reply it changed, in the report's order.
    public var changed: [String] = []
    /// Lines removed over all replies.
    public var lines = 0

    /// Reads every turn of the report; a turn the sanitiser did not read does not count.
    public init(_ report: RunReport) throws {
        try report.forEachCase { result in
            for turn in result.turns where turn.sanitized != nil {
                replies += 1
                if let removed = turn.sanitized, !removed.isEmpty {
                    changed.append("\(result.id) turn \(turn.turn)")
                    lines += removed.count
                }
            }
        }
    }

    /// The line printed after the table: the counts and the first five changed turns.
    public var line: String {
        changed.isEmpty
            ? "sanitiser: \(replies) replies checked, none held leaked prompt text"
            : "sanitiser: removed \(lines) leaked prompt line\(lines == 1 ? "" : "s") from \(changed.count) of \(replies) replies ("
                + changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? ", …" : "") + "); the JSON report lists them per turn"
    }
}
