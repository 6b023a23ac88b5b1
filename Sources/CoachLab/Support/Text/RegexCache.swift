import Foundation
import Synchronization

/// Regular expressions, kept for the life of the process: the mock reads every prompt
/// with the same few dozen patterns, and a pack's guardrail patterns are compiled by lint's
/// check and again by the screener built from the same pack.
final class RegexCache: Sendable {
    static let shared = RegexCache()
    /// By case sensitivity, then by pattern: a key joining the two would copy the pattern on
    /// every look-up, and the mock looks up a few dozen per prompt line.
    private let patterns = Mutex<(insensitive: [String: CompiledPattern], sensitive: [String: CompiledPattern])>(([:], [:]))

    /// The pattern compiled, or nil when it is not a valid regular expression.
    func expression(_ pattern: String, caseSensitive: Bool) -> NSRegularExpression? {
        self.pattern(pattern, caseSensitive: caseSensitive)?.regex
    }

    /// Whether `pattern` is compiled and held.
    func holds(_ pattern: String, caseSensitive: Bool) -> Bool {
        patterns.withLock { (caseSensitive ? $0.sensitive[pattern] : $0.insensitive[pattern]) != nil }
    }

    /// The pattern compiled with the literals a match needs, or nil when it is not a valid
    /// regular expression.
    func pattern(_ pattern: String, caseSensitive: Bool) -> CompiledPattern? {
        let held = self.written(pattern, caseSensitive: caseSensitive)
        return held.regex == nil ? nil : held
    }

    /// A pattern written in the code, which is compiled only when a text first holds its
    /// literals: many of the patterns the mock asks a prompt's lines about need words no line
    /// of that prompt holds (a one-case run compiles 46 of the 73 it asks for), and compiling
    /// one costs far more than the byte search that rules it out. An invalid pattern matches
    /// nothing.
    func written(_ pattern: String, caseSensitive: Bool) -> CompiledPattern {
        patterns.withLock { patterns in
            if let cached = caseSensitive ? patterns.sensitive[pattern] : patterns.insensitive[pattern] { return cached }
            let compiled = CompiledPattern(pattern, caseSensitive: caseSensitive)
            // A long-lived process that reloads edited packs starts again past a bound.
            if patterns.insensitive.count + patterns.sensitive.count >= 4096 { patterns = ([:], [:]) }
            if caseSensitive { patterns.sensitive[pattern] = compiled } else { patterns.insensitive[pattern] = compiled }
            return compiled
        }
    }
}

/// A regular expression, compiled on first use, and the literals (``RequiredLiterals``) any
/// match contains.
///
/// A case-insensitive pattern that folding cannot change on a text without capitals (see
/// ``foldsAlike(_:)``) is run on such a text in its case-sensitive form, which ICU compiles
/// and runs several times faster: the mock reads lower-cased prompt lines.
final class CompiledPattern: Sendable {
    let source: String
    let literals: RequiredLiterals?
    private let options: NSRegularExpression.Options
    /// Whether the case-sensitive form serves a lower-case ASCII text.
    private let exactCaseServesLowerCase: Bool
    private let compiled = Once<NSRegularExpression?>()
    private let compiledExactCase = Once<NSRegularExpression?>()

    init(_ source: String, caseSensitive: Bool) {
        self.source = source
        options = caseSensitive ? [] : [.caseInsensitive]
        literals = RequiredLiterals(pattern: source)
        exactCaseServesLowerCase = !caseSensitive && Self.foldsAlike(source)
    }

    /// The expression, or nil when the pattern is not a valid regular expression.
    var regex: NSRegularExpression? {
        compiled.value { try? NSRegularExpression(pattern: source, options: options) }
    }

    /// The expression to run on a text: the case-sensitive form for a lower-case ASCII text
    /// when it answers the same.
    func regex(for lowered: LoweredASCII?) -> NSRegularExpression? {
        guard exactCaseServesLowerCase, let lowered, !lowered.hadCapitals else { return regex }
        return compiledExactCase.value { try? NSRegularExpression(pattern: source) }
    }

    /// Whether the expression has been compiled (or found invalid) yet.
    var isCompiled: Bool { compiled.isComputed || compiledExactCase.isComputed }

    /// The first match in `text`. `lowered` is the text as ``LoweredASCII``, when it is ASCII:
    /// a text without the pattern's literals is answered without running the pattern.
    func firstMatch(in text: String, lowered: LoweredASCII?) -> NSTextCheckingResult? {
        if let literals, let lowered, !lowered.bytes.withUnsafeBufferPointer(literals.mayMatch) { return nil }
        return regex(for: lowered)?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// Whether the pattern can match `text` at all, by its literals alone.
    func mayMatch(_ lowered: LoweredASCII?) -> Bool {
        guard let literals, let lowered else { return true }
        return lowered.bytes.withUnsafeBufferPointer(literals.mayMatch)
    }

    /// Whether case folding leaves `pattern` matching exactly what it matches without it, on
    /// any ASCII text with no capital letters. Every character must be one folding cannot
    /// bring onto such a text: ASCII but no capital (which folding lets match a small one), or
    /// from a block without case (Latin-1's punctuation and signs, General Punctuation: the
    /// curly quotes and dashes prompts are written with). Not "ß", which folds to "ss", nor
    /// the Kelvin sign, which folds to "k". The pattern may use no escape, set or flag whose
    /// meaning folding changes: only the escapes of positions, the classes \w \s \d and their
    /// negations, control characters and punctuation; no POSIX set ("[[:upper:]]"), no inline
    /// flag ("(?i)", "(?-i)"), and no range in a set but from one small letter to another or
    /// one digit to another ("[!-_]" holds the capitals). On such a text, a small letter of the
    /// pattern matches only itself either way, and a set or class holds the same of the text's
    /// characters.
    static func foldsAlike(_ pattern: String) -> Bool {
        let scalars = Array(pattern.unicodeScalars)
        let escapes = Set("bBwWsSdDAZzGtnrfae".unicodeScalars)
        func isSmallLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
            isSmallLetter(scalar) || ("A"..."Z").contains(scalar) || isDigit(scalar)
        }
        func hasNoCase(_ scalar: Unicode.Scalar) -> Bool {
            (0xA0...0xBF).contains(scalar.value) || (0x2000...0x206F).contains(scalar.value)
        }
        var index = 0
        // Where the innermost open set's members start, while one is open.
        var sets: [Int] = []
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "\\":
                guard let next, next.isASCII, !isLetterOrDigit(next) || escapes.contains(next) else { return false }
                index += 2
                continue
            case "(":
                // "(?" and a letter, "-" or "^" opens inline flags.
                if next == "?", index + 2 < scalars.count,
                   isLetterOrDigit(scalars[index + 2]) || scalars[index + 2] == "-" || scalars[index + 2] == "^" {
                    return false
                }
            case "[":
                if next == ":" { return false }
                sets.append(next == "^" ? index + 2 : index + 1)
            case "]" where !sets.isEmpty && index > sets[sets.count - 1]:
                sets.removeLast()
            case "-" where !sets.isEmpty && index > sets[sets.count - 1] && next != nil && next != "]":
                // A range: its ends must be plain characters ("\w-z" is not read here).
                let previous = scalars[index - 1]
                guard let next, index < 2 || scalars[index - 2] != "\\",
                      isSmallLetter(previous) && isSmallLetter(next) || isDigit(previous) && isDigit(next) else { return false }
            default:
                if scalar.isASCII ? ("A"..."Z").contains(scalar) : !hasNoCase(scalar) { return false }
            }
            index += 1
        }
        return true
    }
}

extension RegexCache {
    /// The expression to run `pattern` with on `text`, or nil when the text cannot hold a
    /// match (it lacks the pattern's literals) or the pattern is invalid.
    func expression(_ pattern: String, caseSensitive: Bool, toRunOn text: String) -> NSRegularExpression? {
        let compiled = written(pattern, caseSensitive: caseSensitive)
        let lowered = LoweredASCII(text)
        guard compiled.mayMatch(lowered) else { return nil }
        return compiled.regex(for: lowered)
    }
}

extension String {
    /// The ranges of the matches of `pattern`, left to right. Foundation's
    /// `range(of:options: .regularExpression)` builds and describes an expression on every call
    /// (describing its options costs a cold start the runtime's conformance scans); this takes
    /// the pattern from the process's cache.
    func ranges(ofPattern pattern: String, caseSensitive: Bool = true) -> [Range<String.Index>] {
        guard let regex = RegexCache.shared.expression(pattern, caseSensitive: caseSensitive, toRunOn: self) else { return [] }
        return regex.matches(in: self, range: NSRange(startIndex..., in: self)).compactMap { Range($0.range, in: self) }
    }

    /// Every match of `pattern` replaced by `template` (in which "$1" is the first group), as
    /// Foundation's `replacingOccurrences(of:with:options: .regularExpression)` does, with the
    /// pattern from the process's cache.
    func replacingMatches(ofPattern pattern: String, with template: String, caseSensitive: Bool = true) -> String {
        guard let regex = RegexCache.shared.expression(pattern, caseSensitive: caseSensitive, toRunOn: self) else { return self }
        return regex.stringByReplacingMatches(in: self, range: NSRange(startIndex..., in: self), withTemplate: template)
    }
}
