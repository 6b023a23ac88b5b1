import CoachLab
import Testing

@Suite struct ScreenerTests {
    static func screener(_ yaml: String) throws -> Screener {
        let pack = try TestSupport.load([
            "app/pack.yaml": "pack: {id: s, name: S}\nstack: {layers: [{id: a, template: \"x{{#risk}} RISK ALERT{{/risk}}\"}]}\n" + yaml,
        ]).get()
        return Screener(rules: pack.rules)
    }

    static let rules = """
        rules:
          - id: diagnosis
            title: No diagnosis
            content: c
            priority: 10
            guardrail:
              keywords: [diagnose me, do i have adhd, self harm, can't focus]
              exceptions: [diagnosed last year]
              alert: {instructions: [i]}
          - id: abuse
            title: Abuse
            content: c
            priority: 50
            guardrail:
              keywords: [rapist]
              patterns: ["\\\\bhits? me\\\\b"]
              alert: {instructions: [i]}
          - id: plain
            title: No guardrail
            content: c
        """

    @Test func matchesWholeWordsAcrossCaseAndPunctuation() throws {
        let screener = try Self.screener(Self.rules)
        let result = screener.screen("Please... DIAGNOSE me!")
        #expect(result.decision?.ruleId == "diagnosis")
        #expect(result.decision?.excerpt == "DIAGNOSE me")
        #expect(result.decision?.start == 10)
        #expect(result.decision?.end == 21)
    }

    @Test func neverMatchesInsideAWord() throws {
        let screener = try Self.screener(Self.rules)
        #expect(!screener.screen("My therapist says I'm doing well.").isFlagged)
        #expect(screener.screen("He is a rapist.").decision?.ruleId == "abuse")
    }

    @Test func foldsCurlyQuotesAccentsAndHyphens() throws {
        let screener = try Self.screener(Self.rules)
        #expect(screener.screen("I can\u{2019}t focus at all").decision?.ruleId == "diagnosis")
        #expect(screener.screen("Do I have ÁDHD?").decision?.excerpt == "Do I have ÁDHD")
        #expect(screener.screen("thinking about self-harm").decision?.excerpt == "self-harm")
    }

    @Test func strippingSpacesNeverJoinsWords() throws {
        let screener = try Self.screener(Self.rules)
        #expect(!screener.screen("selfharm").isFlagged)
        #expect(!screener.screen("diagnoseme").isFlagged)
    }

    @Test func exceptionsCancelOnlyTheMatchTheyOverlap() throws {
        let screener = try Self.screener("""
            rules:
              - id: d
                title: D
                content: c
                guardrail:
                  keywords: [diagnosed]
                  exceptions: [diagnosed last year]
                  alert: {instructions: [i]}
            """)
        #expect(!screener.screen("I was diagnosed last year and want to plan my week").isFlagged)
        #expect(screener.screen("I was diagnosed last year, and diagnosed again today").decision?.start == 31)
    }

    @Test func patternsMatchWithSpans() throws {
        let screener = try Self.screener(Self.rules)
        let flag = try #require(screener.screen("Sometimes he hits me when he's angry").decision)
        #expect(flag.kind == .pattern)
        #expect(flag.excerpt == "hits me")
        #expect(flag.stage == 1)
    }

    @Test func highestPriorityDecidesAndAllFlagsAreKept() throws {
        let screener = try Self.screener(Self.rules)
        let result = screener.screen("Diagnose me, he hits me")
        #expect(result.flags.map(\.ruleId) == ["abuse", "diagnosis"])
        #expect(result.decision?.ruleId == "abuse")
    }

    @Test func shippedNearMissesStayUnflagged() throws {
        let betterone = try TestSupport.compiler("betterone")
        #expect(betterone.screen("Do I have ADHD? I can't focus on anything.").decision?.ruleId == "no-diagnosis")
        #expect(!betterone.screen("I was diagnosed last year and want to plan my week").isFlagged)
        #expect(!betterone.screen("My therapist isn't helping me set goals").isFlagged)
        #expect(!betterone.screen("I want to set goals but I have like 15 things").isFlagged)
        let luna = try TestSupport.compiler("luna")
        #expect(luna.screen("I can't do this anymore").decision?.ruleId == "crisis")
        #expect(!luna.screen("I can't sleep, my mind keeps racing").isFlagged)
    }
}

@Suite struct ConditionTests {
    @Test func parsesAndEvaluates() throws {
        let condition = try Condition(parsing: "coach.template && (memory || !profile) && topic.slug != \"x\"")
        #expect(condition.paths == ["coach.template", "memory", "profile", "topic.slug"])
    }

    @Test(arguments: ["", "&&", "a &&", "(a", "a b", "a == ", "a ~ b", "'open"])
    func rejectsMalformed(_ text: String) {
        #expect(throws: Condition.ParseError.self) { try Condition(parsing: text) }
    }
}

@Suite struct SupportTests {
    @Test func unifiedDiffShowsTheChangedLineWithContext() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n")
        let new = old.replacingOccurrences(of: "line 5", with: "line five")
        let diff = UnifiedDiff.diff(old: old, new: new, oldName: "a", newName: "b")
        #expect(diff == """
            --- a
            +++ b
            @@ -2,7 +2,7 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8

            """)
        #expect(UnifiedDiff.diff(old: old, new: old, oldName: "a", newName: "b").isEmpty)
    }

    @Test func datesParseWithAndWithoutOffsets() throws {
        let night = try #require(LocalDateTime(parsing: "2026-03-01T03:12:00-05:00"))
        #expect(night.hour == 3 && night.weekdayName == "Sunday" && night.offsetSeconds == -18_000)
        #expect(night.description == "2026-03-01T03:12:00-05:00")
        #expect(LocalDateTime(parsing: "2026-02-30") == nil)
        #expect(LocalDateTime(parsing: "2026-03-01T25:00") == nil)
        #expect(try #require(LocalDateTime(parsing: "2026-03-01")) < night)
    }

    @Test func stableHashIsStable() {
        #expect(StableHash.hex("") == "cbf29ce484222325")
        #expect(StableHash.hex("a") == "af63dc4c8601ec8c")
    }
}
