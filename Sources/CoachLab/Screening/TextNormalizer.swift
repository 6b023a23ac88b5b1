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

    /// The words of `text`, each with its Unicode-scalar offsets in the original. The folding
    /// is ``ScreeningWords``'s, the one stage 1 runs on every message; this gives each word as text.
    static func words(_ text: String) -> [Word] {
        let folded = ScreeningWords(text)
        return folded.words.indices.map { Word(text: folded.text($0), start: folded.words[$0].start, end: folded.words[$0].end) }
    }

    /// The folded words of a phrase, for building matchers.
    static func tokens(_ phrase: String) -> [String] { words(phrase).map(\.text) }
}
