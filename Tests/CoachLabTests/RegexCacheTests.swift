@testable import CoachLab
import Foundation
import Testing

@Suite struct RegexCacheTests {
    /// One pattern asked for with and without case sensitivity is compiled twice, each time
    /// with its own options, whichever is asked for first.
    @Test func caseSensitivityIsPartOfWhatIsCached() throws {
        for (first, second) in [(true, false), (false, true)] {
            let pattern = "\\bcache-\(first)-probe\\b"
            let text = "CACHE-\(first)-PROBE"
            let a = try #require(RegexCache.shared.pattern(pattern, caseSensitive: first))
            let b = try #require(RegexCache.shared.pattern(pattern, caseSensitive: second))
            let matches = [(a, first), (b, second)].map { compiled, sensitive in
                (sensitive, compiled.firstMatch(in: text, lowered: nil) != nil)
            }
            #expect(matches.allSatisfy { sensitive, matched in matched == !sensitive }, "\(matches)")
        }
        #expect(RegexCache.shared.pattern("(unclosed", caseSensitive: false) == nil)
    }

    /// A regex check's pattern is compiled once for the process: when the check is read, and
    /// every case's evaluation takes it from the cache. The mock's split of alert lines into
    /// parts, which runs on every alert line it reads, does the same.
    @Test func checksAndTheMockTakeTheirPatternsFromTheCache() throws {
        let tag = UUID().uuidString.prefix(8).lowercased()
        let read = "\\bread-\(tag)\\b"
        let yaml = try YAMLDocument.parse("- {check: regex, pattern: '\(read)'}\n", file: "c.yaml")
        var diagnostics: [Diagnostic] = []
        let item = try #require(yaml.items?.first)
        #expect(CheckParser.parse(item, into: &diagnostics) != nil)
        #expect(diagnostics.isEmpty && RegexCache.shared.holds(read, caseSensitive: true))

        let evaluated = "\\bevaluated-\(tag)\\b"
        let check = Check(id: "r", kind: .regex(evaluated, negate: false))
        let result = CheckEvaluator.evaluate(check, CheckSubject(reply: "It was evaluated-\(tag) twice.", system: ""))
        #expect(result.passed && RegexCache.shared.holds(evaluated, caseSensitive: true))

        #expect(MockDirective.parts(of: "Say it is a good question, and tell them to rest") == ["Say it is a good question", "tell them to rest"])
        #expect(RegexCache.shared.holds(MockDirective.partBoundary, caseSensitive: false))
    }

    /// A pattern the mock's code writes is compiled only once a text holds one of its
    /// literals: a line without its words is answered by the byte search alone, so reading a
    /// prompt compiles only the patterns its lines could match.
    @Test func aWrittenPatternIsCompiledOnlyWhenATextMayMatchIt() {
        let tag = UUID().uuidString.prefix(8).lowercased()
        let pattern = "\\bwritten-\(tag)\\b"
        #expect(!MockReading.contains(pattern, "A line that holds none of its words."))
        #expect(!RegexCache.shared.written(pattern, caseSensitive: false).isCompiled)
        #expect(MockReading.matches(pattern, in: "Another line without them.").isEmpty)
        #expect(!RegexCache.shared.written(pattern, caseSensitive: false).isCompiled)

        #expect(MockReading.contains(pattern, "It says WRITTEN-\(tag) here."))
        #expect(RegexCache.shared.written(pattern, caseSensitive: false).isCompiled)
        #expect(MockReading.matches(pattern, in: "written-\(tag), twice: written-\(tag)").count == 2)
    }

    /// An invalid written pattern matches nothing, and is not compiled again on each use.
    @Test func anInvalidWrittenPatternMatchesNothing() {
        let pattern = "(unclosed-written"
        #expect(!MockReading.contains(pattern, "(unclosed-written"))
        #expect(MockReading.matches(pattern, in: "(unclosed-written").isEmpty)
        #expect(RegexCache.shared.written(pattern, caseSensitive: false).isCompiled)
        #expect(RegexCache.shared.pattern(pattern, caseSensitive: false) == nil)
    }
}

/// A case-insensitive pattern runs in its case-sensitive form on a lower-case ASCII text only
/// when folding cannot change what it matches there.
@Suite struct ExactCaseFormTests {
    @Test func onlyPatternsFoldingCannotChangeQualify() {
        for pattern in [#"\bthen\s+(?:ask\s+)?one\b"#, #"^\W*questions?\s*:[^.]*\b(?:at the end|last)\b"#, #"[a-z]+, (?<name>\w+)"#,
                        #"\d{3}|\b(?:gp|a&e)\b"#, #"(?<=x)y(?!z)"#, #"\.\?\(\)"#, #"^[\w'’-]+(?: [\w'’-]+){0,2}:"#,
                        #"["“']?(?:a|b)[^.]{0,30}—\s·"#, "[-a-c0-9-]", "[^-a]", #"\d\s?(?:µg|°c)"#] {
            #expect(CompiledPattern.foldsAlike(pattern), "\(pattern)")
        }
        for pattern in ["Dear", "stra\u{DF}e", "\u{212A}elvin", "[[:upper:]]+", "(?i)abc", "(?-i:abc)", #"\p{Ll}"#, #"\x41"#,
                        #"\QAbc\E"#, #"(a)\1"#, #"\N{LATIN SMALL LETTER A}"#, "[A-Z]", #"\u0041"#, "[!-_]", "[ -~]", "[a-\u{2014}]",
                        "\u{17F}", "caf\u{E9}", #"[\w-z]"#, #"[\--z]"#, #"\“"#] {
            #expect(!CompiledPattern.foldsAlike(pattern), "\(pattern)")
        }
    }

    /// Random patterns, some with what folding changes (a capital, a POSIX set, a property),
    /// on random lower-case ASCII texts: for each that qualifies, the case-sensitive form finds
    /// exactly the matches the case-insensitive one does; a text with capitals is run
    /// case-insensitively.
    @Test func theExactCaseFormMatchesAsTheFoldedOneOnLowerCaseText() throws {
        var generator = SeededGenerator(seed: 7)
        let atoms = ["a", "b", "k", "s", "ss", " ", ".", "[a-c]", "[^a]", #"\w"#, #"\s"#, #"\b"#, #"\W"#, "[:]", "(?:a|k)", "(?=s)", "(?!b)",
                     "K", "[A-C]", #"\p{Lu}"#, "[[:upper:]]", #"\x41"#, "“", "[’s]", "—", "µ", "\u{17F}", "[!-_]", "[a-c-]"]
        var compared = 0, matched = 0
        for round in 0..<400 {
            let pattern = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                atoms.randomElement(using: &generator)! + ["", "", "?", "+", "*", "{2}"].randomElement(using: &generator)!
            }.joined()
            let tag = "fold\(round)-"
            let compiled = CompiledPattern(tag + "|" + pattern, caseSensitive: false)
            guard CompiledPattern.foldsAlike(tag + "|" + pattern), let folded = compiled.regex else { continue }
            for _ in 0..<20 {
                let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                    ["a", "b", "k", "s", " ", ".", ":", "x", "-"].randomElement(using: &generator)!
                }.joined()
                let lowered = try #require(LoweredASCII(text))
                let exact = try #require(compiled.regex(for: lowered))
                #expect(exact !== folded)
                let range = NSRange(text.startIndex..., in: text)
                let a = folded.matches(in: text, range: range).map(\.range), b = exact.matches(in: text, range: range).map(\.range)
                #expect(a == b, "/\(pattern)/ on \(text.debugDescription)")
                compared += 1
                if !a.isEmpty { matched += 1 }
            }
            let capitals = try #require(LoweredASCII("SKA"))
            #expect(compiled.regex(for: capitals) === folded)
        }
        #expect(compared > 2000 && matched > 500, "\(compared) \(matched)")
    }
}

/// The cached forms of Foundation's pattern methods give Foundation's results.
@Suite struct CachedPatternMethodTests {
    @Test func rangesAndReplacementsMatchFoundations() {
        let cases: [(pattern: String, text: String, template: String, caseSensitive: Bool)] = [
            (#"\b(\w+)\s+(at most|more than)\s+(\d+)\b"#, "Sentences at most 3, questions more than 1.", "$2 $3 $1", true),
            (#"\(\s*"?([^()"]*)"?\s*\)"#, #"Say ( "hello" ) and (wave)."#, " $1", true),
            (#"^(?:clearly|gently)\s+"#, "Gently say no. gently again.", "", false),
            (#"^(?:clearly|gently)\s+"#, "Gently say no.", "", true),
            (#"(\*\*|__)[^\s*_][^*_]*(\*\*|__)"#, "**one** and __two__, ** not **", "<b>", true),
            (#"\bai\b"#, "the ai said AI, not aide", "an AI", true),
            (#""[^"]*"|“[^”]*”"#, #"keep "this" out and “that” too"#, "", true),
            (#"\{\{[^}]*\}\}"#, "Flag: {{risk.rule}}", "", true),
        ]
        for item in cases {
            let options: String.CompareOptions = item.caseSensitive ? [.regularExpression] : [.regularExpression, .caseInsensitive]
            #expect(item.text.replacingMatches(ofPattern: item.pattern, with: item.template, caseSensitive: item.caseSensitive)
                    == item.text.replacingOccurrences(of: item.pattern, with: item.template, options: options), "\(item.pattern)")
            #expect(item.text.ranges(ofPattern: item.pattern, caseSensitive: item.caseSensitive).first
                    == item.text.range(of: item.pattern, options: options), "\(item.pattern)")
        }
        #expect("**one** and __two__".ranges(ofPattern: #"(\*\*|__)[^\s*_][^*_]*(\*\*|__)"#).count == 2)
    }
}

/// `replacingText` gives what Foundation's `replacingOccurrences(of:with:)` gives, on ASCII
/// texts (which it searches itself) and on others (which it hands to Foundation).
@Suite struct ReplacingTextTests {
    @Test func replacesAsFoundationDoes() {
        var generator = SeededGenerator(seed: 5)
        let pieces = ["a", "b", "ab", " ", "\r\n", "\n", "*", "**", "_", "K", "é", "e\u{301}", "\u{212A}", "’", "—", ""]
        func text(_ count: ClosedRange<Int>) -> String {
            (0..<Int.random(in: count, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        var replaced = 0
        for _ in 0..<20_000 {
            let haystack = text(0...10), target = text(0...3), replacement = text(0...2)
            let ours = haystack.replacingText(target, with: replacement)
            let foundations = haystack.replacingOccurrences(of: target, with: replacement)
            #expect(ours == foundations, "\(haystack.debugDescription) \(target.debugDescription) \(replacement.debugDescription)")
            if ours != haystack { replaced += 1 }
        }
        #expect(replaced > 2_000, "\(replaced)")
        #expect("aaa".replacingText("aa", with: "b") == "ba")
        #expect("a\r\nb".replacingText("\n", with: " ") == "a\r b")
        #expect("Kelvin".replacingText("\u{212A}", with: "k") == "kelvin")
    }
}
