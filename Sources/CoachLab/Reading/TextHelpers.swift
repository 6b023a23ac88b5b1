import Foundation

/// Folding, word boundaries and patterns, for every reader.
extension MockReading {
    /// Lower case, with curly apostrophes folded.
    static func fold(_ text: String) -> String {
        let lower = text.lowercased()
        guard lower.unicodeScalars.contains(where: isCurlyApostrophe) else { return lower }
        // By character, as Foundation matched: a quotation mark carrying a combining mark stays.
        return String(lower.lazy.map { $0 == "\u{2019}" || $0 == "\u{2018}" ? "'" : $0 })
    }

    static func isCurlyApostrophe(_ scalar: Unicode.Scalar) -> Bool { scalar == "\u{2019}" || scalar == "\u{2018}" }

    /// Whether `text` starts with one of `words` (lower-case ASCII), in any case,
    /// followed by a word boundary: what the pattern `^(?:if|when)\b` matches, without running
    /// a regular expression on ASCII text.
    static func startsWithWord(_ text: String, _ words: [String]) -> Bool {
        let utf8 = text.utf8
        for word in words {
            var index = utf8.startIndex
            var matched = true
            for letter in word.utf8 {
                guard index < utf8.endIndex else { matched = false; break }
                let byte = utf8[index]
                // Case folding beyond ASCII is the regular expression's to decide.
                if byte >= 0x80 { return contains("^(?:" + words.joined(separator: "|") + ")\\b", text) }
                guard (0x61...0x7A).contains(letter) ? byte | 0x20 == letter : byte == letter else { matched = false; break }
                index = utf8.index(after: index)
            }
            guard matched else { continue }
            if index == utf8.endIndex || !isWordScalar(text.unicodeScalars[index]) { return true }
        }
        return false
    }

    /// A scalar `\w` matches in ICU's regular expressions: a letter, mark, decimal digit or
    /// connector, or a zero-width (non-)joiner.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || value == 0x5F
        }
        let properties = scalar.properties
        return properties.isAlphabetic || properties.generalCategory == .decimalNumber || properties.generalCategory == .connectorPunctuation
            || properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
            || properties.generalCategory == .enclosingMark || scalar == "\u{200C}" || scalar == "\u{200D}"
    }

    /// The first sentence of a text, without its final period.
    static func firstSentence(_ text: String) -> String {
        var sentence = TextMetrics.sentences(text).first ?? text
        while let last = sentence.last, ".!".contains(last) { sentence.removeLast() }
        return sentence
    }

    static func contains(_ pattern: String, _ text: String) -> Bool {
        RegexCache.shared.written(pattern, caseSensitive: false).firstMatch(in: text, lowered: LoweredASCII(text)) != nil
    }

    /// Every match's groups (0 is the whole match; a group that did not take part is "").
    static func matches(_ pattern: String, in text: String, caseSensitive: Bool = false) -> [[String]] {
        guard let regex = RegexCache.shared.expression(pattern, caseSensitive: caseSensitive, toRunOn: text) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }
}

extension MockReading {
    /// Chat and working-note shorthand spelled out, in a user's message ("r u a real person??
    /// whats ur name") and in an instruction ("say ur really glad they told u"), so each is
    /// read as what it says. "ur" is "you're" before a word that describes ("ur really glad",
    /// "ur Nell"), else "your".
    static func spelledOut(_ text: String) -> String {
        guard text.split(whereSeparator: { !$0.isLetter }).contains(where: { shorthandWords.contains(String($0)) }) else { return text }
        var spelled = text
        for (pattern, replacement) in shorthandSpellings { spelled = spelled.replacingMatches(ofPattern: pattern, with: replacement, caseSensitive: true) }
        return spelled
    }

    static let shorthandWords: Set<String> = ["u", "r", "ru", "ur", "whats", "ya", "pls", "plz", "im", "dont", "cant", "w", "thru", "tho"]

    /// In order: "r u" before "u".
    static let shorthandSpellings: [(String, String)] = [
        (#"\br u\b"#, "are you"), (#"\bru\b"#, "are you"), (#"\bwho r\b"#, "who are"), (#"\by r\b"#, "why are"), (#"\bwhats\b"#, "what's"),
        (#"\bur (?=(?:really|so|very|not|a|an|the|here|there|glad|sorry|safe|allowed|okay|ok|[A-Z]\w*)\b)"#, "you're "),
        (#"\bur\b"#, "your"), (#"\bu\b"#, "you"), (#"\bya\b"#, "you"),
        (#"\bpls\b|\bplz\b"#, "please"), (#"\bim\b"#, "i'm"), (#"\bdont\b"#, "don't"), (#"\bcant\b"#, "can't"),
        (#"\bw/(?=\s)"#, "with"), (#"\bthru\b"#, "through"), (#"\btho\b"#, "though"),
    ]
}
