@testable import CoachLab
import Foundation
import Testing

/// The compiled prompt's source map: which value of the pack each rendered text is, whatever
/// the template says around it.
@Suite struct PromptStructureTests {
    @Test func aFlaggedPromptNamesItsAlertInstructionsKnowledgeAndName() throws {
        let compiler = try TestSupport.compiler("betterone")
        let flagged = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step", profile: "freelance-designer",
                                                         screen: "Do I have ADHD? I can't focus on anything."),
                                           fileSystem: TestSupport.fileSystem)
        let structure = flagged.structure
        #expect(structure.parts(.alertInstruction).map(\.text) == ["Acknowledge the user's concern with empathy",
                                                                    "Explain this falls outside your coaching scope",
                                                                    "Suggest they speak to a qualified professional",
                                                                    "Keep your response warm and supportive"])
        #expect(structure.parts(.alertInstruction).allSatisfy { $0.layer == "response" })
        #expect(structure.parts(.name).map(\.text).contains("Simon"), "\(structure.parts(.name))")
        let knowledge = structure.parts(.knowledge)
        #expect(!knowledge.isEmpty && knowledge.allSatisfy { $0.layer == "knowledge" })
        #expect(knowledge.contains { $0.field == "coreIdea" })
        // Each part is in the prompt as rendered.
        #expect(structure.parts.allSatisfy { flagged.system.contains($0.text) })
        // The user's profile is data.
        #expect(!structure.parts(.data).isEmpty)

        let calm = try compiler.compile(CompileInputs(topic: "goal-setting", intent: "next_step", profile: "freelance-designer"),
                                        fileSystem: TestSupport.fileSystem)
        #expect(calm.structure.parts(.alertInstruction).isEmpty)
    }

    /// The structure is the compiler's: it is not written with the prompt.
    @Test func theStructureIsNotEncoded() throws {
        let compiler = try TestSupport.compiler("luna")
        let prompt = try compiler.compile(CompileInputs(variant: compiler.pack.variants.first?.id), fileSystem: TestSupport.fileSystem)
        #expect(!prompt.structure.parts.isEmpty)
        #expect(!prompt.jsonString().contains("structure"))
    }

    /// A pack in a house style no reader of the mock was written for: a spec's numbered
    /// clauses around its values. What the compiler knows, the mock takes.
    static let spec = """
        pack: {id: sprout, name: Sprout}
        persona: {name: Juniper}
        stack:
          layers:
            - id: spec
              template: |
                1.1 Designation: {{persona.name}}.
                1.2 Scope: family food planning.
                {{#knowledge}}
                K.{{position}} {{coreIdea}}
                {{/knowledge}}
            - id: escalation
              when: risk
              template: |
                9.0 Escalation state engaged. {{risk.alert.reason}}
                {{#risk.alert.instructions}}
                9.{{position}} {{.}}
                {{/risk.alert.instructions}}
        topics:
          - slug: leftovers
            title: Leftovers
            knowledge:
              - id: fridge
                title: Fridge life
                coreIdea: Cooked rice keeps in the fridge for at most one day before it should be binned.
        rules:
          - id: fainting
            title: Fainting
            content: Fainting is an emergency.
            guardrail:
              keywords: [fainted]
              alert:
                reason: Someone may have lost consciousness.
                instructions:
                  - Have them lie down and raise their legs
                  - Tell the member to call emergency services right now
                  - Do not mention food, recipes or meal plans
        """

    @Test func theMockTakesTheNameFactsAndAlertFromTheStructure() throws {
        let pack = try #require(TestSupport.load(["app/pack.yaml": Self.spec]).pack)
        let compiler = try Compiler(pack: pack)
        let calm = try compiler.compile(CompileInputs(topic: "leftovers"), fileSystem: .inMemory([:]))
        // Without the structure, the prose readers miss the name in this style.
        #expect(MockReading(system: calm.system).name == nil)
        let reading = MockReading(system: calm.system, structure: calm.structure)
        #expect(reading.name == "Juniper")
        #expect(reading.all(.knowledge).contains { $0.value.contains("Cooked rice keeps in the fridge") })

        let message = "My dad just fainted in the kitchen!"
        let flagged = try compiler.compile(CompileInputs(topic: "leftovers", screen: message), fileSystem: .inMemory([:]))
        let reply = MockCoach.reply(system: flagged.system, userMessages: [message], structure: flagged.structure)
        #expect(reply.contains("lie down and raise your legs"), "\(reply)")
        #expect(reply.contains("call emergency services right now"), "\(reply)")
        #expect(!reply.lowercased().contains("rice"), "a don't line of the alert leaves coaching out: \(reply)")
        // The same prompt read without its structure follows none of it.
        let unread = MockCoach.reply(system: flagged.system, userMessages: [message])
        #expect(!unread.contains("raise your legs"), "\(unread)")
    }

    /// An instruction no reader understands is followed as the usual instruction of its kind.
    @Test(arguments: [
        ("Have them lie down and raise their legs", "Please lie down and raise your legs."),
        ("MUST give the Helpline, 1-800-522-4700 (free, 24/7).", "Here is the Helpline, 1-800-522-4700."),
        ("MUST NOT suggest loans or balance transfers", nil),
        ("Close by asking whether help is on the way", "Is help on the way?"),
        ("If the person has an auto-injector (EpiPen), tell the member to use it immediately",
         "If the person has an auto-injector (EpiPen), please use it immediately."),
        ("If the message mentions self-harm, also give 988 and 911 for immediate danger", "You can reach 988 and 911 for immediate danger."),
    ] as [(String, String?)])
    func anUnreadInstructionIsFollowedAsItsKindIs(_ instruction: String, _ said: String?) {
        switch MockDirective.followed(instruction) {
        case .say(let sentence): #expect(sentence == said)
        case .suppress(let what): #expect(said == nil && what == "coaching")
        case .cite: Issue.record("cited \(instruction)")
        }
    }
}
