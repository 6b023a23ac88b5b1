@testable import CoachLab
import Foundation
import Testing

/// The alert's instructions as the mock says them: each is one mechanism, with lines it reads
/// and lines it leaves alone.
@Suite struct MockDirectiveTests {
    /// A question about someone the listener is with is asked verb first; a lead-in that counts
    /// the questions ("Ask one question only, whether…") is not part of it.
    @Test(arguments: [
        ("Ask one question only, whether the baby is breathing and responding right now.", "Is the baby breathing and responding right now?"),
        ("Ask whether the baby is breathing", "Is the baby breathing?"),
        ("Ask a single question: whether the dog has eaten anything", "Has the dog eaten anything?"),
        ("Ask whether they are safe right now", "Are you safe right now?"),
    ])
    func aQuestionAboutSomeoneIsAskedVerbFirst(_ line: String, _ said: String) {
        #expect(MockDirective.read(line) == .say(said))
    }

    /// A comma between the adjectives of one thing does not end the instruction; one before a
    /// new clause still does.
    @Test(arguments: [
        ("Tell them to lay the baby on a firm, flat surface, put the phone on speaker and follow the dispatcher's instructions",
         "Please lay the baby on a firm, flat surface."),
        ("Tell them to move the person into a warm, dry room right away", "Please move the person into a warm, dry room right away."),
    ])
    func aCommaInsideANounPhraseIsNotACut(_ line: String, _ said: String) {
        #expect(MockDirective.read(line) == .say(said), "\(String(describing: MockDirective.read(line)))")
    }
}

/// A fact whose clip cut its figure short is carried on to the figure's end.
@Suite struct FigureCompletionTests {
    @Test func aFigureCutByTheClipIsSaidWhole() {
        let prompt = """
            FACTS
            - In the first weeks a newborn feeds 8 to 12 times in 24 hours, about every 2 to 3 hours.
            - After employer health coverage ends, you usually have 60 days to elect COBRA continuation coverage, and the cover is back-dated.
            """
        let words = SystemWords.shared.index(of: prompt)
        #expect(MockReading.figureCompleted("in the first weeks a newborn feeds 8",
                                            from: "in the first weeks a newborn feeds 8 to 12 times in 24 hours, about every 2 to 3 hours.", in: words)
                == "a newborn feeds 8 to 12 times")
        #expect(MockReading.figureCompleted("after employer health coverage ends, you usually have 60",
                                            from: "after employer health coverage ends, you usually have 60 days to elect COBRA continuation coverage, and the cover is back-dated.",
                                            in: words) == "after employer health coverage ends, you have 60 days")
        // A clip that ends on a word, not a figure, is left as it is.
        #expect(MockReading.figureCompleted("if you are 40 or older, a severance agreement",
                                            from: "if you are 40 or older, a severance agreement must give you 21 days.", in: words) == nil)
    }
}
