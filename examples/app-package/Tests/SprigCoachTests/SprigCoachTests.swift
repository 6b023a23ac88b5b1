import CoachLab
import Foundation
import SprigCoach
import Testing

/// The bundled pack compiles in the app's own process, as it would on a phone.
@Suite struct SprigCoachTests {
    let coach: SprigCoach
    let maya = SprigCoach.Member(name: "Maya", habit: "a ten-minute walk after lunch", streakDays: 12)

    init() throws { coach = try SprigCoach() }

    @Test func theBundledPackCompilesWithTheMembersOwnData() throws {
        let prompt = try coach.systemPrompt(for: maya, message: "I walked today!")
        #expect(prompt.system.contains("You are Sprig, a small-habits coach"))
        #expect(prompt.system.contains("You are talking with Maya, whose habit is a ten-minute walk after lunch."))
        #expect(prompt.system.contains("Their streak is 12 days."))
        #expect(prompt.system.contains("Keep each reply to at most 3 sentences."))
        #expect(!prompt.system.contains("needs care"))
    }

    @Test func aMessageThatTripsTheGuardedRuleAddsItsAlert() throws {
        let prompt = try coach.systemPrompt(for: maya, message: "I want to end my life")
        #expect(prompt.system.contains("This message needs care before anything else:"))
        #expect(prompt.system.contains("Give them 988, the Suicide and Crisis Lifeline, by call or text"))
    }

    @Test func theMembersWordsStayData() throws {
        let member = SprigCoach.Member(name: "{{persona.name}}", habit: "null", streakDays: 0)
        let prompt = try coach.systemPrompt(for: member, message: "hi")
        #expect(prompt.system.contains("You are talking with {{persona.name}}, whose habit is null."))
    }

    @Test func theContractTravelsWithThePack() throws {
        let contract = try #require(coach.contract)
        #expect(contract.endWithQuestion)
        #expect(contract.questions == 1)
    }
}
