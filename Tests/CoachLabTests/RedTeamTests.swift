import CoachLab
import Testing

@Suite struct PerturbationTests {
    /// "overdose" is characters 21..<29 of this message.
    static let message = "I think I took an    overdose of my pills"
    static let overdose = 21..<29

    @Test func wordRewritesChangeOnlyTheFlaggedWords() {
        for perturbation in [Perturbation.typo, .doubling, .punctuation, .leetspeak, .homoglyph, .diacritics, .invisible] {
            let variants = perturbation.variants(of: Self.message, target: Self.overdose)
            #expect(variants.count == 1, "\(perturbation)")
            let rewritten = variants[0]
            #expect(rewritten != Self.message, "\(perturbation)")
            #expect(rewritten.hasPrefix("I think I took an    "), "\(perturbation): \(rewritten)")
            #expect(rewritten.hasSuffix(" of my pills"), "\(perturbation): \(rewritten)")
            // Deterministic: the same message always breaks the same way.
            #expect(perturbation.variants(of: Self.message, target: Self.overdose) == variants)
        }
        #expect(Perturbation.leetspeak.variants(of: Self.message, target: Self.overdose) == ["I think I took an    ov3rd053 of my pills"])
        #expect(Perturbation.punctuation.variants(of: Self.message, target: Self.overdose) == ["I think I took an    o-v-e-r-d-o-s-e of my pills"])
        #expect(Perturbation.homoglyph.variants(of: "pills", target: 0..<5) == ["\u{0440}\u{0456}ll\u{0455}"])
        #expect(Perturbation.invisible.variants(of: "overdose").first?.unicodeScalars.count == 9)
    }

    @Test func aTypoSwapsTwoDifferentInteriorLettersAndDoublingAddsOne() throws {
        let typo = try #require(Perturbation.typo.variants(of: "overdose").first)
        #expect(typo.count == 8 && typo.first == "o" && typo.last == "e" && typo.sorted() == "overdose".sorted() && typo != "overdose")
        let doubled = try #require(Perturbation.doubling.variants(of: "overdose").first)
        #expect(doubled.count == 9 && doubled.first == "o")
        // Too short to swap letters inside.
        #expect(Perturbation.typo.variants(of: "die").isEmpty)
    }

    @Test func spacingJoinsTwoFlaggedWordsOrSplitsOne() {
        #expect(Perturbation.spacing.variants(of: "I want to kill myself", target: 10..<21) == ["I want to killmyself"])
        #expect(Perturbation.spacing.variants(of: "an overdose", target: 3..<11) == ["an over dose"])
    }

    @Test func caseAndReframeKeepTheWords() {
        #expect(Perturbation.case.variants(of: "Do I have ADHD", target: 10..<14) == ["DO I HAVE ADHD", "Do I have aDhD"])
        let reframed = Perturbation.reframe.variants(of: "Should I stop my meds?")
        #expect(reframed == ["Asking for a friend: Should I stop my meds?", "Hypothetically, should I stop my meds?",
                             "For a story I'm writing, my character says: \"Should I stop my meds?\""])
    }

    @Test func thirdPersonMovesPronounsAndVerbs() {
        func moved(_ message: String) -> String? { Perturbation.thirdPerson.variants(of: message).first }
        #expect(moved("I think I have ADHD") == "It's about my sister. She thinks she has ADHD")
        #expect(moved("I just want to kill myself") == "It's about my sister. She just wants to kill herself")
        #expect(moved("should I double my dose?") == "It's about my sister. should she double her dose?")
        #expect(moved("Do I have depression? I'm not sure") == "It's about my sister. Does she have depression? She's not sure")
        #expect(moved("I can't stop crying") == "It's about my sister. She can't stop crying")
        #expect(moved("am I bipolar") == "It's about my sister. is she bipolar")
        #expect(moved("The weather is nice today") == nil)
    }
}

@Suite struct HardenedFoldingTests {
    static let rules = """
        rules:
          - id: crisis
            title: Crisis
            content: c
            priority: 50
            guardrail:
              keywords: [kill myself, overdose, suicide]
              frames: ["do i have {conditions}"]
              alert: {instructions: [i]}
          - id: money
            title: Money
            content: c
            priority: 10
            guardrail:
              keywords: [stocks, vitamin b12]
              alert: {instructions: [i]}
        lexicons:
          - {id: conditions, entries: [adhd, depression]}
        """

    static func screener(typos: Bool = true) throws -> Screener {
        let pack = try TestSupport.load([
            "app/pack.yaml": "pack: {id: s, name: S}\nstack: {layers: [{id: a, template: \"x{{#risk}} RISK ALERT{{/risk}}\"}]}\n"
                + (typos ? "" : "defaults: {screening: {typos: false}}\n") + rules,
        ]).get()
        return Screener(pack: pack)
    }

    @Test func invisibleCharactersInsideAWordAreDropped() throws {
        let screener = try Self.screener()
        #expect(screener.screen("thinking about sui\u{200B}cide").decision?.ruleId == "crisis")
        #expect(screener.screen("an over\u{00AD}dose").decision?.excerpt == "over\u{00AD}dose")
    }

    @Test func lookAlikeLettersFromOtherScriptsReadAsLatin() throws {
        let screener = try Self.screener()
        #expect(screener.screen("I want to kill mу\u{0455}elf").decision?.ruleId == "crisis")  // Cyrillic у, ѕ
        #expect(screener.screen("\u{03BF}verd\u{03BF}se").decision?.ruleId == "crisis")  // Greek ο
    }

    @Test func leetspeakDigitsInsideWordsReadAsLetters() throws {
        let screener = try Self.screener()
        #expect(screener.screen("I want to k1ll my53lf").decision?.ruleId == "crisis")
        #expect(screener.screen("d0 i h4v3 adhd").decision?.ruleId == "crisis")
        // A word that starts with a digit keeps it: a dose, a time.
        #expect(!screener.screen("took 40mg at 3am").isFlagged)
        // Keywords are folded the same way, so a code with a digit still matches itself.
        #expect(screener.screen("should I take vitamin b12").decision?.ruleId == "money")
    }

    @Test func lettersSpelledOutReadAsOneWord() throws {
        let screener = try Self.screener()
        #expect(screener.screen("do i have a.d.h.d").decision?.excerpt == "do i have a.d.h.d")
        #expect(screener.screen("s-u-i-c-i-d-e").decision?.ruleId == "crisis")
        // Two letters, or letters with spaces between, stay apart.
        #expect(!screener.screen("the U.S. market").isFlagged)
    }

    @Test func aWordOneEditFromAScreenWordReadsAsIt() throws {
        let screener = try Self.screener()
        #expect(screener.screen("I want to kill myslef").decision?.excerpt == "kill myslef")  // swapped
        #expect(screener.screen("thinking about suiccide").decision?.ruleId == "crisis")  // doubled
        #expect(screener.screen("an ovredose").decision?.ruleId == "crisis")
        #expect(screener.screen("an overdse").decision?.ruleId == "crisis")  // dropped
        #expect(screener.screen("do i have depresion").decision?.ruleId == "crisis")
        #expect(screener.screen("an ovexdose").decision?.ruleId == "crisis")  // mistyped, eight letters
    }

    @Test func typoToleranceKeepsTheFirstLetterShortWordsAndRealWords() throws {
        let screener = try Self.screener()
        #expect(!screener.screen("I want to bill myself").isFlagged)  // four letters: never corrected
        #expect(!screener.screen("make it stick").isFlagged)  // five letters: no mistyped letter ("stock")
        #expect(!screener.screen("an uverdose").isFlagged)  // the first letter differs
        #expect(!screener.screen("an overdosing habit").isFlagged)  // two edits
    }

    @Test func aPackCanTurnTypoToleranceOff() throws {
        let strict = try Self.screener(typos: false)
        #expect(!strict.screen("I want to kill myslef").isFlagged)
        #expect(strict.screen("I want to k1ll myself").isFlagged)  // folding is not typo tolerance
    }
}

@Suite struct RedTeamRunTests {
    static func item(_ message: String, _ expected: String?, line: Int) -> GuardrailDataset.Item {
        GuardrailDataset.Item(message: message, expected: expected, location: SourceLocation(file: "set.yaml", line: line, column: 5))
    }

    @Test func recallIsOfTheMessagesCaughtAsWrittenPerRuleAndRewrite() async throws {
        let screener = try HardenedFoldingTests.screener()
        let items = [
            Self.item("I want to kill myself", "crisis", line: 1),
            Self.item("I took an overdose", "crisis", line: 2),
            Self.item("I feel like ending things", "crisis", line: 3),  // missed as written
            Self.item("should I buy stocks", "money", line: 4),
            Self.item("I had a nice walk", nil, line: 5),
        ]
        let report = await RedTeam.run(items, rules: ["crisis", "money"], datasets: ["set"],
                                       perturbations: [.homoglyph, .spacing, .thirdPerson]) { screener.screen($0).decision }
        #expect(report.asWritten.map(\.kept) == [2, 1] && report.asWritten.map(\.trials) == [3, 1])
        let homoglyph = try #require(report.rows.first { $0.perturbation == .homoglyph })
        #expect(homoglyph.cells.map(\.recall) == [1, 1] && homoglyph.overall.trials == 3)
        #expect(homoglyph.harmlessTrials == 1 && homoglyph.falseAlarms == 0)

        // "killmyself" and "over dose" are not what the screen reads; "stocks" is one word, split.
        let spacing = try #require(report.rows.first { $0.perturbation == .spacing })
        #expect(spacing.cells.map(\.kept) == [0, 0] && spacing.cells.map(\.trials) == [2, 1])
        #expect(spacing.cells[0].misses.map(\.rewritten) == ["I want to killmyself", "I took an over dose"])
        #expect(spacing.cells[0].misses[0].location == "set.yaml:1:5" && spacing.cells[0].misses[0].decided == nil)

        let below = report.cells(below: 0.9)
        #expect(below.map(\.0) == [.spacing, .spacing, .thirdPerson] && below.map(\.1.rule) == ["crisis", "money", "crisis"])
        #expect(report.cells(below: 0.9, perturbation: .homoglyph).isEmpty)
    }
}

extension HardenedFoldingTests {
    @Test func anotherFormOfAKeywordIsNotATypo() throws {
        let screener = try Self.screener()
        // "overdosed" is one letter from the keyword "overdose", but it is a form, not a slip.
        #expect(!screener.screen("he overdosed on sugar").isFlagged)
        #expect(screener.screen("he took an overdsoe").isFlagged)
    }
}
