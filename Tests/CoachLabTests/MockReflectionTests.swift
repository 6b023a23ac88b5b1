@testable import CoachLab
import Foundation
import Testing

/// The mock's pronoun reflection ("I feel stuck" → "you feel stuck") gives what the
/// Foundation-based version it replaced gave, punctuation and curly apostrophes included.
@Suite struct MockReflectionTests {
    static let pronouns: [String: String] = [
        "i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
        "i'm": "you're", "im": "you're", "i've": "you've", "i'll": "you'll", "i'd": "you'd",
        "am": "are", "we": "you", "our": "your", "us": "you",
    ]

    /// The earlier implementation, word for word.
    static func reference(_ statement: String) -> String {
        let words = statement.split(separator: " ").map { word -> String in
            let text = String(word)
            let core = text.trimmingCharacters(in: .punctuationCharacters)
            let key = core.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
            guard !core.isEmpty, let replacement = pronouns[key], let range = text.range(of: core) else { return text }
            return text.replacingCharacters(in: range, with: replacement)
        }
        var text = words.joined(separator: " ").replacingOccurrences(of: "you was ", with: "you were ")
        let firstWord = words.first ?? ""
        let isAcronym = firstWord.count > 1 && firstWord == firstWord.uppercased()
        if let first = text.first, !isAcronym { text = first.lowercased() + text.dropFirst() }
        return text
    }

    @Test(arguments: ["I feel stuck with my project.", "\"I'm\" not sure, (me) either!", "I\u{2019}ve tried; WE failed...",
                      "NASA hired me", "Myself, mostly", "…i… am i?", "", "   ", "¿Me?", "I was there", "mine/ours",
                      "I'M DONE", "Ich bin müde, my friend", "i\u{301} accent", "-- us --"])
    func matchesTheEarlierReflection(_ statement: String) {
        #expect(MockCoach.reflect(statement) == Self.reference(statement))
    }

    @Test func matchesTheEarlierReflectionOnRandomText() {
        let pieces = ["I", "i", "me", "My", "we", "am", "I'm", "I\u{2019}d", "myself", "stuck", "NASA", "was", ",", ".", "\"", "(",
                      ")", "…", "—", "é", "\u{301}", "İ", "MY", "Im", "\u{212A}", " ", " ", " "]
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(MockCoach.reflect(text) == Self.reference(text), "\(text)")
        }
    }

    /// The scalar test that stands in for `^(?:if|when)\b` and the greeting pattern gives the
    /// regular expression's answer, across case, digits, underscores, marks and other scripts.
    @Test func wordAtTheStartMatchesTheRegularExpression() {
        let pieces = ["if", "IF", "When", "wHEN", "hi", "Hiya", "hey", "good morning", "good  morning", "Good Evening", "hello",
                      " ", ",", "_", "1", "x", "é", "\u{301}", "\u{200D}", "İ", "ß", "-", "'", "\n", "日本", "!"]
        let words = ["if", "when", "hi", "hello", "hey", "hiya", "good morning", "good afternoon", "good evening"]
        let pattern = "^(?:" + words.joined(separator: "|") + ")\\b"
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<4_000 {
            let text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(MockReading.startsWithWord(text, words) == MockReading.contains(pattern, text), "\(text.debugDescription)")
        }
    }

    /// Folding without Foundation gives what `lowercased()` and two `replacingOccurrences` gave.
    @Test func foldMatchesTheFoundationVersion() {
        let pieces = ["I\u{2019}M", "\u{2018}Quote\u{2019}", "ÉCOLE", "ǅ", "ß", "İ", "abc", " ", "\u{2019}\u{301}", "Σ"]
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let reference = text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'").replacingOccurrences(of: "\u{2018}", with: "'")
            #expect(MockReading.fold(text) == reference, "\(text.debugDescription)")
        }
    }

    /// Lines are read once per process and reused; what a line means still depends on where
    /// it stands (in the alert or not), and each instruction keeps its own prompt's line.
    @Test func aLineReadBeforeIsReadAgainInItsNewPlace() {
        let conditional = "If the user mentions self-harm, tell them to call 988."
        let outside = MockReading(system: "You are Sam.\n\(conditional)\nKeep replies to 2 sentences.")
        let inside = MockReading(system: "You are Sam.\nKeep replies to 2 sentences.\n\n=== RISK ALERT ===\n\(conditional)")
        let again = MockReading(system: "Intro line.\nAnother.\nYou are Sam.\n\(conditional)")
        #expect(outside.all(.conditional).map(\.line) == [2])
        #expect(inside.all(.conditional).isEmpty)
        #expect(again.all(.conditional).map(\.line) == [4])
        #expect(again.all(.conditional).map(\.text) == [conditional])
        #expect(outside.first(.sentences)?.line == 3 && inside.first(.sentences)?.line == 2)
        #expect(again.name == "Sam" && again.first(.name)?.line == 3)
    }
}

/// The mock reads the first sentence of an ASCII message byte by byte; it must find what the
/// character-by-character reading finds, line endings, tabs and 30-word limits included.
@Suite struct MockFirstSentenceTests {
    @Test func asciiTextReadsAsItDoesCharacterByCharacter() {
        let pieces = ["I", "feel", "stuck", "ok", ",", ";", ":", "-", ".", "!", "?", " ", " ", "  ", "\t", "\n", "\r\n", "\r",
                      "why", "word", "a b c d e f g h i j k l m n o"]
        var generator = SeededGenerator(seed: 31)
        for _ in 0..<4_000 {
            let text = (0..<Int.random(in: 0...16, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let fast = MockCoach.firstSentence(of: text), slow = MockCoach.firstSentenceByCharacter(of: text)
            #expect(fast.text == slow.text && fast.isQuestion == slow.isQuestion, "\(text.debugDescription)")
        }
    }
}
