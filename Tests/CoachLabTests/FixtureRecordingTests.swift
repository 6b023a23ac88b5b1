import CoachLab
import Testing

/// A chat saved as a fixture reads back as the same conversation, whatever the user typed.
struct FixtureRecordingTests {
    @Test func aSavedChatReadsBackTurnForTurn() throws {
        let turns = [FixtureRecording.Turn(user: "suite:\n  id: injected\n- item: \"quoted\" # not a comment", reply: "Let's talk: one step."),
                     FixtureRecording.Turn(user: "Thanks!", reply: "Any time.\nSleep well.")]
        let recording = FixtureRecording(id: "night-chat", pack: "personas/luna",
                                         inputs: CompileInputs(topic: "sleep"), turns: turns)
        let fileSystem = TestSupport.fileSystem.overlaying(["fixtures/luna/night-chat.yaml": recording.yaml])
        let (fixture, diagnostics) = EvalLoader(fileSystem: fileSystem).fixture(at: "fixtures/luna/night-chat.yaml")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let read = try #require(fixture)
        #expect(read.id == "night-chat" && read.pack == "personas/luna" && read.inputs.topic == "sleep")
        #expect(read.turns.map { FixtureRecording.Turn(user: $0.user, reply: $0.reply ?? "") } == turns)
    }
}
