import Foundation

/// One rule that matched a message.
public struct GuardrailFlag: Sendable, Codable, Hashable {
    /// How the rule matched.
    public enum Kind: String, Sendable, Codable { case keyword, frame, lexicon, pattern, classifier }

    /// The rule's id.
    public var ruleId: String
    /// The rule's title.
    public var ruleTitle: String
    /// The rule's priority; the highest decides.
    public var priority: Int
    /// 1 for keywords and patterns, 2 for the classifier.
    public var stage: Int
    /// Keyword, pattern or classifier.
    public var kind: Kind
    /// The keyword, frame, lexicon or pattern that matched.
    public var matched: String
    /// The part of the message that matched.
    public var excerpt: String
    /// Character offset where the excerpt starts.
    public var start: Int
    /// Character offset just past the excerpt.
    public var end: Int
    /// For a frame or lexicon match, the lexicon entries it matched through ("conditions: adhd").
    public var lexiconEntries: [String]? = nil
}

/// The result of screening one message.
public struct ScreeningResult: Sendable, Codable, Hashable {
    /// Every rule that matched, highest priority first, then by position.
    public var flags: [GuardrailFlag]

    /// The deciding flag, or nil when nothing matched.
    public var decision: GuardrailFlag? { flags.first }

    /// Whether anything matched.
    public var isFlagged: Bool { !flags.isEmpty }
}

/// Stage-1 screening: the pack's guardrail keywords, frames, lexicons and patterns, matched
/// instantly and without a model, as BetterOne does on the device.
///
/// Keywords, frames and lexicon entries match whole words after folding (``TextNormalizer``):
/// "diagnose me" matches "Diagnose me!", "rapist" never matches inside "therapist". Frames are
/// expanded once, when the screener is built (``PhraseTemplate``), into plain word sequences
/// indexed by their first word, so thousands of phrases cost one hash look-up per word of the
/// message, and no word of it becomes a `String`. An exception that overlaps a match cancels it.
public struct Screener: Sendable {
    private let rules: [RuleInfo]
    /// The rules with patterns, in order.
    private let rulesWithPatterns: [Int]
    private let phrases: PhraseIndex
    private let exceptions: PhraseIndex
    private let speller: Speller
    /// What a message needs to hold for stage 1 to look at it closely.
    private let quiet: QuietWords

    private struct RuleInfo: Sendable {
        var id: String
        var title: String
        var priority: Int
        var patterns: [(text: String, pattern: CompiledPattern)]
    }

    /// Builds a screener from the rules that have guardrails, with the pack's lexicons for their
    /// frames. Invalid patterns and templates are skipped here; lint reports them. With `typos`,
    /// a word one edit from a word of the screen reads as that word (``Speller``).
    public init(rules: [Rule], lexicons: [Lexicon] = [], typos: Bool = true) {
        var infos: [RuleInfo] = []
        var phrases = PhraseIndex()
        var exceptions = PhraseIndex()
        var session = PhraseTemplate.Session(lexicons: lexicons)
        for rule in rules {
            guard let guardrail = rule.guardrail else { continue }
            let index = infos.count
            infos.append(RuleInfo(id: rule.id, title: rule.title, priority: rule.priority,
                                  patterns: guardrail.patterns.compactMap { pattern in
                                      RegexCache.shared.pattern(pattern.value, caseSensitive: false).map { (pattern.value, $0) }
                                  }))
            for keyword in guardrail.keywords {
                let tokens = TextNormalizer.tokens(keyword.value).map { PhraseTemplate.Token.word($0) }
                phrases.add(PhraseIndex.Phrase(elements: tokens.map { [PhraseTemplate.Expansion(tokens: [$0], via: [])] }, rule: index,
                                               text: keyword.value, kind: .keyword))
            }
            let templates = guardrail.lexicons.map { ("{\($0.value)}", $0.value, GuardrailFlag.Kind.lexicon) }
                + guardrail.frames.map { ($0.value, $0.value, GuardrailFlag.Kind.frame) }
            for (template, text, kind) in templates {
                guard case .success(let compiled) = session.compile(template) else { continue }
                for variant in compiled.variants {
                    phrases.add(PhraseIndex.Phrase(elements: variant, rule: index, text: text, kind: kind))
                }
            }
            for exception in guardrail.exceptions {
                guard case .success(let compiled) = session.compile(exception.value) else { continue }
                for variant in compiled.variants {
                    exceptions.add(PhraseIndex.Phrase(elements: variant, rule: index, text: exception.value, kind: .keyword))
                }
            }
        }
        phrases.seal()
        exceptions.seal()
        self.rules = infos
        self.rulesWithPatterns = infos.indices.filter { !infos[$0].patterns.isEmpty }
        self.phrases = phrases
        self.exceptions = exceptions
        var speller = Speller()
        if typos {
            phrases.addVocabulary(to: &speller)
            exceptions.addVocabulary(to: &speller)
            speller.seal()
        }
        self.speller = speller
        quiet = QuietWords(phrases: phrases, speller: speller)
    }

    /// Builds the screener of a pack: its rules and lexicons, with typo tolerance unless the
    /// pack turns it off (`defaults.screening.typos: false`).
    public init(pack: Pack) { self.init(rules: pack.rules, lexicons: pack.lexicons, typos: pack.defaults.screeningTypos) }

    /// How many phrases stage 1 matches: keywords, and frame variants.
    public var phraseCount: Int { phrases.phrases.count }

    /// Screens one message.
    public func screen(_ message: String) -> ScreeningResult {
        // Most messages match nothing. Those in which no word may start a phrase, or be read as
        // another by typo correction, are only folded and looked up word by word; the rest, and
        // any a pattern matches (an exception may cancel it), are screened in full.
        guard !phrases.isEmpty || !rulesWithPatterns.isEmpty else { return ScreeningResult(flags: []) }
        var scan = QuietWords.Scan(quiet)
        if ScreeningWords.scan(message, into: &scan) {
            if rulesWithPatterns.isEmpty { return ScreeningResult(flags: []) }
            let lowered = LoweredASCII(message)
            let anyPattern = rulesWithPatterns.contains { rules[$0].patterns.contains { $0.pattern.firstMatch(in: message, lowered: lowered) != nil } }
            if !anyPattern { return ScreeningResult(flags: []) }
        }
        return screenInFull(message)
    }

    /// Screens one message: every word folded and kept, typos corrected, every phrase matched.
    func screenInFull(_ message: String) -> ScreeningResult {
        var text = ScreeningWords(message)
        if !speller.isEmpty { speller.correct(&text) }
        let scalars = message.unicodeScalars
        /// Word offsets count scalars; flags report the excerpt and its offsets in characters.
        func span(_ start: Int, _ end: Int) -> (excerpt: String, start: Int, end: Int) {
            let lower = scalars.index(scalars.startIndex, offsetBy: start)
            let upper = scalars.index(lower, offsetBy: end - start)
            // Characters are counted once from the start, then on from `lower` (both round down
            // to a character boundary, so the sum is the count to `upper`).
            let first = message.distance(from: message.startIndex, to: lower)
            return (String(scalars[lower..<upper]), first, first + message.distance(from: lower, to: upper))
        }

        var suppressed: [Int: [(Int, Int)]] = [:]
        if !exceptions.isEmpty {
            let words = PhraseIndex.Words(text, stems: exceptions.hasStems)
            for found in exceptions.matches(in: words) {
                suppressed[exceptions.phrases[found.phrase].rule, default: []].append((found.start, found.end))
            }
        }
        func isSuppressed(_ rule: Int, _ start: Int, _ end: Int) -> Bool {
            (suppressed[rule] ?? []).contains { $0.0 < end && start < $0.1 }
        }

        var best: [Int: GuardrailFlag] = [:]
        if !phrases.isEmpty {
            let words = PhraseIndex.Words(text, stems: phrases.hasStems)
            for match in phrases.matches(in: words) {
                let phrase = phrases.phrases[match.phrase]
                guard best.index(forKey: phrase.rule) == nil, !isSuppressed(phrase.rule, match.start, match.end) else { continue }
                let info = rules[phrase.rule]
                let found = span(match.start, match.end)
                best[phrase.rule] = GuardrailFlag(ruleId: info.id, ruleTitle: info.title, priority: info.priority, stage: 1,
                                                  kind: phrase.kind, matched: phrase.text, excerpt: found.excerpt,
                                                  start: found.start, end: found.end,
                                                  lexiconEntries: match.via.isEmpty ? nil : match.via)
            }
        }
        let lowered = rulesWithPatterns.isEmpty ? nil : LoweredASCII(message)
        for rule in rulesWithPatterns where best.index(forKey: rule) == nil {
            let info = rules[rule]
            for (text, pattern) in info.patterns {
                guard let match = pattern.firstMatch(in: message, lowered: lowered),
                      let range = Range(match.range, in: message) else { continue }
                let start = message.distance(from: message.startIndex, to: range.lowerBound)
                let end = message.distance(from: message.startIndex, to: range.upperBound)
                guard !isSuppressed(rule, scalars.distance(from: scalars.startIndex, to: range.lowerBound),
                                    scalars.distance(from: scalars.startIndex, to: range.upperBound)) else { continue }
                best[rule] = GuardrailFlag(ruleId: info.id, ruleTitle: info.title, priority: info.priority, stage: 1,
                                           kind: .pattern, matched: text, excerpt: String(message[range]), start: start, end: end)
                break
            }
        }
        let flags = best.sorted { a, b in
            if a.value.priority != b.value.priority { return a.value.priority > b.value.priority }
            if a.value.start != b.value.start { return a.value.start < b.value.start }
            return a.key < b.key
        }.map(\.value)
        return ScreeningResult(flags: flags)
    }
}

/// Phrases indexed by their first token, matched against a folded message. A phrase is a run
/// of elements, each a set of word sequences (a keyword's words, a group's alternatives, a
/// lexicon's entries); the first element's sequences are indexed, and the rest are matched
/// left to right from there, trying alternatives in order.
private struct PhraseIndex: Sendable {
    struct Phrase: Sendable {
        var elements: [PhraseTemplate.Element]
        var rule: Int
        var text: String
        var kind: GuardrailFlag.Kind
    }

    /// A token as bytes and their hash.
    struct Key: Sendable {
        var token: PhraseTemplate.Token
        var bytes: [UInt8]
        var hash: UInt64
        init(_ token: PhraseTemplate.Token) {
            self.token = token
            switch token {
            case .word(let text), .inflected(let text), .number(let text): bytes = Array(text.utf8)
            case .any: bytes = []
            }
            hash = ScreeningWords.hash(bytes)
        }
    }

    /// One alternative of an element, ready to compare.
    struct Alternative: Sendable {
        var keys: [Key]
        var via: [String]
    }

    /// A match: the phrase, its scalar range, and the lexicon entries it went through.
    struct Match {
        var phrase: Int
        var start: Int
        var end: Int
        var via: [String]
    }

    /// A message's words, with their stems when the index needs them.
    struct Words {
        var text: ScreeningWords
        var stems: [(hash: UInt64, length: Int)]
        init(_ text: ScreeningWords, stems: Bool) {
            self.text = text
            self.stems = stems ? text.words.indices.map { text.stem($0) } : []
        }
    }

    private(set) var phrases: [Phrase] = []
    /// Each phrase's elements as compared: alternatives of keys.
    private var compiled: [[[Alternative]]] = []
    /// First-element alternatives by the hash of their first token: (phrase, alternative).
    private var byWord: [(key: UInt64, value: (Int, Int))] = []
    private var byStem: [(key: UInt64, value: (Int, Int))] = []
    private var byNumber: [(key: UInt64, value: (Int, Int))] = []
    /// The same, sealed into flat tables once every phrase is added.
    private var wordIndex = HashIndex<(Int, Int)>()
    private var stemIndex = HashIndex<(Int, Int)>()
    private var numberIndex = HashIndex<(Int, Int)>()
    private(set) var hasStems = false

    var isEmpty: Bool { phrases.isEmpty }

    /// Builds the look-up tables once every phrase is added.
    mutating func seal() {
        wordIndex = HashIndex(byWord)
        stemIndex = HashIndex(byStem)
        numberIndex = HashIndex(byNumber)
        byWord = []
        byStem = []
        byNumber = []
    }

    /// Every word and stem the phrases compare, for typo correction.
    func addVocabulary(to speller: inout Speller) {
        for key in compiled.joined().joined().flatMap(\.keys) {
            switch key.token {
            case .word(let text): speller.add(text, stem: false)
            case .inflected(let text): speller.add(text, stem: true)
            case .number, .any: break
            }
        }
    }

    mutating func add(_ phrase: Phrase) {
        guard let first = phrase.elements.first, !first.isEmpty else { return }
        let id = phrases.count
        phrases.append(phrase)
        let elements = phrase.elements.map { element in element.map { Alternative(keys: $0.tokens.map(Key.init), via: $0.via) } }
        compiled.append(elements)
        for (index, alternative) in elements[0].enumerated() {
            guard let key = alternative.keys.first else { continue }
            switch key.token {
            case .word: byWord.append((key.hash, (id, index)))
            case .inflected: byStem.append((key.hash, (id, index)))
            case .number: byNumber.append((key.hash, (id, index)))
            case .any: break  // refused by PhraseTemplate; never indexed
            }
        }
        if elements.joined().contains(where: { $0.keys.contains { if case .inflected = $0.token { true } else { false } } }) {
            hasStems = true
        }
    }

    /// Whether a phrase may start at this word: its hash, its stem's or its number suffix's is a
    /// first token. ``matches(in:)`` looks for candidates at a word the same way.
    @inline(__always) func mayStart(_ word: ScreeningWords.Word, folded: UnsafeBufferPointer<UInt8>) -> Bool {
        if wordIndex.find(word.hash) != nil { return true }
        if !stemIndex.isEmpty {
            let stem = UnsafeBufferPointer(rebasing: folded[..<Inflection.stemLength(folded)])
            if stemIndex.find(ScreeningWords.hash(UnsafeRawBufferPointer(stem))) != nil { return true }
        }
        if !numberIndex.isEmpty, let first = folded.first, first >= 0x30, first <= 0x39 {
            let suffix = UnsafeBufferPointer(rebasing: folded.drop { $0 >= 0x30 && $0 <= 0x39 })
            if numberIndex.find(ScreeningWords.hash(UnsafeRawBufferPointer(suffix))) != nil { return true }
        }
        return false
    }

    /// Every phrase that matches, in message order, and in the order phrases were added at one
    /// position; at most one match per phrase and position.
    func matches(in words: Words) -> [Match] {
        let text = words.text
        let count = text.words.count
        var found: [Match] = []
        var candidates: [(Int, Int)] = []
        for position in 0..<count {
            candidates.removeAll(keepingCapacity: true)
            if let found = wordIndex.find(text.words[position].hash) { candidates += wordIndex.values[found] }
            if !stemIndex.isEmpty, let found = stemIndex.find(words.stems[position].hash) { candidates += stemIndex.values[found] }
            if !numberIndex.isEmpty, let suffix = text.numberSuffix(position), let found = numberIndex.find(ScreeningWords.hash(suffix)) {
                candidates += numberIndex.values[found]
            }
            if candidates.isEmpty { continue }
            if !stemIndex.isEmpty || !numberIndex.isEmpty { candidates.sort { $0 < $1 } }
            var last = -1
            for (phrase, alternative) in candidates where phrase != last {
                let first = compiled[phrase][0][alternative]
                guard let end = match(first.keys, at: position, in: words),
                      let rest = match(compiled[phrase], element: 1, at: end, in: words) else { continue }
                last = phrase
                found.append(Match(phrase: phrase, start: text.words[position].start, end: text.words[rest.end - 1].end,
                                   via: first.via + rest.via))
            }
        }
        return found
    }

    /// Matches elements `element...` from word `position`: the first way through, trying each
    /// element's alternatives in order. Returns the word index just past the match.
    private func match(_ elements: [[Alternative]], element: Int, at position: Int, in words: Words) -> (end: Int, via: [String])? {
        guard element < elements.count else { return (position, []) }
        for alternative in elements[element] {
            guard let end = match(alternative.keys, at: position, in: words),
                  let rest = match(elements, element: element + 1, at: end, in: words) else { continue }
            return (rest.end, alternative.via + rest.via)
        }
        return nil
    }

    /// Matches one sequence of tokens from word `position`; the word index just past it.
    private func match(_ keys: [Key], at position: Int, in words: Words) -> Int? {
        guard position + keys.count <= words.text.words.count else { return nil }
        for (offset, key) in keys.enumerated() where !token(key, matches: position + offset, in: words) { return nil }
        return position + keys.count
    }

    private func token(_ key: Key, matches index: Int, in words: Words) -> Bool {
        switch key.token {
        case .word:
            return words.text.words[index].hash == key.hash && words.text.word(index, equals: key.bytes)
        case .inflected:
            let stem = words.stems[index]
            guard stem.hash == key.hash, stem.length == key.bytes.count else { return false }
            let word = words.text.words[index]
            return words.text.bytes[word.byteStart..<(word.byteStart + stem.length)].elementsEqual(key.bytes)
        case .number:
            return words.text.numberSuffix(index).map { $0.elementsEqual(key.bytes) } ?? false
        case .any:
            return true
        }
    }
}

/// The cheap first look at a message (``Screener/screen(_:)``): whether any word of it may start
/// a phrase (``PhraseIndex/mayStart(_:folded:)``), would be corrected into another word
/// (``Speller/correction(of:hash:)``), or is a letter spelled out ("a.d.h.d"), which would join
/// it to others. If none is, no phrase matches, since every match starts at a word that hits
/// the index. One object, so that each message retains one reference, not every table.
private final class QuietWords: Sendable {
    private let phrases: PhraseIndex
    private let speller: Speller

    init(phrases: PhraseIndex, speller: Speller) {
        self.phrases = phrases
        self.speller = speller
    }

    /// Whether the screen must look at this word closely.
    @inline(__always) func mayMatter(_ word: ScreeningWords.Word, folded: UnsafeBufferPointer<UInt8>) -> Bool {
        if word.hasSpellingMark || phrases.mayStart(word, folded: folded) { return true }
        return !speller.isEmpty && speller.correction(of: folded, hash: word.hash) != nil
    }

    /// The sink that stops at the first word that needs a closer look.
    struct Scan: ScreeningWords.Sink {
        let quiet: QuietWords
        init(_ quiet: QuietWords) { self.quiet = quiet }

        @inline(__always) func take(_ word: ScreeningWords.Word, in bytes: UnsafeMutablePointer<UInt8>) -> Bool {
            !quiet.mayMatter(word, folded: UnsafeBufferPointer(start: bytes + word.byteStart, count: word.byteEnd - word.byteStart))
        }
    }
}
