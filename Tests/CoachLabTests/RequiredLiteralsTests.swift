@testable import CoachLab
import Foundation
import Testing

/// Screening skips a pattern on a message without the literals it needs. That is only sound if
/// every text the pattern matches holds one of them, which these tests check against ICU itself.
@Suite struct RequiredLiteralsTests {
    func literals(_ pattern: String) -> [String]? {
        RequiredLiterals(pattern: pattern).map { $0.alternatives.map { String(decoding: $0, as: UTF8.self) } }
    }

    @Test func findsTheWordsAPatternCannotMatchWithout() {
        #expect(literals(#"\b(is|was)\s+(it|this|that)\s+legal\b"#) == ["legal"])
        #expect(literals(#"\bwant\s+(it\s+all|everything|this\s+all)\s+to\s+(end|stop)\b"#) == ["want"])
        #expect(literals(#"\b(come|coming|get|getting) off (my |the )?(meds|medication|pills)\b"#) == ["medication", "meds", "pills"])
        #expect(literals(#"(?:hit|kick)s? me"#) == ["hit me", "hits me", "kick me", "kicks me"])
        #expect(literals("Dr\\. Smith") == ["dr. smith"])
        #expect(literals("colou?r") == ["color", "colour"])
    }

    @Test func readsNothingFromWhatItDoesNotUnderstand() {
        for pattern in ["(?i)abc", #"\p{L}+abc"#, #"\x41bc"#, #"\Qabc\E"#, #"(a)\1"#, "a{x}", ".*", "a*", "[abc]+", "(?=abc)",
                        "é", "ß", "(abc|)", #"\N{LATIN SMALL LETTER A}"#, "((abc)"] {
            #expect(literals(pattern) == nil, "\(pattern)")
        }
    }

    /// Groups nested past any sensible depth are not read (and do not exhaust the stack).
    @Test func deeplyNestedGroupsYieldNothing() {
        #expect(literals(String(repeating: "(", count: 100_000) + "abc" + String(repeating: ")", count: 100_000)) == nil)
        #expect(literals(String(repeating: "(?:", count: 10) + "abc" + String(repeating: ")", count: 10)) == ["abc"])
    }

    /// Random patterns over a small alphabet, and random texts over it in both cases: whenever
    /// ICU finds a match, the text holds one of the pattern's literals.
    @Test func aMatchAlwaysHoldsOneOfThePatternsLiterals() throws {
        var generator = SeededGenerator(seed: 41)
        func pattern(_ depth: Int) -> String {
            let atoms = ["a", "b", "c", "A", " ", ".", "[ab]", #"\s"#, #"\b"#, #"\."#, "^", "$"]
            var pieces: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                var atom = atoms.randomElement(using: &generator)!
                if depth < 2, Int.random(in: 0..<4, using: &generator) == 0 {
                    let open = ["(", "(?:", "(?=", "(?!", "(?>"].randomElement(using: &generator)!
                    atom = open + pattern(depth + 1) + "|" + pattern(depth + 1) + ")"
                }
                atom += ["", "", "", "?", "*", "+", "{2}", "{1,3}", "{0,2}", "+?"].randomElement(using: &generator)!
                pieces.append(atom)
            }
            return pieces.joined()
        }
        var withLiterals = 0, skipped = 0, matched = 0
        for _ in 0..<300 {
            let text = pattern(0)
            guard let regex = try? NSRegularExpression(pattern: text, options: [.caseInsensitive]) else { continue }
            guard let literals = RequiredLiterals(pattern: text) else { continue }
            withLiterals += 1
            for _ in 0..<30 {
                let subject = (0..<Int.random(in: 0...10, using: &generator)).map { _ in
                    ["a", "b", "c", "A", "B", "C", " ", ".", "x"].randomElement(using: &generator)!
                }.joined()
                let lowered = try #require(LoweredASCII(subject))
                let may = lowered.bytes.withUnsafeBufferPointer(literals.mayMatch)
                if regex.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil {
                    matched += 1
                    #expect(may, "/\(text)/ matches \(subject.debugDescription) without any of \(literals.alternatives)")
                } else if !may {
                    skipped += 1
                }
            }
        }
        // The test means something only if both sides were exercised.
        #expect(withLiterals > 80 && matched > 500 && skipped > 500, "\(withLiterals) \(matched) \(skipped)")
    }

    /// The shipped packs' own patterns, on the guardrail datasets' messages and the fixtures'.
    @Test func theShippedPatternsSkipNoMessageTheyMatch() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var patterns: [String] = []
        var messages: [String] = []
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".yaml") && (file.hasPrefix("personas/") || file.hasPrefix("evals/") || file.hasPrefix("fixtures/")) {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("- \"") || trimmed.contains(": \"") || trimmed.hasPrefix("- ") else { continue }
                guard let start = trimmed.firstIndex(of: "\""), let end = trimmed.lastIndex(of: "\""), start < end else {
                    messages.append(String(trimmed.dropFirst(2)))
                    continue
                }
                let body = String(trimmed[trimmed.index(after: start)..<end])
                if file.hasSuffix("rules.yaml"), body.contains("\\\\b") {
                    patterns.append(body.replacingOccurrences(of: "\\\\", with: "\\"))
                } else {
                    messages.append(body)
                }
            }
        }
        #expect(patterns.count >= 10 && messages.count >= 500, "\(patterns.count) patterns, \(messages.count) messages")
        var matches = 0
        for pattern in patterns {
            let compiled = try #require(RegexCache.shared.pattern(pattern, caseSensitive: false), "\(pattern)")
            #expect(compiled.literals != nil, "no literals for \(pattern)")
            let regex = try #require(compiled.regex)
            for message in messages {
                let lowered = LoweredASCII(message)
                let full = regex.firstMatch(in: message, range: NSRange(message.startIndex..., in: message))
                let fast = compiled.firstMatch(in: message, lowered: lowered)
                #expect(full?.range == fast?.range, "/\(pattern)/ on \(message.debugDescription)")
                if full != nil { matches += 1 }
            }
        }
        #expect(matches > 20, "\(matches) matches")
    }
}
