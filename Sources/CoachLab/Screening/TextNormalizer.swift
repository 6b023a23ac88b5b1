import Foundation

/// Folds text for screening: lower case, accents removed, curly quotes and apostrophes
/// straightened, and split into words on everything that is not a letter or digit.
/// Apostrophes inside a word join it ("can't" → "cant"); nothing else ever joins words.
enum TextNormalizer {
    /// A word of the folded text and the character range it came from in the original.
    struct Word: Equatable {
        var text: String
        var start: Int
        var end: Int
    }

    /// The words of `text`, each with its character offsets in the original.
    static func words(_ text: String) -> [Word] {
        var words: [Word] = []
        var current = ""
        var start = 0
        var offset = 0
        var lastWordCharacterEnd = 0
        func flush() {
            if !current.isEmpty { words.append(Word(text: current, start: start, end: lastWordCharacterEnd)) }
            current = ""
        }
        for character in text {
            defer { offset += 1 }
            if isApostrophe(character), !current.isEmpty { continue }
            let folded = fold(character)
            if folded.isEmpty {
                flush()
                continue
            }
            if current.isEmpty { start = offset }
            current += folded
            lastWordCharacterEnd = offset + 1
        }
        flush()
        return words
    }

    /// The folded words of a phrase, for building matchers.
    static func tokens(_ phrase: String) -> [String] { words(phrase).map(\.text) }

    private static func isApostrophe(_ character: Character) -> Bool {
        character == "'" || character == "\u{2019}" || character == "\u{2018}" || character == "\u{02BC}"
    }

    /// The folded letters and digits of one character; empty for separators.
    private static func fold(_ character: Character) -> String {
        if character.isASCII {
            guard let ascii = character.asciiValue else { return "" }
            switch ascii {
            case 0x41...0x5A: return String(UnicodeScalar(ascii + 32))
            case 0x61...0x7A, 0x30...0x39: return String(character)
            default: return ""
            }
        }
        guard character.isLetter || character.isNumber else { return "" }
        let folded = String(character).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return String(folded.unicodeScalars.filter { $0.properties.isAlphabetic || $0.properties.numericType != nil }
            .map(Character.init))
    }
}
