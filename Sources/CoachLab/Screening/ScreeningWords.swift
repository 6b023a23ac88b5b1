/// A message folded for screening, without a `String` per word: the folded bytes of every word
/// in one buffer, and for each word its byte range, its Unicode-scalar range in the original,
/// and a hash. It is the folding ``TextNormalizer`` describes, and ``TextNormalizer/words(_:)``
/// is built on it; stage 1 runs this on every message, so it is built for throughput.
struct ScreeningWords {
    struct Word {
        /// The folded word's bytes in ``ScreeningWords/bytes``.
        var byteStart: Int
        var byteEnd: Int
        /// Unicode-scalar offsets in the original message.
        var start: Int
        var end: Int
        /// FNV-1a of the folded bytes.
        var hash: UInt64
    }

    private(set) var bytes: [UInt8] = []
    private(set) var words: [Word] = []

    init(_ text: String) {
        bytes.reserveCapacity(text.utf8.count)
        var hash = ScreeningWords.seed
        var wordStart = -1
        var byteStart = 0
        var offset = 0
        var lastEnd = 0
        func append(_ byte: UInt8) {
            if wordStart < 0 {
                wordStart = offset
                byteStart = bytes.count
                hash = ScreeningWords.seed
            }
            bytes.append(byte)
            hash = (hash ^ UInt64(byte)) &* ScreeningWords.prime
            lastEnd = offset + 1
        }
        func flush() {
            if wordStart >= 0 {
                words.append(Word(byteStart: byteStart, byteEnd: bytes.count, start: wordStart, end: lastEnd, hash: hash))
            }
            wordStart = -1
        }
        for scalar in text.unicodeScalars {
            defer { offset += 1 }
            let value = scalar.value
            switch value {
            case 0x41...0x5A: append(UInt8(value + 32))
            case 0x61...0x7A, 0x30...0x39: append(UInt8(value))
            case 0x27, 0x2019, 0x2018, 0x02BC:  // apostrophes join a word ("can't" → "cant")
                if wordStart < 0 { flush() }
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
                    for byte in String(part).utf8 { append(byte) }
                }
            }
        }
        flush()
    }

    /// The folded text of word `index`.
    func text(_ index: Int) -> String {
        String(decoding: bytes[words[index].byteStart..<words[index].byteEnd], as: UTF8.self)
    }

    /// Whether word `index` is exactly `token`'s bytes.
    func word(_ index: Int, equals token: [UInt8]) -> Bool {
        let word = words[index]
        guard word.byteEnd - word.byteStart == token.count else { return false }
        return bytes[word.byteStart..<word.byteEnd].elementsEqual(token)
    }

    /// The stem of word `index` (``Inflection/stemLength(_:)``): its hash and length.
    func stem(_ index: Int) -> (hash: UInt64, length: Int) {
        let word = words[index]
        let slice = bytes[word.byteStart..<word.byteEnd]
        let length = Inflection.stemLength(slice)
        return (ScreeningWords.hash(slice.prefix(length)), length)
    }

    /// For a word of digits followed by letters ("40mg", "2"), the hash and bytes of the part
    /// after the digits; nil when it does not start with a digit or is digits then more digits.
    func numberSuffix(_ index: Int) -> ArraySlice<UInt8>? {
        let word = words[index]
        guard bytes[word.byteStart] >= 0x30, bytes[word.byteStart] <= 0x39 else { return nil }
        var cursor = word.byteStart
        while cursor < word.byteEnd, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 { cursor += 1 }
        return bytes[cursor..<word.byteEnd]
    }

    static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// FNV-1a over bytes, as words are hashed while they are folded.
    static func hash<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        bytes.reduce(seed) { ($0 ^ UInt64($1)) &* prime }
    }
}

/// Light English suffix folding, so one entry matches a word's inflections: diagnose,
/// diagnosed, diagnoses, diagnosing and diagnosis share the stem "diagnos"; pill and pills,
/// overdose and overdosing, cut and cutting, worry and worried do too. It only strips, so a
/// stem is always a prefix of the word, and it never leaves fewer than three letters.
enum Inflection {
    /// Suffixes tried in order; the first that leaves at least three letters is stripped.
    private static let suffixes: [[UInt8]] = ["ies", "ied", "ing", "ed", "es", "is", "s", "e", "y"].map { Array($0.utf8) }

    /// The length of the stem of a folded word.
    static func stemLength(_ word: ArraySlice<UInt8>) -> Int {
        let count = word.count
        guard count > 3, word.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return count }
        for suffix in suffixes where count - suffix.count >= 3 && word.suffix(suffix.count).elementsEqual(suffix) {
            // A plural "s" only: "stress", "status" and "this" keep theirs.
            if suffix == [0x73], let before = word.dropLast().last, [0x73, 0x75, 0x69].contains(before) { continue }
            var length = count - suffix.count
            // "cutting" → "cut", "stopped" → "stop"; "killing" keeps "kill".
            if suffix == Array("ing".utf8) || suffix == Array("ed".utf8) {
                let last = word[word.startIndex + length - 1], previous = word[word.startIndex + length - 2]
                if last == previous, length > 3, !"aeioulsz".utf8.contains(last) { length -= 1 }
            }
            return length
        }
        return count
    }

    /// The stem of a folded word, as text.
    static func stem(_ word: String) -> String {
        let bytes = Array(word.utf8)
        return String(decoding: bytes.prefix(stemLength(bytes[...])), as: UTF8.self)
    }
}
