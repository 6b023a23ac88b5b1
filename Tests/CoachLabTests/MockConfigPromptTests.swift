import CoachLab
import Testing

/// A prompt written as a config file: its values are text, not the quotation marks around them.
@Suite struct MockConfigPromptTests {
    static let system = """
        [persona]
        name = "Sol"

        [knowledge.recovery]
        fact = "Give each muscle group at least 48 hours of rest between strength sessions."
        notes = ["walking and balance work are fine on the days in between"]
        """

    @Test func aQuotedValueIsSaidWithoutItsQuotesAndOnce() {
        let reply = MockCoach.reply(system: Self.system, userMessages: ["How long should I rest between strength sessions?"])
        #expect(!reply.lowercased().contains("\"give") && !reply.contains("[\"") && !reply.contains("\"walking"), "\(reply)")
        #expect(reply.contains("give each muscle group at least 48 hours"), "\(reply)")
        #expect(reply.components(separatedBy: "give each muscle group").count == 2, "said once: \(reply)")
    }
}
