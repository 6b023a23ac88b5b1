@testable import CoachLab
import Foundation
import Testing

/// Stage 1's fast paths give exactly what the plain implementations they replaced gave: the
/// folding (a byte loop with a table for non-ASCII scalars, against a loop over scalars with
/// Foundation folding for each), the stem rule (the last letters read directly, against a
/// suffix table), and typo correction (polynomial deletion hashes, against a scan of the whole
/// vocabulary). Each reference is written plainly here, and each is run on the labelled sets,
/// their red-team rewrites and random text from many scripts.
@Suite struct ScreeningFastPathTests {
    // MARK: Folding

    /// The folding as it was written before the byte loop: one scalar at a time.
    static func referenceWords(_ text: String) -> [TextNormalizer.Word] {
        var words: [(text: [UInt8], start: Int, end: Int, joinedBy: UInt32?)] = []
        var current: [UInt8] = []
        var wordStart = -1, lastEnd = 0, offset = 0
        var separator: UInt32 = 0
        var joinedBy: UInt32?
        func append(_ bytes: [UInt8]) {
            if wordStart < 0 {
                joinedBy = offset == lastEnd + 1 && !words.isEmpty ? separator : nil
                wordStart = offset
                current = []
            }
            current += bytes
            lastEnd = offset + 1
        }
        func flush(_ scalar: UInt32) {
            if wordStart >= 0 {
                // Leetspeak digits inside a word that starts with a letter read as letters.
                let leet: [UInt8: UInt8] = [0x30: 0x6F, 0x31: 0x69, 0x33: 0x65, 0x34: 0x61, 0x35: 0x73, 0x37: 0x74]
                let isLetter = { (byte: UInt8) in byte >= 0x61 && byte <= 0x7A }
                if isLetter(current[0]), current.count >= 2, current.contains(where: { leet[$0] != nil }) {
                    current = current.map { leet[$0] ?? $0 }
                }
                words.append((current, wordStart, lastEnd, joinedBy))
            }
            wordStart = -1
            separator = scalar
        }
        for scalar in text.unicodeScalars {
            defer { offset += 1 }
            let value = scalar.value
            switch value {
            case 0x41...0x5A: append([UInt8(value + 32)])
            case 0x61...0x7A, 0x30...0x39: append([UInt8(value)])
            case 0x27, 0x2019, 0x2018, 0x02BC: if wordStart < 0 { flush(value) }
            case 0..<0x80: flush(value)
            default:
                if let latin = ScreeningWords.lookAlike(value) {
                    append([latin])
                    continue
                }
                let properties = scalar.properties
                if [.nonspacingMark, .enclosingMark, .format].contains(properties.generalCategory) { continue }
                guard properties.isAlphabetic || properties.numericType != nil else {
                    flush(value)
                    continue
                }
                let folded = String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                for part in folded.unicodeScalars where part.properties.isAlphabetic || part.properties.numericType != nil {
                    append(Array(String(part).utf8))
                }
            }
        }
        flush(0)
        // Three or more single letters joined by the same one of . - _ * read as one word.
        var merged: [TextNormalizer.Word] = []
        var index = 0
        func isLetter(_ index: Int) -> Bool { words[index].end - words[index].start == 1 && words[index].text.count == 1 }
        while index < words.count {
            var last = index
            if isLetter(index), index + 1 < words.count, let joiner = words[index + 1].joinedBy, [0x2E, 0x2D, 0x5F, 0x2A].contains(joiner) {
                while last + 1 < words.count, isLetter(last + 1), words[last + 1].joinedBy == joiner { last += 1 }
            }
            if last - index < 2 { last = index }
            merged.append(TextNormalizer.Word(text: String(decoding: words[index...last].flatMap(\.text), as: UTF8.self),
                                              start: words[index].start, end: words[last].end))
            index = last + 1
        }
        return merged
    }

    /// The labelled sets, every red-team rewrite of them, and random text over many scripts.
    static func corpus() throws -> [String] {
        var messages = try ScreenerEquivalenceTests.messages()
        messages += messages.flatMap { message in Perturbation.allCases.flatMap { $0.variants(of: message) } }
        var generator = SeededGenerator(seed: 11)
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0x80...0x24F, 0x250...0x36F, 0x370...0x4FF, 0x500...0x6FF, 0x1E00...0x1EFF,
                                             0x2000...0x206F, 0x3040...0x30FF, 0xFB00...0xFB4F, 0xFDF0...0xFDFF, 0xFF00...0xFF5E,
                                             0x1D400...0x1D4FF, 0x1F600...0x1F64F]
        let pieces = ["kill myself", "a.d.h.d", "s-u-i-c-i-d-e", "40mg", "k1ll", "ÉCOLE", "e\u{301}cole", "don’t", "'", " ", ".", "-"]
        for _ in 0..<4000 {
            var message = ""
            for _ in 0..<Int.random(in: 1...30, using: &generator) {
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    message += pieces.randomElement(using: &generator)!
                } else if let scalar = Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &generator)!, using: &generator)) {
                    message.unicodeScalars.append(scalar)
                }
            }
            messages.append(message)
        }
        return messages
    }

    @Test func foldingMatchesTheScalarLoop() throws {
        let corpus = try Self.corpus()
        #expect(corpus.count > 5000)
        var nonASCII = 0
        for message in corpus {
            let folded = ScreeningWords(message)
            let words = folded.words.indices.map { TextNormalizer.Word(text: folded.text($0), start: folded.words[$0].start,
                                                                     end: folded.words[$0].end) }
            #expect(words == Self.referenceWords(message), "\(message.debugDescription)")
            for (index, word) in folded.words.enumerated() {
                #expect(word.hash == ScreeningWords.hash(Array(folded.text(index).utf8)), "\(message.debugDescription)")
            }
            if message.utf8.contains(where: { $0 >= 0x80 }) { nonASCII += 1 }
        }
        #expect(nonASCII > 4000)  // the table and the slow path are both exercised
    }

    @Test func theQuietPathFlagsExactlyWhatTheFullScreenFlags() throws {
        // A message is screened in full only when one of its words may start a phrase, would be
        // corrected, or is spelled out; anything the quick look waves through must be a message
        // the full screen flags nothing in (patterns aside, which both run).
        // Every fourth message of the corpus (all of it takes 40 s in a debug build).
        let corpus = try Self.corpus().enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        var flagged = 0, screened = 0
        for app in ["betterone", "ticbuddy", "luna", "healthwallet", "kindred"] {
            let pack = try TestSupport.pack(app)
            for typos in [true, false] {
                let screener = Screener(rules: pack.rules, lexicons: pack.lexicons, typos: typos)
                for message in corpus {
                    let full = screener.screenInFull(message)
                    #expect(screener.screen(message) == full, "\(app) typos: \(typos) \(message.debugDescription)")
                    if full.isFlagged { flagged += 1 }
                    screened += 1
                }
            }
        }
        // Both kinds of message are there in numbers.
        #expect(flagged > 500)
        #expect(screened - flagged > 5000)
    }

    @Test func eightBytesAtOnceClassifyAsOneAtATime() {
        // Letters, digits, the bytes next to their ranges, and bytes of 0x80 and up, which may
        // carry into the lanes after them: only the lanes before the first other byte count.
        let pool: [UInt8] = Array(0x2F...0x3A) + Array(0x40...0x5B) + Array(0x60...0x7B) + [0x20, 0x27, 0x2D, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        var generator = SeededGenerator(seed: 8)
        func isWordByte(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        for _ in 0..<50_000 {
            let bytes = (0..<8).map { _ in pool.randomElement(using: &generator)! }
            let lanes = ScreeningWords.AsciiLanes(bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64($1.offset * 8) })
            let run = bytes.firstIndex { !isWordByte($0) } ?? 8
            #expect(lanes.run == run, "\(bytes)")
            #expect(lanes.hasDigit(before: lanes.run) == bytes.prefix(run).contains { (0x30...0x39).contains($0) }, "\(bytes)")
            for lane in 0..<run {
                let byte = bytes[lane]
                let folded = UInt8(truncatingIfNeeded: lanes.folded >> UInt64(lane * 8))
                #expect(folded == ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte), "\(bytes)")
            }
        }
    }

    @Test func aWordThatStartsOutsideASCIIKeepsItsFirstScalarInItsSpan() {
        // "ѕ" is Cyrillic: the span must start at it, not at the Latin letter after it.
        let words = TextNormalizer.words("Im ѕuісіdаl now")
        #expect(words.map(\.text) == ["im", "suicidal", "now"])
        #expect(words[1].start == 3)
        #expect(words[1].end == 11)
    }

    @Test func aScalarThatFoldsLongerThanItWasStillFits() {
        // U+FDFA folds to eighteen letters from three bytes of UTF-8; the buffer must grow.
        let message = String(repeating: "\u{FDFA}", count: 5) + " abc"
        #expect(TextNormalizer.words(message) == Self.referenceWords(message))
    }

    @Test func wordHashesDependOnEveryByteAndTheLength() {
        var seen: [UInt64: String] = [:]
        var generator = SeededGenerator(seed: 3)
        for length in 0...24 {
            for _ in 0..<400 {
                let word = String((0..<length).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &generator)! })
                let hash = ScreeningWords.hash(Array(word.utf8))
                if let other = seen[hash] { #expect(other == word, "\(word) and \(other) share a hash") }
                seen[hash] = word
            }
        }
        #expect(seen.count > 9000)
    }

    // MARK: Stems

    /// The stem rule as a table of suffixes tried in order.
    static func referenceStemLength(_ word: [UInt8]) -> Int {
        let count = word.count
        guard count > 3, word.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return count }
        for suffix in ["ies", "ied", "ing", "ed", "es", "is", "s", "e", "y"].map({ Array($0.utf8) })
        where count - suffix.count >= 3 && word.suffix(suffix.count).elementsEqual(suffix) {
            if suffix == [0x73], let before = word.dropLast().last, [0x73, 0x75, 0x69].contains(before) { continue }
            var length = count - suffix.count
            if suffix == Array("ing".utf8) || suffix == Array("ed".utf8) {
                let last = word[length - 1], previous = word[length - 2]
                if last == previous, length > 3, !"aeioulsz".utf8.contains(last) { length -= 1 }
            }
            return length
        }
        return count
    }

    @Test func stemsMatchTheSuffixTable() {
        var generator = SeededGenerator(seed: 9)
        let endings = ["ies", "ied", "ing", "ed", "es", "is", "s", "e", "y", "ss", "us", "tting", "lled", "zzed", "ped", "", "x"]
        var words = ["diagnosed", "diagnosis", "cutting", "stopped", "killing", "stress", "status", "this", "worried", "pills",
                     "flies", "ties", "tying", "abcd", "ab", "", "a1ing", "éing"]
        for _ in 0..<20_000 {
            let stem = String((0..<Int.random(in: 0...6, using: &generator)).map { _ in "abcdeilnstuyz".randomElement(using: &generator)! })
            words.append(stem + endings.randomElement(using: &generator)!)
        }
        for word in words {
            let bytes = Array(word.utf8)
            #expect(Inflection.stemLength(bytes[...]) == Self.referenceStemLength(bytes), "\(word)")
        }
    }

    // MARK: Typo correction

    /// Typo correction as a scan of the whole vocabulary, entries in the order they were added.
    struct ReferenceSpeller {
        var entries: [(bytes: [UInt8], word: Bool, stem: Bool)] = []

        mutating func add(_ text: String, stem: Bool) {
            let bytes = Array(text.utf8)
            guard bytes.count >= (stem ? Speller.minimumLength - 1 : Speller.minimumLength), bytes.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A })
            else { return }
            if let known = entries.firstIndex(where: { $0.bytes == bytes }) {
                if stem { entries[known].stem = true } else { entries[known].word = true }
                return
            }
            entries.append((bytes, !stem, stem))
        }

        func correct(_ word: [UInt8]) -> [UInt8] {
            guard word.count >= Speller.minimumLength, !entries.contains(where: { $0.bytes == word }),
                  word.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return word }
            let stem = Inflection.stemLength(word[...])
            if stem < word.count, entries.contains(where: { $0.stem && $0.bytes.elementsEqual(word.prefix(stem)) }) { return word }
            let ownStem = word.prefix(stem)
            if let entry = entries.first(where: { entry in
                entry.word && entry.bytes[0] == word[0]
                    && Speller.oneEditApart(word[...], entry.bytes[...], substitution: word.count >= Speller.substitutionLength)
                    && !entry.bytes.prefix(Inflection.stemLength(entry.bytes[...])).elementsEqual(ownStem)
            }) {
                return entry.bytes
            }
            if stem < word.count, stem >= Speller.minimumLength - 1, let entry = entries.first(where: { entry in
                entry.stem && entry.bytes[0] == word[0]
                    && Speller.oneEditApart(word.prefix(stem), entry.bytes[...], substitution: stem >= Speller.substitutionLength)
            }) {
                return entry.bytes + word.dropFirst(stem)
            }
            return word
        }
    }

    @Test func everyWordOneEditFromAnEntryPassesTheAffixFilter() {
        // The filter may only ever say no to a word no entry is one edit from: every slip of
        // every kind at every place in random entries must pass it.
        var generator = SeededGenerator(seed: 13)
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        var checked = 0
        for _ in 0..<400 {
            let entry = (0..<Int.random(in: 4...10, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            var affixes = Speller.Affixes()
            affixes.add(entry[...])
            var slips: [[UInt8]] = []
            for position in 1...entry.count {
                for letter in letters {
                    var added = entry
                    added.insert(letter, at: position)
                    slips.append(added)
                    if position < entry.count {
                        var changed = entry
                        changed[position] = letter
                        slips.append(changed)
                    }
                }
                if position < entry.count {
                    var dropped = entry
                    dropped.remove(at: position)
                    slips.append(dropped)
                }
                if position + 1 < entry.count {
                    var swapped = entry
                    swapped.swapAt(position, position + 1)
                    slips.append(swapped)
                }
            }
            for slip in slips where slip.count >= Speller.minimumLength - 1 && Speller.oneEditApart(slip[...], entry[...]) {
                // Four-letter words reach the speller only as stems, where no letter is changed.
                if slip.count < Speller.minimumLength, slip.count == entry.count, zip(slip, entry).filter({ $0 != $1 }).count == 1 { continue }
                #expect(affixes.mayBeOneEditFromAnEntry(slip[...]), "\(String(decoding: slip, as: UTF8.self)) from \(String(decoding: entry, as: UTF8.self))")
                checked += 1
            }
        }
        #expect(checked > 50_000)
        var affixes = Speller.Affixes()
        affixes.add(Array("suicide".utf8)[...])
        #expect(!affixes.mayBeOneEditFromAnEntry(Array("sandwich".utf8)[...]))
        #expect(!affixes.mayBeOneEditFromAnEntry(Array("sunrise".utf8)[...]))  // its first and last letters are not enough
        #expect(affixes.mayBeOneEditFromAnEntry(Array("siucide".utf8)[...]))
    }

    @Test func typoCorrectionMatchesAScanOfTheVocabulary() throws {
        var speller = Speller()
        var reference = ReferenceSpeller()
        var vocabulary: [String] = []
        for app in ["betterone", "ticbuddy", "luna", "healthwallet", "kindred"] {
            let pack = try TestSupport.pack(app)
            for rule in pack.rules { for keyword in rule.guardrail?.keywords ?? [] { vocabulary += TextNormalizer.tokens(keyword.value) } }
            for lexicon in pack.lexicons { for entry in lexicon.entries { vocabulary += TextNormalizer.tokens(entry.value) } }
        }
        for (index, word) in vocabulary.enumerated() {
            let stem = index % 3 == 0
            let text = stem ? Inflection.stem(word) : word
            speller.add(text, stem: stem)
            reference.add(text, stem: stem)
        }
        speller.seal()
        #expect(reference.entries.count > 300)

        // Every kind of one-letter slip on vocabulary words, inflected forms, and ordinary words.
        var generator = SeededGenerator(seed: 21)
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        var words: [[UInt8]] = []
        for entry in reference.entries {
            var bytes = entry.bytes
            words.append(bytes)
            for _ in 0..<6 {
                var slip = bytes
                let position = Int.random(in: 0..<slip.count, using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: slip.remove(at: position)
                case 1: slip.insert(letters.randomElement(using: &generator)!, at: position)
                case 2: slip[position] = letters.randomElement(using: &generator)!
                default: if position + 1 < slip.count { slip.swapAt(position, position + 1) }
                }
                words.append(slip)
                words.append(slip + Array(["ed", "ing", "s", "es"].randomElement(using: &generator)!.utf8))
            }
            bytes += Array("ing".utf8)
            words.append(bytes)
        }
        words += ["because", "putting", "feels", "focus", "today", "billing", "stick", "thnik", "myslef"].map { Array($0.utf8) }

        var corrected = 0
        for chunk in stride(from: 0, to: words.count, by: 40).map({ words[$0..<min($0 + 40, words.count)] }) {
            let message = chunk.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
            var text = ScreeningWords(message)
            speller.correct(&text)
            let expected = text.words.indices.map { index -> String in
                String(decoding: reference.correct(Array(TextNormalizer.words(message)[index].text.utf8)), as: UTF8.self)
            }
            let got = text.words.indices.map { text.text($0) }
            #expect(got == expected)
            corrected += zip(got, TextNormalizer.words(message).map(\.text)).filter { $0 != $1 }.count
        }
        // The comparison means something only if many words were corrected and many were not.
        #expect(corrected > 500)
        #expect(corrected < words.count / 2)
    }
}
