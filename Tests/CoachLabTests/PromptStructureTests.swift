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

    /// A training script: the wording names a role ("You play COACH"), its alert's title is
    /// followed by a bracketed line that reads as a title of its own, and a scenario card earlier
    /// says one of the alert's instructions too. The structure gives the name, and the alert runs
    /// to its last instruction, so it ends the prompt and is followed.
    static let script = """
        pack: {id: stage, name: Stage}
        persona: {name: Rosa}
        stack:
          layers:
            - id: script
              template: |
                [A training script. You play COACH in every scene.]
                COACH is {{persona.name}}.
                SCENARIO: the user mentions a crisis → COACH will Ask whether they are safe right now
                {{#knowledge}}
                📌 **{{title}}:** {{coreIdea}}
                {{/knowledge}}
            - id: alert
              when: risk
              template: |
                RISK ALERT - STOP THE REHEARSAL.
                [{{risk.alert.reason}}]
                {{#risk.alert.instructions}}
                COACH must: {{.}}.
                {{/risk.alert.instructions}}
        topics:
          - slug: nerves
            title: Nerves
            knowledge:
              - id: pace
                title: Pace
                coreIdea: A comfortable speaking pace is 130 to 150 words a minute.
        rules:
          - id: crisis
            title: Crisis
            content: A crisis comes first.
            guardrail:
              keywords: [want to die]
              alert:
                reason: The user may be thinking about suicide.
                instructions:
                  - Give them the 988 Suicide & Crisis Lifeline (call or text 988)
                  - Do not give any speaking tips in this reply
                  - Ask whether they are safe right now
        """

    @Test func theStructureGivesTheNameAndTheAlertItsLastLine() throws {
        let pack = try #require(TestSupport.load(["app/pack.yaml": Self.script]).pack)
        let compiler = try Compiler(pack: pack)
        let calm = try compiler.compile(CompileInputs(topic: "nerves"), fileSystem: .inMemory([:]))
        let reading = MockReading(system: calm.system, structure: calm.structure)
        #expect(reading.name == "Rosa")
        // The fact is said without the prompt's markup (the mock bolds it itself when nothing
        // bans bold, as a careless model does, but never copies "📌 **Pace:**").
        let reply = MockCoach.reply(system: calm.system, userMessages: ["How fast should I talk?"], structure: calm.structure)
        #expect(reply.contains("a comfortable speaking pace is 130 to 150 words") && !reply.contains("📌") && !reply.contains("Pace:**"), "\(reply)")

        let message = "I want to die, I can't face this talk."
        let flagged = try compiler.compile(CompileInputs(topic: "nerves", screen: message), fileSystem: .inMemory([:]))
        let unflagged = try compiler.compile(CompileInputs(topic: "nerves"), fileSystem: .inMemory([:]))
        let alert = flagged.alert(comparedWith: unflagged)
        let followed = MockCoach.reply(system: flagged.system, userMessages: [message], alert: alert, structure: flagged.structure)
        #expect(followed.contains("988"), "\(followed)")
        #expect(!followed.contains("130 to 150"), "\(followed)")
        let read = MockReading(system: flagged.system, alert: alert, structure: flagged.structure)
        #expect(read.has(.alert) && !read.has(.alertIgnored))
    }
}

/// A fact whose figure lies past the clip is said whole when the turn's leak checks let a reply
/// quote the layer it comes from, as a model passes a fact on; clipped when they do not, or when
/// the same words also stand in a layer no check lets a reply quote.
@Suite struct QuotedKnowledgeTests {
    static func pack(repeatedInPersona: Bool) -> String {
        """
        pack: {id: debt, name: Debt}
        persona:
          name: Marlow
          background: \(repeatedInPersona ? "You explain that a Debt Relief Order in England and Wales can write off debts of £50,000 or less." : "A calm money coach.")
        stack:
          layers:
            - id: role
              template: |
                You are {{persona.name}}. {{persona.background}}
            - id: knowledge
              template: |
                {{#knowledge}}
                {{coreIdea}}
                {{/knowledge}}
        topics:
          - slug: money
            title: Money
            knowledge:
              - id: dro
                title: Debt Relief Orders
                coreIdea: A Debt Relief Order in England and Wales can write off debts of £50,000 or less if you have £75 or less a month left over.
        """
    }

    static func reply(repeatedInPersona: Bool = false, quotable: Set<String>) throws -> String {
        let pack = try #require(TestSupport.load(["app/pack.yaml": Self.pack(repeatedInPersona: repeatedInPersona)]).pack)
        let prompt = try Compiler(pack: pack).compile(CompileInputs(topic: "money"), fileSystem: .inMemory([:]))
        return MockCoach.reply(system: prompt.system, userMessages: ["Is there a limit on how much I can owe for a Debt Relief Order?"],
                               structure: prompt.structure, quotable: quotable)
    }

    @Test func aQuotableFactIsSaidWholeAndAnUnquotableOneIsClipped() throws {
        let quoted = try Self.reply(quotable: ["knowledge"])
        #expect(quoted.contains("£50,000 or less"), "\(quoted)")
        let clipped = try Self.reply(quotable: [])
        #expect(!clipped.contains("50,000"), "\(clipped)")
        // The same words in the persona, which no check lets a reply quote: still clipped.
        let repeated = try Self.reply(repeatedInPersona: true, quotable: ["knowledge"])
        #expect(!repeated.contains("50,000"), "\(repeated)")
    }
}
