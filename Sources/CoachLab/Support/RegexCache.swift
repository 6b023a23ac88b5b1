import Foundation

/// Compiled regular expressions, kept for the life of the process: the mock reads every prompt
/// with the same few dozen patterns, and a pack's guardrail patterns are compiled by lint's
/// check and again by the screener built from the same pack.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    private var expressions: [String: NSRegularExpression] = [:]

    /// The pattern compiled, or nil when it is not a valid regular expression.
    func expression(_ pattern: String, caseSensitive: Bool) -> NSRegularExpression? {
        let key = (caseSensitive ? "s:" : "i:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[key] { return cached }
        guard let expression = try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) else { return nil }
        // A long-lived process that reloads edited packs starts again past a bound.
        if expressions.count >= 4096 { expressions.removeAll(keepingCapacity: true) }
        expressions[key] = expression
        return expression
    }
}
