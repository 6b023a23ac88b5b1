/// Typo tolerance for stage 1: a message word of five or more letters that is not one of the
/// screen's words, but is one edit away from one (a letter swapped with its neighbour, doubled,
/// dropped, or in words of six or more letters mistyped: "myslef", "suiccide", "overdse",
/// "thnik"), is read as that word. Stems of inflected tokens are corrected the same way
/// ("diagnsoed" reads as "diagnosed").
///
/// Only words of the screen's own vocabulary are candidates, the first letter must agree (few
/// typos touch it, and it keeps "billing" from reading as "killing"), and a word that is itself
/// in the vocabulary is never changed. Look-up is by hashed deletions (each vocabulary word is
/// indexed under every one-letter deletion of it), so a message word costs a few hash probes,
/// not a scan of the vocabulary. Those hashes are polynomial (``DeletionHashes``), so all the
/// deletions of a word are hashed in time linear in its length.
struct Speller: Sendable {
    /// The shortest word that is corrected; shorter words have too many real neighbours.
    static let minimumLength = 5
    /// The shortest word in which a mistyped letter is corrected; "stick" is not "stock".
    static let substitutionLength = 6

    private var entries: [[UInt8]] = []
    /// The length of each entry's stem (``Inflection/stemLength(_:)``).
    private var stemLengths: [Int] = []
    /// Which words may be one edit from an entry, asked before any look-up.
    private var neighbourhood = Neighbourhood()
    /// While the vocabulary is added: each entry by its hash, and under each of its deletions.
    private var building: [UInt64: Int] = [:]
    private var buildingDeletions: [(key: UInt64, value: Int)] = []
    /// Once sealed, the same as flat hash tables: by ``ScreeningWords/hash(_:)``, as words are, by the
    /// polynomial hash, and each entry under the polynomial hash of each of its deletions.
    private var exact = HashIndex<Int>()
    private var exactPolynomial = HashIndex<Int>()
    private var deletions = HashIndex<Int>()
    /// Every key of `exactPolynomial` and `deletions`, asked first: most words of a message are
    /// no typo, and their deletions are in neither table.
    private var polynomialFilter = HashFilter()
    /// Whether an entry is a whole word of the screen, and whether it is a stem of one.
    private var asWord: [Bool] = []
    private var asStem: [Bool] = []

    var isEmpty: Bool { entries.isEmpty }

    /// Adds a whole word, or a stem, to the vocabulary.
    mutating func add(_ text: String, stem: Bool) {
        let bytes = Array(text.utf8)
        guard bytes.count >= (stem ? Self.minimumLength - 1 : Self.minimumLength), bytes.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A })
        else { return }
        let hash = ScreeningWords.hash(bytes)
        if let known = building[hash], entries[known] == bytes {
            if stem { asStem[known] = true } else { asWord[known] = true }
            return
        }
        let index = entries.count
        entries.append(bytes)
        stemLengths.append(Inflection.stemLength(bytes[...]))
        asWord.append(!stem)
        asStem.append(stem)
        building[hash] = index
        for deletion in DeletionHashes(bytes[...]) { buildingDeletions.append((deletion, index)) }
        neighbourhood.add(bytes[...])
    }

    /// Builds the look-up tables once every word is added.
    mutating func seal() {
        exact = HashIndex(building.map { ($0.key, $0.value) })
        let wholes = entries.indices.map { (key: DeletionHashes.whole(entries[$0][...]), value: $0) }
        exactPolynomial = HashIndex(wholes)
        deletions = HashIndex(buildingDeletions)
        polynomialFilter = HashFilter(wholes.map(\.key) + buildingDeletions.map(\.key))
        building = [:]
        buildingDeletions = []
    }

    /// Replaces each misspelt word of `text` by the vocabulary word it stands for.
    func correct(_ text: inout ScreeningWords) {
        for index in text.words.indices {
            let word = text.words[index]
            guard word.byteEnd - word.byteStart >= Self.minimumLength,
                  let fix = text.bytes.withUnsafeBufferPointer({ correction(of: UnsafeBufferPointer(rebasing: $0[word.byteStart..<word.byteEnd]), hash: word.hash) })
            else { continue }
            switch fix {
            case .word(let entry): text.replace(index, with: entries[entry])
            case .stem(let entry, let stem): text.replace(index, with: entries[entry] + text.bytes[(word.byteStart + stem)..<word.byteEnd])
            }
        }
    }

    /// How ``correct(_:)`` reads a misspelt word.
    enum Correction: Equatable {
        /// As the entry at this index.
        case word(Int)
        /// Its first `stem` letters as the entry at this index, and the rest as they are.
        case stem(Int, stem: Int)
    }

    /// How ``correct(_:)`` reads the folded word `word`, whose ``ScreeningWords/hash(_:)`` is
    /// `hash`; nil when it leaves it as it is.
    /// (The tests that rule out most words are inlined where it is asked; the search is not.)
    @inline(__always) func correction(of word: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Correction? {
        let length = word.count
        guard length >= Self.minimumLength, exact.find(hash) == nil else { return nil }
        for byte in word where byte < 0x61 || byte > 0x7A { return nil }
        let stem = Inflection.stemLength(word)
        // Most words are near no entry, nor is their stem: nothing to correct or to look up.
        let stemMayBeNear = stem < length && stem >= Self.minimumLength - 1 && neighbourhood.mayBeNear(word[..<stem])
        guard stemMayBeNear || neighbourhood.mayBeNear(word) else { return nil }
        return search(word, stem: stem, stemMayBeNear: stemMayBeNear)
    }

    /// The rest of ``correction(of:hash:)``, for a word near an entry.
    private func search(_ word: UnsafeBufferPointer<UInt8>, stem: Int, stemMayBeNear: Bool) -> Correction? {
        let length = word.count
        let stemmed = UnsafeBufferPointer(rebasing: word[..<stem])
        if stem < length, let known = exact.find(ScreeningWords.hash(UnsafeRawBufferPointer(stemmed))),
           known.contains(where: { asStem[exact.values[$0]] }) {
            return nil  // an inflection of a stem the screen knows
        }
        if let fixed = candidate(for: word, stems: false) { return .word(fixed) }
        if stemMayBeNear, let fixed = candidate(for: stemmed, stems: true) { return .stem(fixed, stem: stem) }
        return nil
    }

    /// The first vocabulary entry one edit from `word`, with the same first letter.
    private func candidate(for word: UnsafeBufferPointer<UInt8>, stems: Bool) -> Int? {
        let first = word[0]
        guard neighbourhood.mayBeNear(word) else { return nil }
        var best: Int?
        let stem = word[..<Inflection.stemLength(word)]
        func check(_ index: Int) {
            guard stems ? asStem[index] : asWord[index], best.map({ index < $0 }) ?? true, entries[index][0] == first,
                  Self.oneEditApart(word, entries[index], substitution: word.count >= Self.substitutionLength) else { return }
            // "diagnosed" is not a typo of the keyword "diagnose" but another form of it: a
            // keyword is exact, and only `~` or an inflected lexicon matches its forms.
            if !stems, entries[index].prefix(stemLengths[index]).elementsEqual(stem) { return }
            best = index
        }
        // A letter dropped: the word is one of an entry's deletions.
        let whole = DeletionHashes.whole(word)
        if polynomialFilter.mayContain(whole), let found = deletions.find(whole) { for slot in found { check(deletions.values[slot]) } }
        for shorter in DeletionHashes(word) where polynomialFilter.mayContain(shorter) {
            // A letter added or doubled: a deletion of the word is an entry.
            if let found = exactPolynomial.find(shorter) { for slot in found { check(exactPolynomial.values[slot]) } }
            // A letter mistyped, or two swapped: the word and an entry share a deletion.
            if let found = deletions.find(shorter) { for slot in found { check(deletions.values[slot]) } }
        }
        return best
    }

    /// What one edit leaves of a word, as bits: most words of a message share neither their
    /// first three letters nor their ends with any entry, and so are no typo of one, found
    /// without hashing a deletion.
    ///
    /// Why it is enough: let d be the first place where a word of n letters and an entry one
    /// edit apart differ (never 0, since the first letter agrees). The edit can be taken at d,
    /// and everything after it agrees.
    /// - If d ≥ 3, their first three letters agree.
    /// - If d ≤ 2, a letter added, dropped or changed at d leaves the word's n − d − 1 ≥ n − 3
    ///   last letters as they are, and two swapped at d and d + 1 leave n − d − 2 ≥ n − 4.
    ///   - n ≥ 6: the last two letters agree (with the first).
    ///   - n = 5: they do too, except after a swap at 2 and 3, when the first two and the last
    ///     agree.
    ///   - n = 4 (a stem): the first and the last agree at d = 1, the first two at d = 2.
    struct Affixes: Sendable {
        private static let cube = (26 * 26 * 26 + 63) / 64
        private static let square = (26 * 26 + 63) / 64
        private var firstThree = [UInt64](repeating: 0, count: cube)
        private var firstAndLastTwo = [UInt64](repeating: 0, count: cube)
        private var firstTwoAndLast = [UInt64](repeating: 0, count: cube)
        private var firstTwo = [UInt64](repeating: 0, count: square)
        private var firstAndLast = [UInt64](repeating: 0, count: square)

        /// Adds an entry of at least four letters a to z.
        mutating func add<Letters: RandomAccessCollection<UInt8>>(_ entry: Letters) where Letters.Index == Int {
            let keys = Keys(entry)
            Self.set(&firstThree, keys.firstThree)
            Self.set(&firstAndLastTwo, keys.firstAndLastTwo)
            Self.set(&firstTwoAndLast, keys.firstTwoAndLast)
            Self.set(&firstTwo, keys.firstTwo)
            Self.set(&firstAndLast, keys.firstAndLast)
        }

        /// False when no entry can be one edit from `word` (four or more letters a to z).
        @inline(__always) func mayBeOneEditFromAnEntry<Letters: RandomAccessCollection<UInt8>>(_ word: Letters) -> Bool where Letters.Index == Int {
            let keys = Keys(word)
            if Self.has(firstThree, keys.firstThree) { return true }
            switch word.count {
            case 6...: return Self.has(firstAndLastTwo, keys.firstAndLastTwo)
            case 5: return Self.has(firstAndLastTwo, keys.firstAndLastTwo) || Self.has(firstTwoAndLast, keys.firstTwoAndLast)
            default: return Self.has(firstAndLast, keys.firstAndLast) || Self.has(firstTwo, keys.firstTwo)
            }
        }

        /// A word's letters at the places that survive an edit, as bit numbers.
        private struct Keys {
            var firstThree, firstAndLastTwo, firstTwoAndLast, firstTwo, firstAndLast: Int

            @inline(__always) init<Letters: RandomAccessCollection<UInt8>>(_ word: Letters) where Letters.Index == Int {
                let start = word.startIndex, end = word.endIndex
                let a = Int(word[start] - 0x61), b = Int(word[start + 1] - 0x61), c = Int(word[start + 2] - 0x61)
                let y = Int(word[end - 2] - 0x61), z = Int(word[end - 1] - 0x61)
                firstThree = (a * 26 + b) * 26 + c
                firstAndLastTwo = (a * 26 + y) * 26 + z
                firstTwoAndLast = (a * 26 + b) * 26 + z
                firstTwo = a * 26 + b
                firstAndLast = a * 26 + z
            }
        }

        private static func set(_ bits: inout [UInt64], _ key: Int) { bits[key >> 6] |= 1 << UInt64(key & 63) }

        @inline(__always) private static func has(_ bits: [UInt64], _ key: Int) -> Bool { bits[key >> 6] & (1 << UInt64(key & 63)) != 0 }
    }

    /// The entries' first letters with their lengths, and their ``Affixes``: whether a word may
    /// be one edit from an entry, without a look-up. ``correct(_:)`` asks it first, and so does
    /// the screener, through ``correction(of:hash:)``, for every word of every message. (Inlined,
    /// so that the tables are read where they are, not copied out for each call.)
    struct Neighbourhood: Sendable {
        /// For each first letter a to z, a bit for each length of an entry starting with it.
        private var lengthsByFirstLetter = [UInt64](repeating: 0, count: 26)
        private var affixes = Affixes()

        mutating func add(_ entry: ArraySlice<UInt8>) {
            lengthsByFirstLetter[Int(entry[entry.startIndex] - 0x61)] |= 1 << UInt64(min(entry.count, 63))
            affixes.add(entry)
        }

        /// False when no entry can be one edit from `word` (four or more letters a to z): none has
        /// its first letter and a length one apart from it, or none shares its affixes.
        @inline(__always) func mayBeNear<Letters: RandomAccessCollection<UInt8>>(_ word: Letters) -> Bool where Letters.Index == Int {
            let near: UInt64 = 0b111 << UInt64(min(word.count - 1, 61))
            return lengthsByFirstLetter[Int(word[word.startIndex] - 0x61)] & near != 0 && affixes.mayBeOneEditFromAnEntry(word)
        }
    }

    /// The hashes of a word and of each of its one-letter deletions, all in time linear in its
    /// length and without allocating: a polynomial hash H, where H(prefix + suffix) is
    /// H(prefix) × base^|suffix| + H(suffix). Deleting the letter at p from a word of n letters
    /// gives H(word) + (H(prefix to p) − H(prefix through p)) × base^(n−1−p), so one running
    /// prefix hash yields every deletion. Equal hashes are only candidates:
    /// ``Speller/oneEditApart(_:_:substitution:)`` compares the letters.
    struct DeletionHashes<Letters: RandomAccessCollection<UInt8>>: Sequence, IteratorProtocol where Letters.Index == Int {
        static var base: UInt64 { DeletionPowers.base }
        static var capacity: Int { DeletionPowers.capacity }

        private let word: Letters
        private let total: UInt64
        /// The next letter to delete, and the hash of the letters before it.
        private var position = 1
        private var prefix: UInt64

        /// The deletions of the letters after the first (the first letter never changes).
        init(_ word: Letters) {
            self.word = word
            total = word.reduce(0) { $0 &* Self.base &+ UInt64($1) }
            prefix = word.first.map(UInt64.init) ?? 0
        }

        /// The hash of the word with the letter at the next position deleted.
        mutating func next() -> UInt64? {
            guard position < word.count else { return nil }
            let extended = prefix &* Self.base &+ UInt64(word[word.startIndex + position])
            let hash = Self.mix(total &+ (prefix &- extended) &* Self.power(word.count - 1 - position))
            prefix = extended
            position += 1
            return hash
        }

        private static func power(_ exponent: Int) -> UInt64 {
            if exponent < capacity { return DeletionPowers.powers[exponent] }
            var result: UInt64 = 1
            for _ in 0..<exponent { result = result &* base }
            return result
        }

        /// Spreads the bits, so the look-up tables' slots are even.
        private static func mix(_ value: UInt64) -> UInt64 {
            var value = value ^ (value >> 33)
            value = value &* 0xFF51_AFD7_ED55_8CCD
            return value ^ (value >> 33)
        }

        /// The hash of a whole word.
        static func whole(_ word: Letters) -> UInt64 { mix(word.reduce(0) { $0 &* base &+ UInt64($1) }) }
    }

    /// The base of ``DeletionHashes`` and its powers (a generic type holds no stored static).
    private enum DeletionPowers {
        static let base: UInt64 = 0x100_0000_01B3
        /// Powers of the base for words up to this long; longer words compute theirs.
        static let capacity = 64
        static let powers: [UInt64] = (0..<capacity).reduce(into: []) { powers, index in
            powers.append(index == 0 ? 1 : powers[index - 1] &* base)
        }
    }

    /// Whether one insertion, deletion or swap of neighbours turns `a` into `b`, or, when
    /// `substitution` allows, one changed letter.
    static func oneEditApart(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>, substitution: Bool = true) -> Bool {
        let a = Array(a), b = Array(b)
        if a == b { return false }
        if a.count == b.count {
            let differ = a.indices.filter { a[$0] != b[$0] }
            if differ.count == 1 { return substitution }
            return differ.count == 2 && differ[1] == differ[0] + 1 && a[differ[0]] == b[differ[1]] && a[differ[1]] == b[differ[0]]
        }
        guard abs(a.count - b.count) == 1 else { return false }
        let (long, short) = a.count > b.count ? (a, b) : (b, a)
        var skipped = false, i = 0, j = 0
        while i < long.count, j < short.count {
            if long[i] == short[j] {
                i += 1
                j += 1
            } else {
                if skipped { return false }
                skipped = true
                i += 1
            }
        }
        return true
    }
}
