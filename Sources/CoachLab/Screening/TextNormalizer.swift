import Foundation

/// Folds text for screening: lower case, accents removed, curly quotes and apostrophes
/// straightened, and split into words on everything that is not a letter or digit.
/// Apostrophes inside a word join it ("can't" → "cant"); nothing else ever joins words.
enum TextNormalizer {
    /// A word of the folded text and the Unicode-scalar range it came from in the original.
    struct Word: Equatable {
        var text: String
        var start: Int
        var end: Int
    }

    /// The words of `text`, each with its Unicode-scalar offsets in the original. It walks
    /// scalars, not grapheme clusters, with a fast path for ASCII: screening a message and
    /// checking a reply against a whole system prompt both run this on every case.
    static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        var current = ""
        var start = 0
        var offset = 0
        var lastWordScalarEnd = 0
        func flush() {
            if !current.isEmpty { words.append(Word(text: current, start: start, end: lastWordScalarEnd)) }
            current = ""
        }
        func append(_ scalar: Unicode.Scalar) {
            if current.isEmpty { start = offset }
            current.unicodeScalars.append(scalar)
            lastWordScalarEnd = offset + 1
        }
        for scalar in text.unicodeScalars {
            defer { offset += 1 }
            switch scalar.value {
            case 0x41...0x5A: append(Unicode.Scalar(scalar.value + 32)!)
            case 0x61...0x7A, 0x30...0x39: append(scalar)
            case 0x27, 0x2019, 0x2018, 0x02BC:  // apostrophes join a word ("can't" → "cant")
                if current.isEmpty { flush() }
            case 0..<0x80: flush()
            default:
                let properties = scalar.properties
                if properties.generalCategory == .nonspacingMark || properties.generalCategory == .enclosingMark {
                    continue  // a combining accent: dropped, and the word goes on
                }
                guard properties.isAlphabetic || properties.numericType != nil else {
                    flush()
                    continue
                }
                let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                for part in folded.unicodeScalars where part.properties.isAlphabetic || part.properties.numericType != nil {
                    append(part)
                }
            }
        }
        flush()
        return words
    }

    /// The folded words of a phrase, for building matchers.
    static func tokens(_ phrase: String) -> [String] { words(phrase).map(\.text) }
}
