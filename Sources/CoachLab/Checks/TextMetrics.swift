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
        let characters = Array(text)
        var sentences: [String] = []
        var current = ""
        var index = 0
        func flush() {
            let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.contains(where: { $0.isLetter || $0.isNumber }) { sentences.append(trimmed) }
            current = ""
        }
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            if character == "\n" {
                flush()
                index += 1
                continue
            }
            guard ".!?…".contains(character) else { index += 1; continue }
            // Take the whole run of terminators, then closing quotes, brackets and emoji.
            var end = index + 1
            while end < characters.count, ".!?…".contains(characters[end]) { current.append(characters[end]); end += 1 }
            while end < characters.count, "\"'”’)]".contains(characters[end]) || characters[end].isEmojiLike {
                current.append(characters[end]); end += 1
            }
            let atEnd = end >= characters.count
            let followedBySpace = !atEnd && characters[end].isWhitespace
            var endsSentence = atEnd || followedBySpace
            if endsSentence, character == "." || character == "…", index + 1 < characters.count || atEnd {
                let run = String(characters[index..<end]).filter { ".…".contains($0) }
                let isEllipsis = run.count >= 3 || run.contains("…")
                if isEllipsis {
                    // An ellipsis continues when the next word starts in lower case.
                    var next = end
                    while next < characters.count, characters[next] == " " { next += 1 }
                    if next < characters.count, characters[next].isLowercase { endsSentence = false }
                } else if run.count == 1, isAbbreviationOrInitial(before: index, in: characters) {
                    endsSentence = false
                }
            }
            if character == ".", !atEnd, !followedBySpace { endsSentence = false }  // 7.2, e.g.x, file.txt
            index = end
            if endsSentence { flush() }
        }
        flush()
        return sentences
    }

    private static func isAbbreviationOrInitial(before period: Int, in characters: [Character]) -> Bool {
        var start = period
        while start > 0, characters[start - 1].isLetter || characters[start - 1] == "." { start -= 1 }
        let word = String(characters[start..<period]).lowercased()
        if word.count == 1, let letter = word.first, letter.isLetter, characters[start].isUppercase {
            return true  // an initial: "J. Smith"
        }
        return abbreviations.contains(word)
    }

    /// The words of `text`: runs of letters, digits and inner apostrophes or hyphens.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber || (!current.isEmpty && "'’-".contains(character)) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current.trimmingCharacters(in: CharacterSet(charactersIn: "'’-")))
                current = ""
            }
        }
        if !current.isEmpty { words.append(current.trimmingCharacters(in: CharacterSet(charactersIn: "'’-"))) }
        return words.filter { !$0.isEmpty }
    }

    /// The number of questions: sentences whose final run of punctuation holds a "?" ("Really?!").
    public static func questions(_ text: String) -> Int {
        sentences(text).filter(endsWithQuestion).count
    }

    /// Whether the text ends with a question: its last run of sentence punctuation, ignoring
    /// trailing spaces, closing quotes and emoji, contains "?".
    public static func endsWithQuestion(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace || "\"'”’)]".unicodeScalars.contains(last)
                || last.properties.isEmojiPresentation || last.properties.generalCategory == .otherSymbol
                || last.value == 0xFE0F || last.value == 0x200D || (0x1F3FB...0x1F3FF).contains(last.value) {
            scalars = scalars.dropLast()
        }
        let run = scalars.reversed().prefix { ".!?…".unicodeScalars.contains($0) }
        return run.contains("?")
    }
}

import Foundation

extension Character {
    /// Emoji and other pictographs that trail a sentence ("Great job! 🎉").
    var isEmojiLike: Bool {
        unicodeScalars.contains { $0.properties.isEmojiPresentation || ($0.properties.isEmoji && $0.value > 0x238C) }
    }
}
