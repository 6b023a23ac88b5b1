import CoachLab
import Testing

/// The sentence scanner answers ASCII from its own tables and every other scalar from Unicode's
/// properties. It must split every text exactly where the property-only scanner it replaced
/// did, kept here as the reference.
@Suite struct TextMetricsReferenceTests {
    static let abbreviations: Set<String> = [
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "e.g", "i.e", "eg", "ie", "cf", "approx",
        "no", "vol", "fig", "inc", "ltd", "co", "corp", "dept", "est", "min", "max", "u.s", "u.k", "a.m", "p.m", "jan",
        "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri",
        "sat", "sun",
    ]

    /// The earlier scanner, with Unicode property look-ups for every scalar.
    static func reference(_ text: String) -> [String] {
        let characters = Array(text.unicodeScalars)
        let terminators: Set<Unicode.Scalar> = [".", "!", "?", "…"]
        let closers: Set<Unicode.Scalar> = ["\"", "'", "”", "’", ")", "]", "*", "_", "`", "~"]
        func emojiLike(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isEmojiPresentation || (scalar.properties.isEmoji && scalar.value > 0x238C)
                || scalar.value == 0x200D || scalar.value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalar.value)
        }
        func abbreviationOrInitial(_ period: Int) -> Bool {
            var start = period
            while start > 0, characters[start - 1].properties.isAlphabetic || characters[start - 1] == "." { start -= 1 }
            guard period - start <= 8 else { return false }
            let word = String(String.UnicodeScalarView(characters[start..<period])).lowercased()
            if word.count == 1, let letter = word.first, letter.isLetter, characters[start].properties.isUppercase { return true }
            return abbreviations.contains(word)
        }
        var sentences: [String] = []
        var start = 0, index = 0
        func flush(_ end: Int) {
            var low = start, high = end
            while low < high, characters[low].properties.isWhitespace { low += 1 }
            while high > low, characters[high - 1].properties.isWhitespace { high -= 1 }
            if characters[low..<high].contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
                sentences.append(String(String.UnicodeScalarView(characters[low..<high])))
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
            guard terminators.contains(character) else { index += 1; continue }
            var end = index + 1
            while end < characters.count, terminators.contains(characters[end]) { end += 1 }
            while end < characters.count, closers.contains(characters[end]) || emojiLike(characters[end]) { end += 1 }
            let atEnd = end >= characters.count
            let followedBySpace = !atEnd && characters[end].properties.isWhitespace
            var endsSentence = atEnd || followedBySpace
            if endsSentence, character == "." || character == "…", index + 1 < characters.count || atEnd {
                let run = characters[index..<end].filter { $0 == "." || $0 == "…" }
                if run.count >= 3 || run.contains("…") {
                    var next = end
                    while next < characters.count, characters[next] == " " { next += 1 }
                    if next < characters.count, characters[next].properties.isLowercase { endsSentence = false }
                } else if run.count == 1, abbreviationOrInitial(index) {
                    endsSentence = false
                }
            }
            if character == ".", !atEnd, !followedBySpace { endsSentence = false }
            index = end
            if endsSentence { flush(index) }
        }
        flush(characters.count)
        return sentences
    }

    @Test func splitsRandomTextWhereThePropertyScannerDid() {
        let pieces = ["Dr", "dr", "J", "e.g", "U.S", "a.m", "No", "it", "Ünï", "ß", "İ", "7", "2.5", "x", "Ab", "ABCDEFGHIJ",
                      ".", ".", "!", "?", "…", "...", "?!", "\"", "'", "”", "’", ")", "]", "🙂", "🎉", "\u{FE0F}", "\u{200D}",
                      "👍🏽", "©", "\u{301}", " ", " ", " ", "\n", "\r\n", "\t", "\u{A0}", "\u{2003}", "\u{85}", "\u{1C}", "٣", "日本"]
        var generator = SeededGenerator(seed: 23)
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...14, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(TextMetrics.sentences(text) == Self.reference(text), "\(text.debugDescription)")
        }
    }
}
