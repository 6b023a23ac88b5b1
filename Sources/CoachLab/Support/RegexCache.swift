import Foundation

/// Regular expressions, kept for the life of the process: the mock reads every prompt
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
        let held = self.written(pattern, caseSensitive: caseSensitive)
        return held.regex == nil ? nil : held
    }

    /// A pattern written in the code, which is compiled only when a text first holds its
    /// literals: the mock reads each prompt with a few hundred patterns, most of whose words
    /// no line of a given prompt holds, and compiling one costs far more than the byte search
    /// that rules it out. An invalid pattern matches nothing.
    func written(_ pattern: String, caseSensitive: Bool) -> CompiledPattern {
        lock.lock()
        defer { lock.unlock() }
        if let cached = caseSensitive ? patterns.sensitive[pattern] : patterns.insensitive[pattern] { return cached }
        let compiled = CompiledPattern(pattern, caseSensitive: caseSensitive)
        // A long-lived process that reloads edited packs starts again past a bound.
        if patterns.insensitive.count + patterns.sensitive.count >= 4096 { patterns = ([:], [:]) }
        if caseSensitive { patterns.sensitive[pattern] = compiled } else { patterns.insensitive[pattern] = compiled }
        return compiled
    }
}

/// A regular expression, compiled on first use, and the literals (``RequiredLiterals``) any
/// match contains.
final class CompiledPattern: @unchecked Sendable {
    let source: String
    let literals: RequiredLiterals?
    private let options: NSRegularExpression.Options
    private let lock = NSLock()
    private var compiled: NSRegularExpression??

    init(_ source: String, caseSensitive: Bool) {
        self.source = source
        options = caseSensitive ? [] : [.caseInsensitive]
        literals = RequiredLiterals(pattern: source)
    }

    /// The expression, or nil when the pattern is not a valid regular expression.
    var regex: NSRegularExpression? {
        lock.withLock {
            if let compiled { return compiled }
            let made = try? NSRegularExpression(pattern: source, options: options)
            compiled = .some(made)
            return made
        }
    }

    /// Whether the expression has been compiled (or found invalid) yet.
    var isCompiled: Bool { lock.withLock { compiled != nil } }

    /// The first match in `text`. `lowered` is the text as ``LoweredASCII``, when it is ASCII:
    /// a text without the pattern's literals is answered without running the pattern.
    func firstMatch(in text: String, lowered: LoweredASCII?) -> NSTextCheckingResult? {
        if let literals, let lowered, !lowered.bytes.withUnsafeBufferPointer(literals.mayMatch) { return nil }
        return regex?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// Whether the pattern can match `text` at all, by its literals alone.
    func mayMatch(_ lowered: LoweredASCII?) -> Bool {
        guard let literals, let lowered else { return true }
        return lowered.bytes.withUnsafeBufferPointer(literals.mayMatch)
    }
}
