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
public struct ScreeningResult: Sendable, Codable, Equatable {
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
    private let phrases: PhraseIndex
    private let exceptions: PhraseIndex

    private struct RuleInfo: Sendable {
        var id: String
        var title: String
        var priority: Int
        var patterns: [(text: String, regex: NSRegularExpression)]
    }

    /// Builds a screener from the rules that have guardrails, with the pack's lexicons for their
    /// frames. Invalid patterns and templates are skipped here; lint reports them.
    public init(rules: [Rule], lexicons: [Lexicon] = []) {
        var infos: [RuleInfo] = []
        var phrases = PhraseIndex()
        var exceptions = PhraseIndex()
        for rule in rules {
            guard let guardrail = rule.guardrail else { continue }
            let index = infos.count
            infos.append(RuleInfo(id: rule.id, title: rule.title, priority: rule.priority,
                                  patterns: guardrail.patterns.compactMap { pattern in
                                      (try? NSRegularExpression(pattern: pattern.value, options: [.caseInsensitive]))
                                          .map { (pattern.value, $0) }
                                  }))
            for keyword in guardrail.keywords {
                phrases.add(PhraseIndex.Phrase(tokens: TextNormalizer.tokens(keyword.value).map { .word($0) }, rule: index,
                                               text: keyword.value, kind: .keyword, via: []))
            }
            let templates = guardrail.lexicons.map { ("{\($0.value)}", $0.value, GuardrailFlag.Kind.lexicon) }
                + guardrail.frames.map { ($0.value, $0.value, GuardrailFlag.Kind.frame) }
            for (template, text, kind) in templates {
                guard case .success(let expansions) = PhraseTemplate.expand(template, lexicons: lexicons) else { continue }
                for expansion in expansions {
                    phrases.add(PhraseIndex.Phrase(tokens: expansion.tokens, rule: index, text: text, kind: kind, via: expansion.via))
                }
            }
            for exception in guardrail.exceptions {
                guard case .success(let expansions) = PhraseTemplate.expand(exception.value, lexicons: lexicons) else { continue }
                for expansion in expansions {
                    exceptions.add(PhraseIndex.Phrase(tokens: expansion.tokens, rule: index, text: exception.value, kind: .keyword, via: []))
                }
            }
        }
        self.rules = infos
        self.phrases = phrases
        self.exceptions = exceptions
    }

    /// Builds the screener of a pack: its rules and lexicons.
    public init(pack: Pack) { self.init(rules: pack.rules, lexicons: pack.lexicons) }

    /// How many word sequences stage 1 indexes, frames and lexicons expanded.
    public var phraseCount: Int { phrases.phrases.count }

    /// Screens one message.
    public func screen(_ message: String) -> ScreeningResult {
        let text = ScreeningWords(message)
        let scalars = message.unicodeScalars
        /// Word offsets count scalars; flags report the excerpt and its offsets in characters.
        func span(_ start: Int, _ end: Int) -> (excerpt: String, start: Int, end: Int) {
            let lower = scalars.index(scalars.startIndex, offsetBy: start)
            let upper = scalars.index(lower, offsetBy: end - start)
            return (String(scalars[lower..<upper]), message.distance(from: message.startIndex, to: lower),
                    message.distance(from: message.startIndex, to: upper))
        }

        var suppressed: [Int: [(Int, Int)]] = [:]
        if !exceptions.isEmpty {
            let words = PhraseIndex.Words(text, stems: exceptions.hasStems)
            for (phrase, start, end) in exceptions.matches(in: words) {
                suppressed[exceptions.phrases[phrase].rule, default: []].append((start, end))
            }
        }
        func isSuppressed(_ rule: Int, _ start: Int, _ end: Int) -> Bool {
            (suppressed[rule] ?? []).contains { $0.0 < end && start < $0.1 }
        }

        var best: [Int: GuardrailFlag] = [:]
        if !phrases.isEmpty {
            let words = PhraseIndex.Words(text, stems: phrases.hasStems)
            for (index, start, end) in phrases.matches(in: words) {
                let phrase = phrases.phrases[index]
                guard best[phrase.rule] == nil, !isSuppressed(phrase.rule, start, end) else { continue }
                let info = rules[phrase.rule]
                let found = span(start, end)
                best[phrase.rule] = GuardrailFlag(ruleId: info.id, ruleTitle: info.title, priority: info.priority, stage: 1,
                                                  kind: phrase.kind, matched: phrase.text, excerpt: found.excerpt,
                                                  start: found.start, end: found.end,
                                                  lexiconEntries: phrase.via.isEmpty ? nil : phrase.via)
            }
        }
        let nsMessage = message as NSString
        for (rule, info) in rules.enumerated() where best[rule] == nil {
            for (text, regex) in info.patterns {
                guard let match = regex.firstMatch(in: message, range: NSRange(location: 0, length: nsMessage.length)),
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

/// Word sequences indexed by their first token, matched against a folded message.
private struct PhraseIndex: Sendable {
    struct Phrase: Sendable {
        var tokens: [PhraseTemplate.Token]
        var rule: Int
        var text: String
        var kind: GuardrailFlag.Kind
        var via: [String]
    }

    /// A token as bytes and their hash.
    struct Key: Sendable {
        var bytes: [UInt8]
        var hash: UInt64
        init(_ text: String) {
            bytes = Array(text.utf8)
            hash = ScreeningWords.hash(bytes)
        }
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
    private var keys: [[Key]] = []
    private var byWord: [UInt64: [Int]] = [:]
    private var byStem: [UInt64: [Int]] = [:]
    private var byNumber: [UInt64: [Int]] = [:]
    private(set) var hasStems = false

    var isEmpty: Bool { phrases.isEmpty }

    mutating func add(_ phrase: Phrase) {
        guard let first = phrase.tokens.first else { return }
        let id = phrases.count
        phrases.append(phrase)
        keys.append(phrase.tokens.map { token in
            switch token {
            case .word(let text), .inflected(let text), .number(let text): Key(text)
            }
        })
        let key = keys[id][0]
        switch first {
        case .word: byWord[key.hash, default: []].append(id)
        case .inflected: byStem[key.hash, default: []].append(id)
        case .number: byNumber[key.hash, default: []].append(id)
        }
        if phrase.tokens.contains(where: { if case .inflected = $0 { true } else { false } }) { hasStems = true }
    }

    /// Every phrase that matches, as (phrase, first scalar, scalar past the end), in message
    /// order, and in the order phrases were added at one position.
    func matches(in words: Words) -> [(Int, Int, Int)] {
        let text = words.text
        let count = text.words.count
        var found: [(Int, Int, Int)] = []
        var candidates: [Int] = []
        for position in 0..<count {
            candidates.removeAll(keepingCapacity: true)
            if let ids = byWord[text.words[position].hash] { candidates += ids }
            if !byStem.isEmpty, let ids = byStem[words.stems[position].hash] { candidates += ids }
            if !byNumber.isEmpty, let suffix = text.numberSuffix(position), let ids = byNumber[ScreeningWords.hash(suffix)] { candidates += ids }
            if candidates.isEmpty { continue }
            if !byStem.isEmpty || !byNumber.isEmpty { candidates.sort() }
            for id in candidates where position + keys[id].count <= count {
                let tokens = phrases[id].tokens
                var matched = true
                for offset in tokens.indices where !token(tokens[offset], keys[id][offset], matches: position + offset, in: words) {
                    matched = false
                    break
                }
                if matched {
                    found.append((id, text.words[position].start, text.words[position + tokens.count - 1].end))
                }
            }
        }
        return found
    }

    private func token(_ token: PhraseTemplate.Token, _ key: Key, matches index: Int, in words: Words) -> Bool {
        switch token {
        case .word:
            return words.text.words[index].hash == key.hash && words.text.word(index, equals: key.bytes)
        case .inflected:
            let stem = words.stems[index]
            guard stem.hash == key.hash, stem.length == key.bytes.count else { return false }
            let word = words.text.words[index]
            return words.text.bytes[word.byteStart..<(word.byteStart + stem.length)].elementsEqual(key.bytes)
        case .number:
            return words.text.numberSuffix(index).map { $0.elementsEqual(key.bytes) } ?? false
        }
    }
}
