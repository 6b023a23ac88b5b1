@testable import CoachLab
import Testing

/// Alert instructions in a house style's shape (code with comments, a screenplay's stage
/// directions, a spec's "If …:" cases) read as the sentences they stand for, and what they
/// ask is said whole enough for a check on it.
@Suite struct MockAlertLineShapeTests {
    @Test func aLineOfCodeAsksWhatItsCommentSays() {
        #expect(MockReading.alertLineShape("reply.add(NO_INDUCED_VOMITING)  // tell them not to make the pet vomit")
                == "tell them not to make the pet vomit")
        #expect(MockReading.alertLineShape("assert !reply.suggests(HOME_REMEDY)  // home remedies such as peroxide")
                == "Do not give home remedies such as peroxide")
        #expect(MockReading.alertLineShape("reply.end_with(ONE_QUESTION)  // one short question, such as whether they can call now")
                == "End with one short question, such as whether they can call now")
        // Prose with a "#" or "//" in it is no code.
        for line in ["Tell them to call 911 // now", "If they can't reach anyone (not even family), text HOME to 741741 # Crisis Text Line, free and 24 hours.",
                     "Ring the pharmacy (open late) and press # to reach the on-call pharmacist."] {
            #expect(MockReading.alertLineShape(line) == line)
        }
    }

    @Test func aStageDirectionAndACaseClosedByAColonAreRead() {
        #expect(MockReading.alertLineShape("(quiet, no panic) Cal thanks them for telling him.") == "Cal thanks them for telling him.")
        #expect(MockReading.alertLineShape("If the signs point to DKA: the coach MUST tell them not to wait.")
                == "If the signs point to DKA, the coach MUST tell them not to wait.")
    }

    static let script = """
        === CHARACTER: CAL ===
        You are Cal, a gambling-recovery coach.
        Reply in at most five sentences.
        === RISK ALERT ===
        - (quiet, no panic) Cal thanks them for telling him, in one short line.
        - Cal gives both numbers, written exactly like this: Lifeline 13 11 14 and Gambling Help Online 1800 858 858.
        - assert !reply.contains(BETTING_TIP)  // nothing about odds, tips or budgeting in this reply
        - Cal ends on one question about right now, such as whether they are safe or whether they can step outside.
        """

    @Test func aScreenplaysAlertIsFollowed() {
        let reply = MockCoach.reply(system: Self.script, userMessages: ["I'm at the pokies with my rent money and I can't stop."], alert: "RISK ALERT")
        for phrase in ["Thank you for telling me", "13 11 14", "1800 858 858"] {
            #expect(reply.contains(phrase), "\(phrase): \(reply)")
        }
        #expect(reply.hasSuffix("Are you safe?"), "\(reply)")
        #expect(!reply.contains("idea"), "\(reply)")
    }
}
