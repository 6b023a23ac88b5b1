import Foundation

/// Compiled regular expressions, kept for the life of the process: the mock reads every prompt
/// with the same few dozen patterns, and a pack's guardrail patterns are compiled by lint's
/// check and again by the screener built from the same pack.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    /// By case sensitivity, then by pattern: a key joining the two would copy the pattern on
    /// every look-up, and the mock looks up a few dozen per prompt line.
    private var patterns: (insensitive: [String: CompiledPattern], sensitive: [String: CompiledPattern]) = ([:], [:])

    /// The pattern compiled, or nil when it is not a valid regular expression.
    func expression(_ pattern: String, caseSensitive: Bool) -> NSRegularExpression? {
        self.pattern(pattern, caseSensitive: caseSensitive)?.regex
    }

    /// Whether `pattern` is compiled and held.
    func holds(_ pattern: String, caseSensitive: Bool) -> Bool {
        lock.withLock { (caseSensitive ? patterns.sensitive[pattern] : patterns.insensitive[pattern]) != nil }
    }

    /// The pattern compiled with the literals a match needs, or nil when it is not a valid
    /// regular expression.
    func pattern(_ pattern: String, caseSensitive: Bool) -> CompiledPattern? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = caseSensitive ? patterns.sensitive[pattern] : patterns.insensitive[pattern] { return cached }
        guard let expression = try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) else { return nil }
        let compiled = CompiledPattern(regex: expression, literals: RequiredLiterals(pattern: pattern))
        // A long-lived process that reloads edited packs starts again past a bound.
        if patterns.insensitive.count + patterns.sensitive.count >= 4096 { patterns = ([:], [:]) }
        if caseSensitive { patterns.sensitive[pattern] = compiled } else { patterns.insensitive[pattern] = compiled }
        return compiled
    }
}

/// A compiled regular expression and the literals (``RequiredLiterals``) any match contains.
struct CompiledPattern: @unchecked Sendable {
    let regex: NSRegularExpression
    let literals: RequiredLiterals?

    /// The first match in `text`. `lowered` is the text as ``LoweredASCII``, when it is ASCII:
    /// a text without the pattern's literals is answered without running the pattern.
    func firstMatch(in text: String, lowered: LoweredASCII?) -> NSTextCheckingResult? {
        if let literals, let lowered, !lowered.bytes.withUnsafeBufferPointer(literals.mayMatch) { return nil }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// Whether the pattern can match `text` at all, by its literals alone.
    func mayMatch(_ lowered: LoweredASCII?) -> Bool {
        guard let literals, let lowered else { return true }
        return lowered.bytes.withUnsafeBufferPointer(literals.mayMatch)
    }
}
