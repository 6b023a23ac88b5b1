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
                      ")", "…", "—", "é", " ", " ", " "]
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...10, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(MockCoach.reflect(text) == Self.reference(text), "\(text)")
        }
    }
}
