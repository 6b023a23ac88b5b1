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
        /// ``ScreeningWords/hash(_:)`` of the folded bytes.
        var hash: UInt64
        /// The single scalar between the previous word and this one, or ``ScreeningWords/noJoiner``.
        var joinedBy: UInt32

        /// A single letter after a joiner (".", "-", "_", "*"): part of a word spelled out, maybe.
        var hasSpellingMark: Bool { end - start == 1 && ScreeningWords.isJoiner(joinedBy) }
    }

    private(set) var bytes: [UInt8] = []
    private(set) var words: [Word] = []

    init(_ text: String) {
        var text = text
        let count = text.utf8.count
        // The folder writes straight into the two arrays' storage. Words never outgrow theirs;
        // the bytes can, when a scalar folds longer than it was, and then the folder moves them
        // to a buffer of its own.
        var moved: [UInt8]?
        var words: [Word] = []
        let bytes = [UInt8](unsafeUninitializedCapacity: max(count, 1)) { byteBuffer, byteCount in
            words = [Word](unsafeUninitializedCapacity: WordStore.capacity(count)) { wordBuffer, wordCount in
                var folder = Folder(bytes: byteBuffer.baseAddress!, capacity: byteBuffer.count, sink: WordStore(words: wordBuffer.baseAddress!))
                text.withUTF8 { folder.fold($0) }
                wordCount = folder.sink.count
                byteCount = folder.ownsBytes ? 0 : folder.length
                moved = folder.takeOwnedBytes()
            }
        }
        self.bytes = moved ?? bytes
        self.words = words
        if words.contains(where: \.hasSpellingMark) { joinSpelledLetters() }
    }

    /// Folds `text` as ``init(_:)`` does, handing each word to `sink` as it is finished, and
    /// keeps neither the words nor their bytes (which go to a buffer on the stack when they fit).
    /// Returns false when the sink stopped it.
    static func scan<Output: Sink>(_ text: String, into sink: inout Output) -> Bool {
        var text = text
        return text.withUTF8 { source in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(source.count, 1)) { buffer in
                var folder = Folder(bytes: buffer.baseAddress!, capacity: buffer.count, sink: sink)
                folder.fold(source)
                if folder.ownsBytes { folder.bytes.deallocate() }
                sink = folder.sink
                return !folder.stopped
            }
        }
    }

    /// Where the folder puts each word it finishes.
    protocol Sink {
        /// Takes a finished word, whose folded bytes are `bytes[word.byteStart..<word.byteEnd]`
        /// (valid only during the call); false stops the fold.
        mutating func take(_ word: Word, in bytes: UnsafeMutablePointer<UInt8>) -> Bool
    }

    /// The sink of ``init(_:)``: the words, in storage that is always large enough.
    private struct WordStore: Sink {
        let words: UnsafeMutablePointer<Word>
        var count = 0

        /// Two words have a scalar between them, so a source of n bytes has at most n / 2 + 1.
        static func capacity(_ sourceBytes: Int) -> Int { sourceBytes / 2 + 1 }

        @inline(__always) mutating func take(_ word: Word, in bytes: UnsafeMutablePointer<UInt8>) -> Bool {
            (words + count).initialize(to: word)
            count += 1
            return true
        }
    }

    /// The folding loop and its state. Runs of ASCII letters and digits are folded in a tight
    /// loop straight into the buffer; other scalars below ``Fold/tableLimit`` through a table
    /// built once; the rest through ``Fold/fold(_:)``. The folded bytes go into a buffer given
    /// to it (moved to one of its own if they outgrow it) and each word to its ``Sink``, so the
    /// loop checks no array's uniqueness or capacity per word, and its counters stay in
    /// registers. (A struct with mutating methods, not closures over local variables, so that
    /// exclusive access is checked when compiling.)
    private struct Folder<Output: Sink> {
        /// The folded bytes: the first `length` are written; the rest is room, always at least
        /// as much as the source has bytes left, since an ASCII byte folds to at most one.
        var bytes: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var length = 0
        /// Whether `bytes` has outgrown the buffer it was given, and is the folder's own.
        var ownsBytes = false
        /// Where the words go, and whether it has stopped the fold.
        var sink: Output
        var stopped = false
        // The word under way: whether there is one, where it starts (scalars, bytes), whether it
        // has a digit, and where it ends so far.
        var inWord = false
        var wordStart = 0, byteStart = 0, wordEnd = 0
        var hasDigit = false
        /// The end of the last word, and the scalar that last ended a word or stood alone.
        var lastEnd = -2
        var separator: UInt32 = 0
        /// Unicode-scalar offset in the message.
        var offset = 0

        init(bytes: UnsafeMutablePointer<UInt8>, capacity: Int, sink: Output) {
            self.bytes = bytes
            self.capacity = capacity
            self.sink = sink
        }

        /// The folded bytes when they outgrew the buffer given; that buffer is then unused.
        func takeOwnedBytes() -> [UInt8]? {
            guard ownsBytes else { return nil }
            defer { bytes.deallocate() }
            return Array(UnsafeBufferPointer(start: bytes, count: length))
        }

        /// Starts a word at the scalar at `start`.
        @inline(__always) mutating func startWord(at start: Int) {
            inWord = true
            wordStart = start
            byteStart = length
            hasDigit = false
        }

        mutating func flush(_ scalar: UInt32) {
            if inWord {
                let joinedBy = wordStart == lastEnd + 1 ? separator : noJoiner
                var word = Word(byteStart: byteStart, byteEnd: length, start: wordStart, end: wordEnd,
                                hash: ScreeningWords.hash(UnsafeRawBufferPointer(start: bytes + byteStart, count: length - byteStart)),
                                joinedBy: joinedBy)
                if hasDigit { foldDigits(&word, in: bytes) }
                if !sink.take(word, in: bytes) { stopped = true }
                lastEnd = wordEnd
                inWord = false
            }
            separator = scalar
        }

        /// Appends the folded letters of the scalar just read, which ends at offset - 1.
        mutating func appendLetters(_ folded: UnsafeBufferPointer<UInt8>, remaining: Int) {
            if !inWord { startWord(at: offset - 1) }
            // Keep room for the rest of the source: a scalar may fold to more bytes than it had.
            let needed = length + folded.count + remaining
            if needed > capacity {
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: needed)
                grown.update(from: bytes, count: length)
                if ownsBytes { bytes.deallocate() }
                bytes = grown
                capacity = needed
                ownsBytes = true
            }
            for byte in folded {
                if byte <= 0x39 { hasDigit = true }
                bytes[length] = byte
                length += 1
            }
            wordEnd = offset
        }

        mutating func fold(_ source: UnsafeBufferPointer<UInt8>) {
            // Read only when a scalar needs it: ASCII text never builds the table, which costs
            // about a thousand Foundation foldings.
            var table: Fold.Table?
            var cursor = 0
            let count = source.count
            while cursor < count, !stopped {
                let lead = source[cursor]
                if lead < 0x80 {
                    if asciiWordByte(lead) != nil {
                        if !inWord { startWord(at: offset) }
                        // The whole run of ASCII letters and digits, folded as it is copied.
                        let out = bytes
                        var end = cursor, written = length, lowest = lead
                        // Eight bytes at a time while eight are left: there is then room to
                        // write eight, and the bytes past the run are room again.
                        var ended = false
                        while end + 8 <= count {
                            let chunk = UInt64(littleEndian: UnsafeRawPointer(source.baseAddress! + end).loadUnaligned(as: UInt64.self))
                            let lanes = AsciiLanes(chunk)
                            UnsafeMutableRawPointer(out + written).storeBytes(of: lanes.folded.littleEndian, as: UInt64.self)
                            let run = lanes.run
                            if lanes.hasDigit(before: run) { lowest = 0x30 }
                            written += run
                            end += run
                            if run < 8 {
                                ended = true
                                break
                            }
                        }
                        while !ended, end < count, let folded = asciiWordByte(source[end]) {
                            out[written] = folded
                            lowest = min(lowest, folded)
                            written += 1
                            end += 1
                        }
                        if lowest <= 0x39 { hasDigit = true }
                        length = written
                        offset += end - cursor
                        cursor = end
                        wordEnd = offset
                        continue
                    }
                    // An apostrophe joins a word ("can't" → "cant"); other ASCII ends it.
                    if lead != 0x27 || !inWord { flush(UInt32(lead)) }
                    cursor += 1
                    offset += 1
                    continue
                }
                // Decode one scalar of valid UTF-8 (a `String`'s bytes always are).
                let scalarLength = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                var value = UInt32(lead) & (scalarLength == 2 ? 0x1F : scalarLength == 3 ? 0x0F : 0x07)
                for index in 1..<scalarLength { value = value << 6 | UInt32(source[cursor + index] & 0x3F) }
                cursor += scalarLength
                offset += 1
                let kind: Fold.Kind
                if value < Fold.tableLimit {
                    let loaded = table ?? Fold.table
                    table = loaded
                    let entry = loaded.entries[Int(value) - 0x80]
                    kind = entry.kind
                    if kind == .letters {
                        loaded.letters.withUnsafeBufferPointer { letters in
                            appendLetters(UnsafeBufferPointer(rebasing: letters[Int(entry.start)..<Int(entry.start + entry.count)]),
                                          remaining: count - cursor)
                        }
                        continue
                    }
                } else {
                    let action = Fold.fold(Unicode.Scalar(value) ?? " ")
                    if case .letters(let folded) = action {
                        folded.withUnsafeBufferPointer { appendLetters($0, remaining: count - cursor) }
                        continue
                    }
                    kind = action.kind
                }
                switch kind {
                case .apostrophe: if !inWord { flush(value) }
                case .ignore: continue  // a combining accent or an invisible character: dropped, and the word goes on
                case .separator, .letters: flush(value)
                }
            }
            if !stopped { flush(0) }
        }
    }

    /// Eight bytes classified at once (SWAR): which are ASCII letters or digits, and the bytes
    /// folded. Each test is a range check on the lanes whose top bit is clear: adding 0x80 − lo
    /// sets a lane's top bit exactly when it is at least lo, without carrying into the next lane.
    /// A byte of 0x80 or more is neither, and may carry into the lanes after it, which are past
    /// the run and so never read.
    struct AsciiLanes {
        private static let ones: UInt64 = 0x0101_0101_0101_0101
        private static let tops: UInt64 = 0x8080_8080_8080_8080
        /// The top bit of each lane that is a letter, and of each that is a digit.
        let letters: UInt64
        let digits: UInt64
        /// The bytes with letters lower-cased.
        let folded: UInt64

        @inline(__always) init(_ chunk: UInt64) {
            let ascii = ~chunk & Self.tops
            let lower = chunk | Self.ones &* 0x20
            letters = (lower &+ Self.ones &* (0x80 - 0x61)) & ~(lower &+ Self.ones &* (0x7F - 0x7A)) & ascii
            digits = (chunk &+ Self.ones &* (0x80 - 0x30)) & ~(chunk &+ Self.ones &* (0x7F - 0x39)) & ascii
            folded = chunk | letters >> 2
        }

        /// How many lanes, from the first, are letters or digits: 0 to 8.
        @inline(__always) var run: Int { (~(letters | digits) & Self.tops).trailingZeroBitCount >> 3 }

        /// Whether one of the first `run` lanes is a digit.
        @inline(__always) func hasDigit(before run: Int) -> Bool {
            run == 8 ? digits != 0 : digits & ((1 << UInt64(run * 8)) - 1) != 0
        }
    }

    /// A folded ASCII letter or digit, or nil for any other byte.
    @inline(__always) private static func asciiWordByte(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x41...0x5A: byte | 0x20
        case 0x61...0x7A, 0x30...0x39: byte
        default: nil
        }
    }

    /// The ``Word/joinedBy`` of a word with no single separator before it.
    static let noJoiner = UInt32.max

    @inline(__always) private static func isJoiner(_ scalar: UInt32) -> Bool {
        scalar == 0x2E || scalar == 0x2D || scalar == 0x5F || scalar == 0x2A
    }

    /// What folding does with a scalar outside ASCII.
    enum Fold: Equatable, Sendable {
        /// Its folded letters or digits, as UTF-8.
        case letters([UInt8])
        /// Curly and modifier apostrophes join a word, as "'" does.
        case apostrophe
        /// Combining marks and invisible format characters are dropped inside a word.
        case ignore
        /// Anything else ends a word.
        case separator

        /// The action without its letters.
        enum Kind: UInt8, Sendable { case letters, apostrophe, ignore, separator }

        var kind: Kind {
            switch self {
            case .letters: .letters
            case .apostrophe: .apostrophe
            case .ignore: .ignore
            case .separator: .separator
            }
        }

        /// Scalars below this (Latin, IPA, combining marks, Greek, Cyrillic, Armenian) are
        /// folded once, into a table; the rest as they come.
        static let tableLimit: UInt32 = 0x600
        /// The folding of each scalar from U+0080 to ``tableLimit``, with the letters of all of
        /// them in one array, so that reading an entry copies no array.
        struct Table: Sendable {
            struct Entry: Sendable {
                var kind: Kind
                /// For letters, where they are in ``Table/letters``.
                var start: Int32
                var count: Int32
            }
            var entries: [Entry] = []
            var letters: [UInt8] = []
        }
        static let table = (0x80..<tableLimit).reduce(into: Table()) { table, value in
            let action = fold(Unicode.Scalar(value) ?? " ")
            if case .letters(let folded) = action {
                table.entries.append(Table.Entry(kind: .letters, start: Int32(table.letters.count), count: Int32(folded.count)))
                table.letters += folded
            } else {
                table.entries.append(Table.Entry(kind: action.kind, start: 0, count: 0))
            }
        }

        /// The folding of one scalar outside ASCII: apostrophes, look-alike letters, then case,
        /// accent and width folding with Foundation.
        static func fold(_ scalar: Unicode.Scalar) -> Fold {
            let value = scalar.value
            if value < 0x80 { return .separator }
            switch value {
            case 0x2019, 0x2018, 0x02BC: return .apostrophe
            default: break
            }
            if let latin = ScreeningWords.lookAlike(value) { return .letters([latin]) }
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: return .ignore
            default: break
            }
            guard properties.isAlphabetic || properties.numericType != nil else { return .separator }
            let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            var bytes: [UInt8] = []
            for part in folded.unicodeScalars where part.properties.isAlphabetic || part.properties.numericType != nil {
                bytes += Array(String(part).utf8)
            }
            return bytes.isEmpty ? .ignore : .letters(bytes)
        }
    }

    /// Leetspeak: in a word that starts with a letter, the digits read as
    /// the letters they stand for ("k1ll" → "kill", "my53lf" → "myself", "t0" → "to"). Words that
    /// start with a digit ("40mg", "3am") keep theirs; keywords are folded the same way, so "b12"
    /// still matches "b12".
    private static func foldDigits(_ word: inout Word, in bytes: UnsafeMutablePointer<UInt8>) {
        guard isLetter(bytes[word.byteStart]) else { return }
        var letters = 0, digits = 0
        for cursor in word.byteStart..<word.byteEnd {
            if isLetter(bytes[cursor]) { letters += 1 } else if leet(bytes[cursor]) != nil { digits += 1 }
        }
        guard digits > 0, letters >= 1, word.byteEnd - word.byteStart >= 2 else { return }
        for cursor in word.byteStart..<word.byteEnd {
            if let letter = leet(bytes[cursor]) { bytes[cursor] = letter }
        }
        word.hash = hash(UnsafeRawBufferPointer(start: bytes + word.byteStart, count: word.byteEnd - word.byteStart))
    }

    /// Letters spelled out with one dot, hyphen, underscore or asterisk between them, three or
    /// more ("a.d.h.d", "s-u-i-c-i-d-e"), are read as one word.
    private mutating func joinSpelledLetters() {
        func isLetter(_ index: Int) -> Bool { words[index].end - words[index].start == 1 && words[index].byteEnd - words[index].byteStart == 1 }
        var merged: [Word] = []
        merged.reserveCapacity(words.count)
        var index = 0
        while index < words.count {
            var last = index
            if isLetter(index), index + 1 < words.count, case let joiner = words[index + 1].joinedBy, ScreeningWords.isJoiner(joiner) {
                while last + 1 < words.count, isLetter(last + 1), words[last + 1].joinedBy == joiner { last += 1 }
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
    static func lookAlike(_ value: UInt32) -> UInt8? {
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

    /// The hash of a folded word, taking its bytes eight at a time: most words are one or two
    /// multiplications, where a byte-at-a-time hash would be a chain of one per letter. Words,
    /// keywords, stems and lexicon entries are all hashed by this one function, and every
    /// match then compares the bytes, so a collision costs a comparison, never a wrong flag.
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { hash($0) }
    }

    static func hash(_ bytes: [UInt8]) -> UInt64 { hash(bytes[...]) }

    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        let count = bytes.count
        var hash = UInt64(truncatingIfNeeded: count) &* multiplier
        var cursor = 0
        while cursor + 8 <= count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: cursor, as: UInt64.self)) &* multiplier
            hash ^= hash >> 29
            cursor += 8
        }
        // The last one to seven bytes, read as at most two overlapping loads; with the length
        // in the seed, the result still depends on every byte and on nothing else.
        let rest = count - cursor
        if rest >= 4 {
            let low = UInt64(bytes.loadUnaligned(fromByteOffset: cursor, as: UInt32.self))
            let high = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            hash = (hash ^ (low | high << 32)) &* multiplier
        } else if rest > 0 {
            let tail = UInt64(bytes[cursor]) | UInt64(bytes[cursor + rest / 2]) << 8 | UInt64(bytes[count - 1]) << 16
            hash = (hash ^ tail) &* multiplier
        }
        hash ^= hash >> 32
        hash = hash &* 0xD6E8_FEB8_6659_FD93
        return hash ^ (hash >> 32)
    }
}
