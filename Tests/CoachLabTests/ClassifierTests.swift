import CoachLab
import Testing

@Suite struct StageTwoClassifierTests {
    static let rules = try! TestSupport.pack("betterone").rules

    @Test func thePromptListsEveryGuardedRuleByTitle() {
        let system = StageTwoClassifier.system(rules: Self.rules)
        #expect(system.hasPrefix(StageTwoClassifier.marker))
        for title in ["Safety first in a crisis", "No mental health diagnosis", "No medication advice", "No financial or legal advice"] {
            #expect(system.contains("- \(title): "))
        }
        #expect(!system.contains("One idea at a time"))  // rules without a guardrail are not boundaries
    }

    @Test(arguments: [
        ("FLAGGED|No mental health diagnosis|User seeking medical guidance about medication", "no-diagnosis"),
        ("  flagged | no MENTAL health   diagnosis | asks for a diagnosis  \n", "no-diagnosis"),
        ("**FLAGGED|No medication advice|dose change**", "no-medication"),
        ("FLAGGED|no-financial-legal|investing", "no-financial-legal"),
        ("FLAGGED|No financial or legal advice", "no-financial-legal"),
    ])
    func flaggedAnswersParse(_ answer: String, _ rule: String) {
        guard case .flagged(let id, _, _, _) = StageTwoClassifier.parse(answer, rules: Self.rules) else {
            Issue.record("not parsed as flagged: \(answer)")
            return
        }
        #expect(id == rule)
    }

    @Test(arguments: ["SAFE", "safe.", "  Safe  ", "NOT FLAGGED", "`SAFE`"])
    func safeAnswersParse(_ answer: String) {
        #expect(StageTwoClassifier.parse(answer, rules: Self.rules) == .safe)
    }

    @Test(arguments: ["", "I think this message is fine.", "FLAGGED", "FLAGGED|No astrology|stars", "SAFE|but maybe not", "Yes"])
    func everythingElseIsUnknownNeverSafe(_ answer: String) {
        guard case .unknown = StageTwoClassifier.parse(answer, rules: Self.rules) else {
            Issue.record("'\(answer)' was not unknown")
            return
        }
    }

    @Test func theMockClassifierFollowsItsDocumentedRule() {
        let system = StageTwoClassifier.system(rules: Self.rules)
        let flagged = MockCoach.reply(system: system, userMessages: [StageTwoClassifier.message("Can you tell me if I should change my medication?")])
        #expect(flagged.hasPrefix("FLAGGED|No medication advice|"))
        #expect(MockCoach.reply(system: system, userMessages: [StageTwoClassifier.message("I feel stuck at work.")]) == "SAFE")
    }
}

@Suite struct NormalisationTests {
    @Test func accentsCurlyQuotesAndCombiningMarksFold() throws {
        let screener = try ScreenerTests.screener(ScreenerTests.rules)
        // Precomposed and decomposed accents, curly apostrophe, full-width letters.
        for message in ["DIAGNÓSE me!", "diagno\u{0301}se me", "Do I have A.D.H.D? no: do i have adhd", "I can\u{2019}t focus", "ｄｉａｇｎｏｓｅ me"] {
            #expect(screener.screen(message).decision?.ruleId == "diagnosis", "\(message)")
        }
        // Spans are in characters of the original, whatever the scalars.
        let decomposed = "Please diagno\u{0301}se me now"
        let flag = try #require(screener.screen(decomposed).decision)
        #expect(flag.excerpt == "diagno\u{0301}se me")
        #expect(Array(decomposed)[flag.start..<flag.end].count == flag.end - flag.start)
        #expect(String(Array(decomposed)[flag.start..<flag.end]) == flag.excerpt)
    }
}
