import Foundation

/// How a directive is said: kept short at a natural break, clipped, capitalised, and turned to
/// the listener ("them" is "you"; for a parent, "the child" is "your child").
extension MockDirective {
    /// A copied fragment kept short, as a model paraphrases rather than quotes: cut at the
    /// first comma, semicolon or colon after four words, and at fourteen words (not counting an
    /// opening condition: "If …," or "For a fever in a baby under three months,"). An example set
    /// off by commas (", like a cot,") is left out rather than cut at; a comma before a number
    /// ("the hotline, 1-800-422-4453") or after "or" or "and" does not cut, since what follows
    /// is what the line asks to be said.
    static func bounded(_ text: String) -> String {
        // At most eighteen words are kept after an opening condition of up to ten, and the one
        // after the last is looked at.
        let words = text.split(separator: " ", maxSplits: 34, omittingEmptySubsequences: true)
        func hasDigit(_ word: Substring) -> Bool { word.utf8.contains { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } || !word.utf8.allSatisfy { $0 < 0x80 } && word.contains(where: \.isNumber) }
        // Whether the word is one of some lower-case ASCII words, in any case.
        func isAny(_ word: Substring, _ options: [StaticString]) -> Bool {
            options.contains { option in
                option.withUTF8Buffer { $0.count == word.utf8.count && zip($0, word.utf8).allSatisfy { $0 == $1 || $0 == $1 | 0x20 && $1 >= 0x41 && $1 <= 0x5A } }
            }
        }
        var kept: [Substring] = []
        var conditional = MockReading.startsWithWord(text, ["if", "when", "for", "after", "once", "whenever"])
        var index = 0
        var openParentheses = 0
        var inDashes = false
        // Where an aside read through ends (its closing comma), once one is.
        var asideEnd = -1
        // The words of an opening condition ("For a fever in a baby under three months,"): the
        // fourteen-word cap counts from after it.
        var conditionWords = 0
        while index < words.count {
            let word = words[index]
            index += 1
            kept.append(word)
            for byte in word.utf8 {
                if byte == UInt8(ascii: "(") { openParentheses += 1 } else if byte == UInt8(ascii: ")") { openParentheses -= 1 }
            }
            let last = word.utf8.last
            // A list set off by dashes ("first — rent, council tax, energy — because") is not cut.
            if word == "—" || word == "–" { inDashes.toggle() }
            if inDashes, last == UInt8(ascii: ","), kept.count < 14 { continue }
            if conditional, last == UInt8(ascii: ",") { conditional = false; conditionWords = kept.count; continue }
            // A comma with four words or fewer after it ("into dry, warm layers right away") is
            // not cut at: the short tail is part of what the line asks.
            if last == UInt8(ascii: ","), words.count - index <= 4, !words[index...].contains(where: { [",", ";", ":"].contains($0.last ?? " ") }) {
                continue
            }
            // "On a firm, flat surface", "a warm, dark room": a comma between the adjectives of
            // one thing is not the end of what the line asks.
            if last == UInt8(ascii: ","), kept.count >= 2, index < words.count, isAny(kept[kept.count - 2], ["a", "an", "the"]),
               !isAny(words[index], ["and", "or", "then", "but", "so", "like", "such", "e.g.", "including"]) {
                continue
            }
            if kept.count >= 4, last == UInt8(ascii: ","), index < words.count {
                // "Point them to ACAS, and to the police if they are in danger": the same verb
                // goes on.
                if isAny(words[index], ["and", "or"]), index + 1 < words.count, isAny(words[index + 1], ["to"]) { continue }
                // "…if they passed out, or see a doctor today": the other way to get help is
                // part of what the line asks.
                if isAny(words[index], ["or"]), index + 1 < words.count,
                   isAny(words[index + 1], ["see", "call", "go", "ask", "contact", "speak", "get", "visit", "ring", "text", "book", "talk", "phone", "seek"]) {
                    continue
                }
                if isAny(word, ["or,", "and,", "but,"]) {
                    conditional = MockReading.startsWithWord(String(words[index]), ["if", "when"])
                    continue
                }
                if words[index...].prefix(8).contains(where: hasDigit) { continue }
                // ", like a cot, and step away": the example goes, the second instruction stays.
                if isAny(words[index], ["like", "such", "e.g.", "including"]),
                   let close = words[index...].prefix(6).firstIndex(where: { $0.hasSuffix(",") }), close + 1 < words.count,
                   isAny(words[close + 1], ["and", "then", "or"]) {
                    kept[kept.count - 1] = word.dropLast()
                    index = close + 1
                    continue
                }
                // "Noticing early signs, like a clenched jaw, buys time": an aside inside the
                // sentence, whose verb comes after it, is read through to the verb.
                // Not a list ("like a parent, teacher or nurse"): what follows the comma is no
                // other item of it.
                if isAny(words[index], ["like", "such", "e.g.", "including"]),
                   let close = words[index...].prefix(6).firstIndex(where: { $0.hasSuffix(",") }), close + 1 < words.count,
                   !words[(close + 1)...].prefix(3).contains(where: { isAny($0, ["or", "and", "nor"]) || $0.hasSuffix(",") }) {
                    asideEnd = close
                    continue
                }
            }
            if index - 1 == asideEnd { continue }
            // "the Crisis Text Line: text HOME to 741741" keeps its number.
            if kept.count >= 4, last == UInt8(ascii: ":"), words[index...].prefix(4).contains(where: hasDigit) { continue }
            if kept.count >= 4, last == UInt8(ascii: ",") || last == UInt8(ascii: ";") || last == UInt8(ascii: ":") { break }
            // A parenthesis is cut at, unless it holds a number ("Beat (0808 801 0677)") or is a
            // name of up to three words for what comes before it ("(habit stacking)").
            if kept.count >= 4, index < words.count, words[index].hasPrefix("\"")
                || words[index].hasPrefix("(") && !hasDigit(words[index]) && !namesATerm(words[index...].prefix(3)) { break }
            // Fourteen words, or up to four more to close a parenthesis ("(0808 801 0677)").
            let counted = kept.count - min(conditionWords, 10)
            // A number the cap falls inside or just before ("on 0300 | 123 2040", "Action
            // Fraud | on 0300 123 2040") is kept whole.
            if counted >= 14, counted < 18, index < words.count,
               hasDigit(word) && hasDigit(words[index]) || !hasDigit(word) && words[index...].prefix(2).contains(where: hasDigit) { continue }
            if counted >= 14, openParentheses <= 0 || counted >= 18 { break }
        }
        var result = kept.joined(separator: " ")
        while let last = result.last, ",;:".contains(last) { result.removeLast() }
        return result
    }

    /// At most `count` words of a text copied from the prompt, without a dangling small word
    /// at the end, so the reply never quotes ten words in a row.
    /// Whether the words opening at a parenthesis close it within themselves, as a term does
    /// ("(habit stacking)", "(CBT)"), and do not open an aside ("(for example …", "(e.g. …").
    static func namesATerm(_ words: ArraySlice<Substring>) -> Bool {
        guard let close = words.firstIndex(where: { $0.contains(")") }), let first = words.first else { return false }
        let opening = first.dropFirst().lowercased()
        return close - words.startIndex < 3 && !["e.g.", "e.g.,", "eg", "for", "like", "such", "see", "try", "i.e.", "or", "and"].contains(opening)
            && !words[...close].contains(where: { $0.contains(",") || $0.contains(";") })
    }

    static func clipped(_ text: String, words count: Int = 9) -> String {
        let all = bounded(text).split(separator: " ")
        // A cut inside a parenthesis moves to its close, three words on at most.
        var end = min(count, all.count)
        let opened = all[..<end].reduce(0) { $0 + $1.filter { $0 == "(" }.count - $1.filter { $0 == ")" }.count }
        if opened > 0, let close = all[end...].prefix(3).firstIndex(where: { $0.contains(")") }) { end = close + 1 }
        var words = all[..<end].map(String.init)
        while words.count > 3, let last = words.last, smallWords.contains(last.lowercased()) { words.removeLast() }
        var text = words.joined(separator: " ")
        while let last = text.last, ",;:(".contains(last) { text.removeLast() }
        return text
    }

    /// Words a clipped text does not end on.
    static let smallWords: Set<String> = ["a", "an", "the", "and", "or", "to", "of", "for", "with", "in", "on", "at", "every", "by",
                                                  "is", "it", "if", "from", "into", "than", "as"]

    /// The text with its first word in lower case ("Call 999" → "call 999").
    static func lowercasedFirstWord(_ text: String) -> String {
        guard let first = text.first, first.isUppercase else { return text }
        return first.lowercased() + text.dropFirst()
    }

    static func capitalized(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    /// The listener's pronouns turned to "you": they → you, their → your, them → you.
    static func swapListener(_ text: String, caregiver: Bool = false) -> String {
        swapWords(text, caregiver ? caregiverWords : listenerPronouns)
    }

    static let caregiverPronouns: [String: String] = [
        "they": "you", "their": "your", "theirs": "yours", "them": "you", "themselves": "yourself", "they're": "you're",
        "they've": "you've", "they'll": "you'll", "the user": "you", "the user's": "your", "the user is": "you are",
        "the user has": "you have", "the user was": "you were", "the user mentions": "you mention", "the user says": "you say",
        "the user feels": "you feel", "the user wants": "you want", "the user asks": "you ask", "the user needs": "you need", "the parent": "you", "the parent's": "your",
        "the parent is": "you are", "the caregiver": "you", "the caregiver's": "your", "the caregiver is": "you are",
    ]

    /// To a caregiver, "the child" is theirs.
    static let caregiverWords = caregiverPronouns.merging(["the child": "your child", "the child's": "your child's"]) { first, _ in first }

    static let listenerPronouns: [String: String] = caregiverPronouns.merging([
        "the child": "you", "the child's": "your", "his": "your", "her": "your", "he": "you", "she": "you",
        "the child is": "you are", "he is": "you are", "she is": "you are", "the child has": "you have", "he has": "you have",
        "she has": "you have", "the child was": "you were", "he was": "you were", "she was": "you were",
    ]) { first, _ in first }

    /// Both sides turned: the coach's "you/your" → "I/my", then the listener's → "you".
    static func swapBoth(_ text: String, caregiver: Bool = false) -> String {
        let speaker = swapWords(text, ["you": "me", "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm",
                                       "you've": "I've", "you'll": "I'll", "you can't": "I can't", "you cannot": "I cannot",
                                       "you can": "I can", "you are": "I am", "you will": "I will", "you don't": "I don't",
                                       "you do not": "I do not", "that you": "that I", "and you": "and I"])
        // "You care about …" opens with the speaker as subject: "I care about …".
        let subject = speaker.hasPrefix("me ") ? "I " + speaker.dropFirst(3) : speaker
        return swapListener(subject, caregiver: caregiver)
    }

    /// Whole-word replacements, longest phrase first, each word replaced once.
    static func swapWords(_ text: String, _ table: [String: String]) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        var index = 0
        let longest = table.keys.map { $0.split(separator: " ").count }.max() ?? 1
        outer: while index < words.count {
            for length in stride(from: min(longest, words.count - index), through: 1, by: -1) {
                let phrase = words[index..<(index + length)].joined(separator: " ")
                let core = phrase.trimmed(.punctuationCharacters)
                let trailing = String(phrase.dropFirst(phrase.distance(from: phrase.startIndex, to: phrase.range(of: core)?.upperBound ?? phrase.endIndex)))
                if let replacement = table[MockReading.fold(core)] {
                    out.append(replacement + trailing)
                    index += length
                    continue outer
                }
            }
            out.append(words[index])
            index += 1
        }
        return out.joined(separator: " ")
    }
}
