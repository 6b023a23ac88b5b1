/// Light English suffix folding, so one entry matches a word's inflections: diagnose,
/// diagnosed, diagnoses, diagnosing and diagnosis share the stem "diagnos"; pill and pills,
/// overdose and overdosing, cut and cutting, worry and worried do too. It only strips, so a
/// stem is always a prefix of the word, and it never leaves fewer than three letters.
enum Inflection {
    /// The length of the stem of a folded word. The suffixes are tried in this order, and the
    /// first that leaves at least three letters is stripped: ies, ied, ing, ed, es, is, s, e, y.
    /// A plural "s" only ("stress", "status" and "this" keep theirs), and a doubled consonant
    /// before "ing" or "ed" goes too ("cutting" → "cut", "stopped" → "stop"; "killing" keeps
    /// "kill"). Stage 1 asks this of most words of every message, so it reads the last letters
    /// directly rather than comparing suffixes.
    static func stemLength<Letters: RandomAccessCollection<UInt8>>(_ word: Letters) -> Int where Letters.Index == Int {
        let count = word.count
        guard count > 3 else { return count }
        for byte in word where byte < 0x61 || byte > 0x7A { return count }
        let end = word.endIndex
        let last = word[end - 1], second = word[end - 2], third = word[end - 3]
        let (d, e, g, i, n, s, y): (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0x64, 0x65, 0x67, 0x69, 0x6E, 0x73, 0x79)
        /// "ing" and "ed" also take a doubled consonant before them.
        func undoubled(_ length: Int) -> Int {
            let before = word[word.startIndex + length - 1], previous = word[word.startIndex + length - 2]
            guard before == previous, length > 3 else { return length }
            switch before {
            case 0x61, 0x65, 0x69, 0x6F, 0x75, 0x6C, 0x73, 0x7A: return length  // a e i o u l s z
            default: return length - 1
            }
        }
        if count >= 6, third == i, second == e, last == s || last == d { return count - 3 }  // ies, ied
        if count >= 6, third == i, second == n, last == g { return undoubled(count - 3) }  // ing
        if count >= 5, second == e, last == d { return undoubled(count - 2) }  // ed
        if count >= 5, second == e || second == i, last == s { return count - 2 }  // es, is
        if last == s { return second == s || second == 0x75 || second == i ? count : count - 1 }  // s, not after s, u, i
        if last == e || last == y { return count - 1 }
        return count
    }

    /// The stem of a folded word, as text.
    static func stem(_ word: String) -> String {
        let bytes = Array(word.utf8)
        return String(decoding: bytes.prefix(stemLength(bytes[...])), as: UTF8.self)
    }
}
