/// A message folded for screening, without a `String` per word: the folded bytes of every word
/// in one buffer, and for each word its byte range, its Unicode-scalar range in the original,
/// and a hash. It is the folding ``TextNormalizer`` describes, and ``TextNormalizer/words(_:)``
/// is built on it; stage 1 runs this on every message, so it is built for throughput.
///
/// Besides case, accents and width, it undoes the cheap ways of writing a word so a screen
/// misses it (what `coachlab redteam` measures): invisible characters (zero-width spaces, soft
/// hyphens) are dropped inside a word, Cyrillic and Greek look-alikes read as Latin letters,
/// leetspeak digits inside a word read as letters, and letters spelled out with dots or
/// hyphens read as one word. Keywords and lexicon entries are folded the same way.
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
        var separator: UInt32 = 0
        /// The single scalar between the last word and this one, when there was exactly one.
        var joinedBy: UInt32?
        func append(_ byte: UInt8) {
            if wordStart < 0 {
                joinedBy = offset == lastEnd + 1 && !words.isEmpty ? separator : nil
                wordStart = offset
                byteStart = bytes.count
                hash = ScreeningWords.seed
            }
            bytes.append(byte)
            hash = (hash ^ UInt64(byte)) &* ScreeningWords.prime
            lastEnd = offset + 1
        }
        func flush(_ scalar: UInt32) {
            if wordStart >= 0 {
                words.append(Word(byteStart: byteStart, byteEnd: bytes.count, start: wordStart, end: lastEnd, hash: hash))
                joined.append(joinedBy)
                foldDigits(words.count - 1)
            }
            wordStart = -1
            separator = scalar
        }
        for scalar in text.unicodeScalars {
            defer { offset += 1 }
            let value = scalar.value
            switch value {
            case 0x41...0x5A: append(UInt8(value + 32))
            case 0x61...0x7A, 0x30...0x39: append(UInt8(value))
            case 0x27, 0x2019, 0x2018, 0x02BC:  // apostrophes join a word ("can't" → "cant")
                if wordStart < 0 { flush(value) }
            case 0..<0x80: flush(value)
            default:
                if let latin = ScreeningWords.lookAlike(value) {
                    append(latin)
                    continue
                }
                let properties = scalar.properties
                switch properties.generalCategory {
                case .nonspacingMark, .enclosingMark, .format:
                    continue  // a combining accent or an invisible character: dropped, and the word goes on
                default:
                    break
                }
                guard properties.isAlphabetic || properties.numericType != nil else {
                    flush(value)
                    continue
                }
                let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                for part in folded.unicodeScalars where part.properties.isAlphabetic || part.properties.numericType != nil {
                    for byte in String(part).utf8 { append(byte) }
                }
            }
        }
        flush(0)
        joinSpelledLetters()
    }

    /// For each word, the single scalar that separated it from the previous one, if exactly one.
    private var joined: [UInt32?] = []

    /// Leetspeak: in a word that starts with a letter, the digits read as
    /// the letters they stand for ("k1ll" → "kill", "my53lf" → "myself", "t0" → "to"). Words that
    /// start with a digit ("40mg", "3am") keep theirs; keywords are folded the same way, so "b12"
    /// still matches "b12".
    private mutating func foldDigits(_ index: Int) {
        let word = words[index]
        guard ScreeningWords.isLetter(bytes[word.byteStart]) else { return }
        var letters = 0, digits = 0
        for byte in bytes[word.byteStart..<word.byteEnd] {
            if ScreeningWords.isLetter(byte) { letters += 1 } else if ScreeningWords.leet(byte) != nil { digits += 1 }
        }
        guard digits > 0, letters >= 1, word.byteEnd - word.byteStart >= 2 else { return }
        for cursor in word.byteStart..<word.byteEnd {
            if let letter = ScreeningWords.leet(bytes[cursor]) { bytes[cursor] = letter }
        }
        words[index].hash = ScreeningWords.hash(bytes[word.byteStart..<word.byteEnd])
    }

    /// Letters spelled out with one dot, hyphen, underscore or asterisk between them, three or
    /// more ("a.d.h.d", "s-u-i-c-i-d-e"), are read as one word.
    private mutating func joinSpelledLetters() {
        let joiners: Set<UInt32> = [0x2E, 0x2D, 0x5F, 0x2A]
        func isLetter(_ index: Int) -> Bool { words[index].end - words[index].start == 1 && words[index].byteEnd - words[index].byteStart == 1 }
        var merged: [Word] = []
        merged.reserveCapacity(words.count)
        var index = 0
        while index < words.count {
            var last = index
            if isLetter(index), index + 1 < words.count, let joiner = joined[index + 1], joiners.contains(joiner) {
                while last + 1 < words.count, isLetter(last + 1), joined[last + 1] == joiner { last += 1 }
            }
            if last - index >= 2 {
                var word = words[index]
                word.byteEnd = words[last].byteEnd
                word.end = words[last].end
                word.hash = ScreeningWords.hash(bytes[word.byteStart..<word.byteEnd])
                merged.append(word)
                index = last + 1
            } else {
                merged.append(words[index])
                index += 1
            }
        }
        if merged.count != words.count { words = merged }
        joined = []
    }

    private static func isLetter(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }

    /// The letter a leetspeak digit stands for.
    private static func leet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30: 0x6F  // 0 → o
        case 0x31: 0x69  // 1 → i
        case 0x33: 0x65  // 3 → e
        case 0x34: 0x61  // 4 → a
        case 0x35: 0x73  // 5 → s
        case 0x37: 0x74  // 7 → t
        default: nil
        }
    }

    /// The Latin letter a Cyrillic or Greek look-alike stands for ("о" U+043E → "o"), so a word
    /// written with letters from another script to dodge a screen still matches.
    private static func lookAlike(_ value: UInt32) -> UInt8? {
        switch value {
        // Cyrillic
        case 0x0430, 0x0410: 0x61  // а А
        case 0x0412: 0x62  // В
        case 0x0441, 0x0421: 0x63  // с С
        case 0x0501: 0x64  // ԁ
        case 0x0435, 0x0415, 0x0451, 0x0401: 0x65  // е Е ё Ё
        case 0x04BB, 0x041D: 0x68  // һ Н
        case 0x0456, 0x0406: 0x69  // і І
        case 0x0458, 0x0408: 0x6A  // ј Ј
        case 0x041A: 0x6B  // К
        case 0x041C: 0x6D  // М
        case 0x043E, 0x041E: 0x6F  // о О
        case 0x0440, 0x0420: 0x70  // р Р
        case 0x051B: 0x71  // ԛ
        case 0x0455, 0x0405: 0x73  // ѕ Ѕ
        case 0x0422: 0x74  // Т
        case 0x051D: 0x77  // ԝ
        case 0x0445, 0x0425: 0x78  // х Х
        case 0x0443, 0x0423: 0x79  // у У
        // Greek
        case 0x03B1, 0x0391: 0x61  // α Α
        case 0x0392: 0x62  // Β
        case 0x0395: 0x65  // Ε
        case 0x0397: 0x68  // Η
        case 0x03B9, 0x0399: 0x69  // ι Ι
        case 0x03BA, 0x039A: 0x6B  // κ Κ
        case 0x039C: 0x6D  // Μ
        case 0x039D: 0x6E  // Ν
        case 0x03BF, 0x039F: 0x6F  // ο Ο
        case 0x03C1, 0x03A1: 0x70  // ρ Ρ
        case 0x03A4: 0x74  // Τ
        case 0x03C5: 0x75  // υ
        case 0x03BD: 0x76  // ν
        case 0x03C7, 0x03A7: 0x78  // χ Χ
        case 0x03A5: 0x79  // Υ
        case 0x0396: 0x7A  // Ζ
        default: nil
        }
    }

    /// Reads word `index` as `replacement` (a corrected spelling); its place in the message stays.
    mutating func replace(_ index: Int, with replacement: [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: replacement)
        words[index].byteStart = start
        words[index].byteEnd = bytes.count
        words[index].hash = ScreeningWords.hash(replacement)
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
