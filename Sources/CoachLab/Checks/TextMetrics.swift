/// Counts in a reply that format checks use: sentences, words, characters and questions.
///
/// Sentence counting is careful about what ends a sentence: `.`, `!`, `?` (runs such as
/// `?!` or `...` count once) followed by a space, a line break or the end. A period does not
/// end one after a known abbreviation ("Dr.", "e.g.", "U.S."), inside a number ("7.2") or
/// after a single initial ("J. Smith"). An ellipsis followed by a lower-case word continues
/// the sentence. A trailing emoji or closing quote stays with its sentence, and a line break
/// after text (a list item, a line of a poem) ends a sentence too.
public enum TextMetrics {
    /// Abbreviations that do not end a sentence (lower-cased, without the final period).
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "e.g", "i.e", "eg", "ie", "cf", "approx",
        "no", "vol", "fig", "inc", "ltd", "co", "corp", "dept", "est", "min", "max", "u.s", "u.k", "a.m", "p.m", "jan",
        "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri",
        "sat", "sun",
    ]

    /// The sentences of `text`, trimmed, in order.
    public static func sentences(_ text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var sentences: [String] = []
        scanSentences(scalars) { range in sentences.append(String(String.UnicodeScalarView(scalars[range]))) }
        return sentences
    }

    /// How many sentences `text` has: ``sentences(_:)``'s count, without building them.
    public static func sentenceCount(_ text: String) -> Int {
        var count = 0
        scanSentences(Array(text.unicodeScalars)) { _ in count += 1 }
        return count
    }

    /// Finds each sentence as a trimmed range of scalars. Works on Unicode scalars rather than
    /// characters, so a 10 MB reply is scored in a fraction of a second.
    private static func scanSentences(_ characters: [Unicode.Scalar], _ found: (Range<Int>) -> Void) {
        var start = 0
        var index = 0
        func flush(_ end: Int) {
            var low = start, high = end
            while low < high, isSpace(characters[low]) { low += 1 }
            while high > low, isSpace(characters[high - 1]) { high -= 1 }
            if characters[low..<high].contains(where: isLetterOrDigit) {
                found(low..<high)
            }
            start = end
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                index += 1
                flush(index)
                continue
            }
            guard isTerminator(character) else { index += 1; continue }
            // Take the whole run of terminators, then closing quotes, brackets and emoji.
            var end = index + 1
            while end < characters.count, isTerminator(characters[end]) { end += 1 }
            while end < characters.count, isCloser(characters[end]) || characters[end].value >= 0x80 && characters[end].isEmojiLike { end += 1 }
            let atEnd = end >= characters.count
            let followedBySpace = !atEnd && isSpace(characters[end])
            var endsSentence = atEnd || followedBySpace
            if endsSentence, character == "." || character == "…", index + 1 < characters.count || atEnd {
                let run = characters[index..<end].filter { $0 == "." || $0 == "…" }
                let isEllipsis = run.count >= 3 || run.contains("…")
                if isEllipsis {
                    // An ellipsis continues when the next word starts in lower case.
                    var next = end
                    while next < characters.count, characters[next] == " " { next += 1 }
                    if next < characters.count, characters[next].properties.isLowercase { endsSentence = false }
                } else if run.count == 1, isAbbreviationOrInitial(before: index, in: characters) {
                    endsSentence = false
                }
            }
            if character == ".", !atEnd, !followedBySpace { endsSentence = false }  // 7.2, e.g.x, file.txt
            index = end
            if endsSentence { flush(index) }
        }
        flush(characters.count)
    }

    /// `.`, `!`, `?` and `…`.
    private static func isTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2E, 0x21, 0x3F, 0x2026: true
        default: false
        }
    }

    /// A closing quote or bracket: `"`, `'`, `”`, `’`, `)` and `]`.
    /// Closing quotes and brackets, and the marks that close markdown emphasis or code
    /// ("**Ready?** Go."): they end a sentence with the punctuation before them.
    private static func isCloser(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x22, 0x27, 0x201D, 0x2019, 0x29, 0x5D, 0x2A, 0x5F, 0x60, 0x7E: true
        default: false
        }
    }

    /// Unicode's White_Space, answered without a property look-up for ASCII.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// Alphabetic or numeric, answered without a property look-up for ASCII.
    private static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return (0x61...0x7A).contains(scalar.value | 0x20) || (0x30...0x39).contains(scalar.value) }
        return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func isAbbreviationOrInitial(before period: Int, in characters: [Unicode.Scalar]) -> Bool {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x80 ? (0x61...0x7A).contains(scalar.value | 0x20) : scalar.properties.isAlphabetic
        }
        var start = period
        while start > 0, isLetter(characters[start - 1]) || characters[start - 1] == "." { start -= 1 }
        guard period - start <= 8 else { return false }  // no abbreviation is longer
        let run = characters[start..<period]
        if run.allSatisfy(\.isASCII) {
            // Nearly every word before a period: a small string, lowered byte by byte.
            func isUpper(_ scalar: Unicode.Scalar) -> Bool { (0x41...0x5A).contains(scalar.value) }
            if run.count == 1, isUpper(characters[start]) { return true }  // an initial: "J. Smith"
            let word = String(unsafeUninitializedCapacity: run.count) { buffer in
                for (offset, scalar) in run.enumerated() { buffer[offset] = UInt8(scalar.value) | (isUpper(scalar) ? 0x20 : 0) }
                return run.count
            }
            return abbreviations.contains(word)
        }
        let word = String(String.UnicodeScalarView(run)).lowercased()
        if word.count == 1, let letter = word.first, letter.isLetter, characters[start].properties.isUppercase {
            return true  // an initial: "J. Smith"
        }
        return abbreviations.contains(word)
    }

    /// The words of `text`: runs of letters, digits and inner apostrophes or hyphens.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        scanWords(text) { words.append($0) }
        return words
    }

    /// How many words `text` has: ``words(_:)``'s count, without building them.
    public static func wordCount(_ text: String) -> Int {
        var count = 0
        scanWords(text, building: false) { _ in count += 1 }
        return count
    }

    private static func scanWords(_ text: String, building: Bool = true, _ found: (String) -> Void) {
        var current = String.UnicodeScalarView()
        var length = 0, innerLength = 0  // scalars in the word, and up to its last letter or digit
        func flush() {
            if innerLength > 0 {
                found(building ? String(String.UnicodeScalarView(current.prefix(innerLength))).trimmed(joiners) : "")
            }
            current = String.UnicodeScalarView()
            length = 0
            innerLength = 0
        }
        for scalar in text.unicodeScalars {
            let wordy: Bool
            if scalar.value < 0x80 {  // most text: no property look-ups
                let value = scalar.value
                wordy = (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || (0x30...0x39).contains(value)
            } else {
                let properties = scalar.properties
                let isMark = properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
                    || properties.generalCategory == .enclosingMark
                wordy = properties.isAlphabetic || properties.numericType != nil || (length > 0 && isMark)
            }
            if wordy {
                if building { current.append(scalar) }
                length += 1
                innerLength = length
            } else if length > 0, scalar == "'" || scalar == "’" || scalar == "-" {
                if building { current.append(scalar) }
                length += 1
            } else if length > 0 {
                flush()
            }
        }
        flush()
    }

    private static let joiners = ScalarSet(charactersIn: "'’-")

    /// The number of questions: sentences whose final run of punctuation holds a "?" ("Really?!").
    public static func questions(_ text: String) -> Int {
        sentences(text).filter(endsWithQuestion).count
    }

    /// Whether the text ends with a question: its last run of sentence punctuation, ignoring
    /// trailing spaces, closing quotes, emphasis marks and emoji, contains "?".
    public static func endsWithQuestion(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace || "\"'”’)]*_`~".unicodeScalars.contains(last)
                || last.properties.isEmojiPresentation || last.properties.generalCategory == .otherSymbol
                || last.value == 0xFE0F || last.value == 0x200D || (0x1F3FB...0x1F3FF).contains(last.value) {
            scalars = scalars.dropLast()
        }
        let run = scalars.reversed().prefix { ".!?…".unicodeScalars.contains($0) }
        return run.contains("?")
    }
}

import Foundation

extension Unicode.Scalar {
    /// Emoji and other pictographs that trail a sentence ("Great job! 🎉"), with the joiners,
    /// variation selectors and skin tones that build them.
    var isEmojiLike: Bool {
        properties.isEmojiPresentation || (properties.isEmoji && value > 0x238C)
            || value == 0x200D || value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(value)
    }
}
