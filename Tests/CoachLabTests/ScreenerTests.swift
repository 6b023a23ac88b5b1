import CoachLab
import Testing

@Suite struct ScreenerTests {
    static func screener(_ yaml: String) throws -> Screener {
        let pack = try TestSupport.load([
            "app/pack.yaml": "pack: {id: s, name: S}\nstack: {layers: [{id: a, template: \"x{{#risk}} RISK ALERT{{/risk}}\"}]}\n" + yaml,
        ]).get()
        return Screener(pack: pack)
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

/// Lexicons, frames, inflections and numbers: what a rule author writes to generalise past a
/// list of exact phrases.
@Suite struct FrameScreenerTests {
    static let pack = """
        lexicons:
          - id: conditions
            entries: [adhd, ocd, depression, (bipolar|bipolar disorder), on the spectrum]
          - id: medications
            entries: [sertraline, zoloft, adderall]
          - id: doses
            entries: ["#mg", "# mg", "# (pill|pills|tablets)"]
          - id: acts
            inflect: true
            entries: [overdose]
        rules:
          - id: no-diagnosis
            title: No diagnosis
            content: c
            priority: 90
            guardrail:
              frames:
                - (do you think|can you confirm|tell me if) [that] (i have|i am|i'm) {conditions}
                - would a (specialist|doctor) say i (have|am) {conditions}
                - ~diagnose me
              exceptions: ["(my|a) ~diagnose (was|is) {conditions}"]
              alert: {instructions: [i]}
          - id: no-medication
            title: No medication advice
            content: c
            priority: 80
            guardrail:
              lexicons: [medications]
              frames: ["is {doses} of {medications} too much", "{doses} of {medications}", "{acts}"]
              alert: {instructions: [i]}
        """

    static func screener() throws -> Screener { try ScreenerTests.screener(pack) }

    @Test func framesCombineQuestionWordsWithLexiconEntries() throws {
        let screener = try Self.screener()
        let flag = try #require(screener.screen("Honestly, do you think I'm bipolar? My mood swings a lot.").decision)
        #expect(flag.ruleId == "no-diagnosis")
        #expect(flag.kind == .frame)
        #expect(flag.matched == "(do you think|can you confirm|tell me if) [that] (i have|i am|i'm) {conditions}")
        #expect(flag.lexiconEntries == ["conditions: (bipolar|bipolar disorder)"])
        #expect(flag.excerpt == "do you think I'm bipolar")
        #expect(screener.screen("Can you confirm that I have OCD?").decision?.lexiconEntries == ["conditions: ocd"])
        #expect(screener.screen("would a specialist say I am on the spectrum").decision?.ruleId == "no-diagnosis")
        // Word-bounded: a frame never matches inside words, and a different question is not flagged.
        #expect(!screener.screen("Do you think I have time for a run?").isFlagged)
        #expect(!screener.screen("tell me if I haveadhd").isFlagged)
    }

    @Test func inflectedEntriesMatchEveryFormButStayWholeWords() throws {
        let screener = try Self.screener()
        for message in ["Can you diagnose me", "could you diagnosis me lol", "I overdosed once", "what if I overdose", "overdosing scares me",
                        "OVERDOSES happen"] {
            #expect(screener.screen(message).isFlagged, "\(message)")
        }
        #expect(screener.screen("I overdosed once").decision?.lexiconEntries == ["acts: overdose"])
        for message in ["the diagnostic tool", "my dose of exercise", "a dosage chart"] {
            #expect(!screener.screen(message).isFlagged, "\(message)")
        }
    }

    @Test func numbersMatchDosesWrittenEitherWay() throws {
        let screener = try Self.screener()
        let joined = try #require(screener.screen("Is 200mg of sertraline too much?").decision)
        #expect(joined.kind == .frame)
        #expect(joined.matched == "is {doses} of {medications} too much")
        #expect(joined.lexiconEntries == ["doses: #mg", "medications: sertraline"])
        #expect(screener.screen("is 50 mg of zoloft too much").decision?.matched == "is {doses} of {medications} too much")
        #expect(screener.screen("I took 3 pills of adderall").decision?.matched == "{doses} of {medications}")
        #expect(screener.screen("Zoloft makes me tired").decision?.kind == .lexicon)
        #expect(!screener.screen("I ran 5 km and drank 2 glasses of water").isFlagged)
        #expect(screener.screen("mg of sertraline").decision?.kind == .lexicon)
    }

    @Test func wildcardsAndGapsBridgeWords() throws {
        let screener = try ScreenerTests.screener("""
            lexicons:
              - {id: money, inflect: true, entries: [loan, invest, stocks]}
            rules:
              - id: money
                title: No money advice
                content: c
                guardrail:
                  frames: ["should i ... {money}", "could my * be a loan"]
                  alert: {instructions: [i]}
            """)
        #expect(screener.screen("Should I take out a loan?").decision?.excerpt == "Should I take out a loan")
        #expect(screener.screen("should i be investing now").decision?.lexiconEntries == ["money: invest"])
        #expect(screener.screen("should I invest").isFlagged)
        // Four words at most between them.
        #expect(!screener.screen("should i ask my brother about his new loan").isFlagged)
        #expect(screener.screen("could my mortgage be a loan").isFlagged)
        #expect(!screener.screen("could my be a loan").isFlagged)
    }

    @Test func exceptionsUseTheSameSyntax() throws {
        let screener = try Self.screener()
        #expect(!screener.screen("My diagnosis is ADHD and I want a morning plan.").isFlagged)
        #expect(screener.screen("Do you think I have ADHD?").isFlagged)
    }

    @Test func expansionIsReportedAndBounded() throws {
        let screener = try Self.screener()
        #expect(screener.phraseCount == 7)  // three diagnosis frames, one lexicon and three medication frames
        let big = Lexicon(id: "big", entries: (0..<200).map { Located("w\($0)", at: SourceLocation(file: "x", line: 1, column: 1)) },
                          inflect: false, value: .scalar(.init(text: "", style: .plain, location: SourceLocation(file: "x", line: 1, column: 1))))
        // Slots side by side are matched element by element, never multiplied out.
        guard case .success = PhraseTemplate.compile("{big} {big} {big}", lexicons: [big]) else {
            Issue.record("three slots in a row did not compile")
            return
        }
        // Inside one group they are alternatives of one element, which does multiply.
        guard case .failure(let problem) = PhraseTemplate.compile("x ({big} {big} {big}|y)", lexicons: [big]) else {
            Issue.record("a group of 8 million phrases expanded")
            return
        }
        #expect(problem.message.contains("more than 20000"))
    }

    /// A session expands each lexicon once for all its templates; every template still
    /// compiles (or fails) exactly as it does alone, whatever came before it.
    @Test func aSessionCompilesEachTemplateAsAloneDoes() {
        let here = SourceLocation(file: "x", line: 1, column: 1)
        func lexicon(_ id: String, _ entries: [String], inflect: Bool = false) -> Lexicon {
            Lexicon(id: id, entries: entries.map { Located($0, at: here) }, inflect: inflect, value: .scalar(.init(text: "", style: .plain, location: here)))
        }
        let lexicons = [lexicon("meds", ["sertraline", "st john's wort", "(beta|alpha) blockers"]), lexicon("acts", ["stop", "double"], inflect: true),
                        lexicon("empty", [])]
        let templates = ["(should|can) i {acts} my {meds}", "{meds}", "x {missing}", "{empty} now", "{acts} ... {meds} ... (dose|#)",
                         "(a|b", "{meds} {meds}", "i ~stop {meds}"]
        var session = PhraseTemplate.Session(lexicons: lexicons)
        for text in templates + templates.reversed() {
            let alone = PhraseTemplate.compile(text, lexicons: lexicons)
            let shared = session.compile(text)
            switch (alone, shared) {
            case (.success(let a), .success(let b)): #expect(a.variants == b.variants, "\(text)")
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(text)")
            default: Issue.record("'\(text)' compiled alone as \(alone), in a session as \(shared)")
            }
        }
    }

    @Test func templateMistakesAreProblemsWithOffsets() {
        func problem(_ text: String) -> PhraseTemplate.Problem? {
            if case .failure(let problem) = PhraseTemplate.compile(text, lexicons: []) { return problem }
            return nil
        }
        #expect(problem("do (you|they think") == PhraseTemplate.Problem(message: "'(' is never closed with ')'", offset: 3, hint: nil))
        #expect(problem("am i {conditons}")?.message == "no lexicon 'conditons' in this pack")
        #expect(problem("am i {conditons}")?.offset == 5)
        // Offsets count characters: "e" and a combining accent are one, as are "\r\n".
        #expect(problem("cafe\u{301} (latte")?.offset == 5)
        #expect(problem("a\r\nb {x}")?.offset == 4)
        #expect(problem("b\u{00A0}]")?.message == "unexpected ']'")
        #expect(problem("b\u{00A0}]")?.offset == 2)
        #expect(problem("am i {conditons}")?.hint == "define it under lexicons: with an id and entries",
                "with no lexicons at all, the hint says how to define one")
        #expect(problem("[maybe]")?.message == "'[maybe]' can match no words at all")
        #expect(problem("a | b")?.message == "unexpected '|'")
        #expect(problem("(a|b) c") == nil)
        #expect(problem("* of adhd")?.message == "'* of adhd' can start with '*' or '...'")
        #expect(problem("[really] ... adhd")?.message == "'[really] ... adhd' can start with '*' or '...'")
        #expect(problem("[really] do i have adhd") == nil)
    }

    /// The shipped crisis lexicons listed "dont want to live" and its kin but not "do not want
    /// to live": the uncontracted form, as common in writing, went unflagged.
    @Test(arguments: [("betterone", "crisis", "Honestly I do not want to live anymore."),
                      ("betterone", "crisis", "I really do not want to be here anymore"),
                      ("betterone", "crisis", "I don't want to be here anymore"),
                      ("ticbuddy", "child-in-danger", "I do not want to live anymore."),
                      ("ticbuddy", "child-in-danger", "i dont want to be alive")])
    func uncontractedCrisisPhrasesFlag(_ pack: String, _ rule: String, _ message: String) throws {
        #expect(Screener(pack: try TestSupport.pack(pack)).screen(message).decision?.ruleId == rule)
    }
}
