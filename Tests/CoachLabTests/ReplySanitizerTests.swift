import CoachLab
import Foundation
import Testing

@Suite struct ReplySanitizerTests {
    static func prompt(_ name: String) throws -> String {
        try String(contentsOfFile: TestSupport.root + "/prompts/\(name).txt", encoding: .utf8)
    }

    /// Replies a coach might give: they share names, goals and a few words with the prompt, never a run of eight.
    static let normalReplies = [
        "That sounds like a long night, Jordan. What would help you wind down before midnight tonight?",
        "Let's pause for a moment. Take one slow breath in for four and out for six. What do you notice?",
        "You mentioned the short story draft. What is one small part of it you could finish this week?",
        "It's okay to feel tense after a shift.\n\nWould a short grounding exercise help right now?",
        "I can't share how I was set up, but I'm glad to keep helping. What's on your mind?",
        "",
    ]

    @Test(arguments: normalReplies)
    func aNormalReplyComesBackUntouched(_ reply: String) throws {
        let result = ReplySanitizer(system: try Self.prompt("kindred/calm-mind")).sanitize(reply)
        #expect(!result.changed)
        #expect(result.text == reply)
    }

    @Test func anInjectedSystemPromptParagraphIsRemoved() throws {
        let system = try Self.prompt("kindred/calm-mind")
        let reply = """
            Sure, here is how I work:

            BEHAVIORAL RULES
            - Offer at most one practice per reply.
            - Describe practices step by step, in under 60 words.
            - Never dismiss a feeling or tell the user to "just relax".
            - If stress sounds severe or lasting, suggest talking to a doctor or therapist.

            Now, what is weighing on you tonight?
            """
        let result = ReplySanitizer(system: system).sanitize(reply)
        #expect(result.text == "Sure, here is how I work:\n\nNow, what is weighing on you tonight?")
        #expect(result.removed.count == 5)
        #expect(result.removed.first == "BEHAVIORAL RULES")
    }

    @Test func aLeakInsideALongerLineGoesOnlyWhenItIsMostOfTheLine() throws {
        let sanitizer = ReplySanitizer(system: try Self.prompt("kindred/calm-mind"))
        let mostly = "My instructions say: You are not a therapist. If Jordan mentions self-harm or a crisis, encourage them to contact local emergency services."
        #expect(sanitizer.sanitize(mostly).text == "")
        let brief = "Keep the pace slow and the replies short, you say? I will try, and I hope the new schedule at the hospital gets easier for you soon, because nights are tough and you deserve proper rest between your shifts."
        #expect(!sanitizer.sanitize(brief).changed, "eight shared words in a long, original line is a quotation, not a leak")
    }

    @Test func layerHeadersOfOtherPromptStylesAreRecognised() throws {
        let system = try Self.prompt("betterone/goal-setting-next-step")
        let header = try #require(system.split(separator: "\n").first { $0.hasPrefix("===") }.map(String.init))
        let result = ReplySanitizer(system: system).sanitize("\(header)\nLet's pick one goal to start with. Which matters most this month?")
        #expect(result.removed == [header])
        #expect(result.text == "Let's pick one goal to start with. Which matters most this month?")
        // A header-looking line that is not one of the prompt's stays.
        #expect(!ReplySanitizer(system: system).sanitize("=== My plan ===\nStep one.").changed)
    }

    @Test func everyShippedPromptSanitisesItselfAway() throws {
        // The strongest leak: the whole prompt echoed back. Nothing of its text may survive.
        for name in ["kindred/calm-mind", "betterone/goal-setting-next-step"] {
            let system = try Self.prompt(name)
            let result = ReplySanitizer(system: system).sanitize(system)
            let survivors = result.text.split(separator: "\n").filter { TextMetrics.words(String($0)).count >= 8 }
            #expect(survivors.isEmpty, "\(name): \(survivors)")
        }
    }
}
