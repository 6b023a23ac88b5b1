import Foundation

/// One rule that matched a message.
public struct GuardrailFlag: Sendable, Codable, Hashable {
    /// How the rule matched.
    public enum Kind: String, Sendable, Codable { case keyword, pattern, classifier }

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
    /// The keyword or pattern that matched.
    public var matched: String
    /// The part of the message that matched.
    public var excerpt: String
    /// Character offset where the excerpt starts.
    public var start: Int
    /// Character offset just past the excerpt.
    public var end: Int
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

/// Stage-1 screening: the pack's guardrail keywords and patterns, matched instantly and
/// without a model, as BetterOne does on the device.
///
/// Keywords match whole words after folding (``TextNormalizer``): "diagnose me" matches
/// "Diagnose me!", "rapist" never matches inside "therapist". Candidate keywords are found
/// through an index on their first word, so thousands of keywords cost one dictionary
/// look-up per word of the message. An exception phrase that overlaps a match cancels it.
public struct Screener: Sendable {
    private struct Phrase: Sendable {
        var tokens: [String]
        var rule: Int
        var text: String
    }

    private struct RuleInfo: Sendable {
        var id: String
        var title: String
        var priority: Int
        var patterns: [(text: String, regex: NSRegularExpression)]
    }

    private let rules: [RuleInfo]
    private let keywordIndex: [String: [Phrase]]
    private let exceptionIndex: [String: [Phrase]]

    /// Builds a screener from the rules that have guardrails. Invalid patterns are skipped
    /// here; lint reports them.
    public init(rules: [Rule]) {
        var infos: [RuleInfo] = []
        var keywords: [String: [Phrase]] = [:]
        var exceptions: [String: [Phrase]] = [:]
        for rule in rules {
            guard let guardrail = rule.guardrail else { continue }
            let index = infos.count
            infos.append(RuleInfo(id: rule.id, title: rule.title, priority: rule.priority,
                                  patterns: guardrail.patterns.compactMap { pattern in
                                      (try? NSRegularExpression(pattern: pattern.value, options: [.caseInsensitive]))
                                          .map { (pattern.value, $0) }
                                  }))
            for keyword in guardrail.keywords {
                let tokens = TextNormalizer.tokens(keyword.value)
                guard let first = tokens.first else { continue }
                keywords[first, default: []].append(Phrase(tokens: tokens, rule: index, text: keyword.value))
            }
            for exception in guardrail.exceptions {
                let tokens = TextNormalizer.tokens(exception.value)
                guard let first = tokens.first else { continue }
                exceptions[first, default: []].append(Phrase(tokens: tokens, rule: index, text: exception.value))
            }
        }
        self.rules = infos
        self.keywordIndex = keywords
        self.exceptionIndex = exceptions
    }

    /// Screens one message.
    public func screen(_ message: String) -> ScreeningResult {
        let words = TextNormalizer.words(message)
        let scalars = message.unicodeScalars
        /// Word offsets count scalars; flags report the excerpt and its offsets in characters.
        func span(_ start: Int, _ end: Int) -> (excerpt: String, start: Int, end: Int) {
            let lower = scalars.index(scalars.startIndex, offsetBy: start)
            let upper = scalars.index(lower, offsetBy: end - start)
            return (String(scalars[lower..<upper]), message.distance(from: message.startIndex, to: lower),
                    message.distance(from: message.startIndex, to: upper))
        }

        var suppressed: [Int: [(Int, Int)]] = [:]
        for (rule, start, end, _) in matches(in: words, index: exceptionIndex) {
            suppressed[rule, default: []].append((start, end))
        }
        func isSuppressed(_ rule: Int, _ start: Int, _ end: Int) -> Bool {
            (suppressed[rule] ?? []).contains { $0.0 < end && start < $0.1 }
        }

        var best: [Int: GuardrailFlag] = [:]
        for (rule, start, end, phrase) in matches(in: words, index: keywordIndex) where best[rule] == nil {
            guard !isSuppressed(rule, start, end) else { continue }
            let info = rules[rule]
            let found = span(start, end)
            best[rule] = GuardrailFlag(ruleId: info.id, ruleTitle: info.title, priority: info.priority, stage: 1,
                                       kind: .keyword, matched: phrase, excerpt: found.excerpt, start: found.start, end: found.end)
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

    private func matches(in words: [TextNormalizer.Word], index: [String: [Phrase]]) -> [(Int, Int, Int, String)] {
        guard !index.isEmpty else { return [] }
        var found: [(Int, Int, Int, String)] = []
        for position in words.indices {
            guard let candidates = index[words[position].text] else { continue }
            for phrase in candidates where position + phrase.tokens.count <= words.count {
                var matched = true
                for (offset, token) in phrase.tokens.enumerated().dropFirst() where words[position + offset].text != token {
                    matched = false
                    break
                }
                if matched {
                    found.append((phrase.rule, words[position].start, words[position + phrase.tokens.count - 1].end, phrase.text))
                }
            }
        }
        return found
    }
}
