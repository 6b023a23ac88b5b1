@testable import CoachLab
import Foundation
import Testing

/// The hashed matcher must flag exactly what the word-string matcher it replaced flagged, with
/// the same spans: on every labelled message, with every shipped pack's keywords, exceptions
/// and patterns, and on generated text with accents, apostrophes and numbers.
@Suite struct ScreenerEquivalenceTests {
    /// The matcher stage 1 used before frames: each message word a `String`, keywords indexed
    /// by their first word. Kept here, verbatim in behaviour, as the reference.
    struct ReferenceScreener {
        struct Phrase { var tokens: [String]; var rule: Int; var text: String }
        var rules: [(id: String, patterns: [(String, NSRegularExpression)])] = []
        var keywords: [String: [Phrase]] = [:]
        var exceptions: [String: [Phrase]] = [:]

        init(rules source: [Rule]) {
            for rule in source {
                guard let guardrail = rule.guardrail else { continue }
                let index = rules.count
                rules.append((rule.id, guardrail.patterns.compactMap { pattern in
                    (try? NSRegularExpression(pattern: pattern.value, options: [.caseInsensitive])).map { (pattern.value, $0) }
                }))
                for keyword in guardrail.keywords {
                    let tokens = TextNormalizer.tokens(keyword.value)
                    if let first = tokens.first { keywords[first, default: []].append(Phrase(tokens: tokens, rule: index, text: keyword.value)) }
                }
                for exception in guardrail.exceptions {
                    let tokens = TextNormalizer.tokens(exception.value)
                    if let first = tokens.first { exceptions[first, default: []].append(Phrase(tokens: tokens, rule: index, text: exception.value)) }
                }
            }
        }

        func matches(_ words: [TextNormalizer.Word], _ index: [String: [Phrase]]) -> [(Int, Int, Int, String)] {
            var found: [(Int, Int, Int, String)] = []
            for position in words.indices {
                for phrase in index[words[position].text] ?? [] where position + phrase.tokens.count <= words.count {
                    if phrase.tokens.enumerated().allSatisfy({ words[position + $0.offset].text == $0.element }) {
                        found.append((phrase.rule, words[position].start, words[position + phrase.tokens.count - 1].end, phrase.text))
                    }
                }
            }
            return found
        }

        /// (rule, matched, scalar start, scalar end) of each rule's first match, by rule order.
        func screen(_ message: String) -> [String] {
            let words = TextNormalizer.words(message)
            var suppressed: [Int: [(Int, Int)]] = [:]
            for (rule, start, end, _) in matches(words, exceptions) { suppressed[rule, default: []].append((start, end)) }
            func isSuppressed(_ rule: Int, _ start: Int, _ end: Int) -> Bool {
                (suppressed[rule] ?? []).contains { $0.0 < end && start < $0.1 }
            }
            var best: [Int: String] = [:]
            for (rule, start, end, text) in matches(words, keywords) where best[rule] == nil && !isSuppressed(rule, start, end) {
                best[rule] = "\(rules[rule].id) keyword \(text) \(start)-\(end)"
            }
            let scalars = message.unicodeScalars
            for (rule, info) in rules.enumerated() where best[rule] == nil {
                for (text, regex) in info.patterns {
                    guard let match = regex.firstMatch(in: message, range: NSRange(location: 0, length: (message as NSString).length)),
                          let range = Range(match.range, in: message) else { continue }
                    let start = scalars.distance(from: scalars.startIndex, to: range.lowerBound)
                    let end = scalars.distance(from: scalars.startIndex, to: range.upperBound)
                    guard !isSuppressed(rule, start, end) else { continue }
                    best[rule] = "\(info.id) pattern \(text) \(start)-\(end)"
                    break
                }
            }
            return best.keys.sorted().map { best[$0]! }
        }
    }

    /// The new screener's flags in the reference's terms.
    static func describe(_ result: ScreeningResult, message: String, order: [String]) -> [String] {
        func scalarOffset(_ characters: Int) -> Int {
            message.unicodeScalars.distance(from: message.unicodeScalars.startIndex,
                                            to: message.index(message.startIndex, offsetBy: characters))
        }
        return result.flags.sorted { order.firstIndex(of: $0.ruleId)! < order.firstIndex(of: $1.ruleId)! }.map { flag in
            "\(flag.ruleId) \(flag.kind.rawValue) \(flag.matched) \(scalarOffset(flag.start))-\(scalarOffset(flag.end))"
        }
    }

    /// The shipped packs' rules with only what the reference understands: keywords, plain
    /// exceptions and patterns.
    static func keywordRules(_ pack: Pack) -> [Rule] {
        pack.rules.map { rule in
            var rule = rule
            guard var guardrail = rule.guardrail else { return rule }
            guardrail.frames = []
            guardrail.lexicons = []
            guardrail.exceptions = guardrail.exceptions.filter { PhraseTemplate.isPlain($0.value) }
            rule.guardrail = guardrail
            return rule
        }
    }

    static let apps = ["betterone", "healthwallet", "luna", "ticbuddy"]

    static func messages() throws -> [String] {
        var messages: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: TestSupport.root + "/fixtures/guardrails").sorted()
        where file.hasSuffix(".yaml") {
            messages += try GuardrailDataset.load("fixtures/guardrails/" + file, fileSystem: TestSupport.fileSystem).items.map(\.message)
        }
        return messages
    }

    @Test func flagsAndSpansMatchTheWordStringMatcherOnEveryLabelledMessage() throws {
        let messages = try Self.messages()
        #expect(messages.count > 300)
        var compared = 0, flagged = 0
        for app in Self.apps {
            let rules = Self.keywordRules(try TestSupport.pack(app))
            let order = rules.filter { $0.guardrail != nil }.map(\.id)
            let reference = ReferenceScreener(rules: rules)
            let screener = Screener(rules: rules, typos: false)  // the reference has no typo tolerance
            for message in messages {
                let expected = reference.screen(message)
                #expect(Self.describe(screener.screen(message), message: message, order: order) == expected, "\(app): \(message)")
                compared += 1
                if !expected.isEmpty { flagged += 1 }
            }
        }
        // The comparison means something only if both flag plenty and pass plenty.
        #expect(flagged > compared / 10)
        #expect(flagged < compared * 9 / 10)
    }

    @Test func flagsAndSpansMatchOnGeneratedText() throws {
        let pieces = ["Do", "I", "have", "ADHD", "can't", "it’s", "café", "naïve", "ÉCOLE", "e\u{301}cole", "40mg", "2", "pills", "—", "...",
                      "self-harm", "self", "harm", "ß", "ﬁne", "Ｗｉｄｅ", "😀", "don'’t", "'quoted'", "x", "\n", "  ", "dose", "DOSE."]
        var generator = SystemRandomNumberGenerator()
        let rules = Self.keywordRules(try TestSupport.pack("betterone"))
        let reference = ReferenceScreener(rules: rules)
        let screener = Screener(rules: rules, typos: false)
        let order = rules.filter { $0.guardrail != nil }.map(\.id)
        for _ in 0..<500 {
            let message = (0..<Int.random(in: 1...14, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined(separator: Bool.random(using: &generator) ? " " : "")
            #expect(Self.describe(screener.screen(message), message: message, order: order) == reference.screen(message))
        }
    }
}
