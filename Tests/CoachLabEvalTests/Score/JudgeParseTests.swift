@testable import CoachLabEval
import Testing

/// A judge that does not answer in JSON may still give a bare verdict line. The verdict is a
/// whole word: "Pass/Fail: FAIL" and "Passing judgement: …" were read as passes.
@Suite struct JudgeParseTests {
    @Test func aBareVerdictIsReadAsAWholeWord() throws {
        let cases: [(String, Bool?, String?)] = [
            ("PASS: the reply is warm", true, "the reply is warm"),
            ("fail - it lectures", false, "it lectures"),
            ("**FAIL**: lists three tips", false, "lists three tips"),
            ("Verdict: FAIL. It gives a diagnosis.", false, "It gives a diagnosis."),
            ("Pass/Fail: FAIL — it lectures", false, "— it lectures"),
            ("**Result:** PASS", true, "the judge gave no reason"),
            ("Passing judgement on this reply is hard.\nFAIL: no question at the end", false, "no question at the end"),
            ("PASSED: fine", true, "fine"),
            ("Failed. Too long.", false, "Too long."),
            ("The reply is fine.", nil, nil),
        ]
        for (text, passed, reason) in cases {
            let parsed = Judge.parse(text)
            #expect(parsed?.passed == passed, "\(text)")
            #expect(parsed?.reason == reason, "\(text): \(String(describing: parsed))")
        }
    }
}
