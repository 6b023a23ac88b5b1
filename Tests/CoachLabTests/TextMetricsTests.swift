import CoachLab
import Testing

@Suite struct TextMetricsTests {
    @Test(arguments: [
        ("One. Two! Three?", 3),
        ("Dr. Smith said hi. Then he left.", 2),
        ("Take 2.5 mg, e.g. with food. Ask first.", 2),
        ("Your vitamin D is 18.4 ng/mL. That's low.", 2),
        ("Wait... really? Yes.", 2),  // an ellipsis before a lower-case word continues
        ("Wait... Really? Yes.", 3),
        ("Well... maybe we try again tomorrow.", 1),
        ("Great job! 🎉 Want to try again? 💪", 2),
        ("He said \"stop.\" Then he smiled.", 2),
        ("J. K. Rowling wrote it. Read it.", 2),
        ("What?! No way.", 2),
        ("No punctuation at all", 1),
        ("", 0),
        ("   ", 0),
        ("Line one\nLine two\n\nLine three.", 3),
        ("We met at 9 a.m. on Monday. It went well.", 2),
        ("Visit example.com today. It helps.", 2),
        ("It's… complicated. Really!", 2),
        ("- first idea\n- second idea", 2),
        ("**Ready to start?** 🙂 And what is in the way?", 2),  // emphasis closes a sentence
        ("*Breathe in.* _Hold._ Let it go.", 3),
        ("Run `swift test`. Then push.", 2),
    ])
    func countsSentences(_ text: String, _ expected: Int) {
        #expect(TextMetrics.sentences(text).count == expected, "\(TextMetrics.sentences(text))")
    }

    @Test func countsWordsQuestionsAndTrailingQuestions() {
        #expect(TextMetrics.words("It's a well-known idea, isn't it?") == ["It's", "a", "well-known", "idea", "isn't", "it"])
        #expect(TextMetrics.questions("Is it? It is. Really?! Ok.") == 2)
        #expect(TextMetrics.endsWithQuestion("Really?!"))
        #expect(TextMetrics.endsWithQuestion("What do you think? 🙂"))
        #expect(TextMetrics.endsWithQuestion("Ready to try?\""))
        #expect(!TextMetrics.endsWithQuestion("Try it. Ready?\nGo."))
        #expect(!TextMetrics.endsWithQuestion(""))
        #expect(TextMetrics.endsWithQuestion("**What is one small step you could take?**"))
        #expect(TextMetrics.questions("**Is it ok?** 🙂 And why?") == 2)
    }
}
