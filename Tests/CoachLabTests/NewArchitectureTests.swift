import CoachLab
import Testing

/// A new app whose prompt architecture differs from all five seeds, added with YAML alone:
/// a study buddy with a morning/evening switch, partials, a placeholder, an XML-style
/// header, and a budget that trims its lowest-value layer.
@Suite struct NewArchitectureTests {
    static let files = [
        "studybuddy/pack.yaml": """
            pack: {id: studybuddy, name: Study Buddy}
            include: [stack.yaml, course.yaml]
            persona: {name: Ada, voice: Brisk and cheerful.}
            defaults:
              context: {systemMaxTokens: 60}
            variants:
              - {id: morning, topic: algebra, intent: quiz, profile: kim, now: "2026-05-04T07:30:00+02:00"}
            profiles:
              - {id: kim, firstName: Kim, level: beginner}
            """,
        "studybuddy/stack.yaml": """
            stack:
              header: "<{{title}}>"
              separator: "\\n---\\n"
              placeholders:
                student: "{{profile.firstName}}"
              partials:
                card: "* {{title}}: {{coreIdea}}"
              trim: [cards]
              layers:
                - id: greeting
                  title: session
                  template: |
                    {{#now.isMorning}}Good morning, {student}! Quick warm-up first.{{/now.isMorning}}
                    {{^now.isMorning}}Evening review for {student}.{{/now.isMorning}}
                - id: task
                  title: task
                  when: intent
                  template: "{{persona.name}} runs a {{intent.label}} on {{topic.title}} for a {{profile.level}}."
                - id: cards
                  title: cards
                  when: knowledge
                  template: |
                    {{#knowledge}}
                    {{> card}}
                    {{/knowledge}}
            """,
        "studybuddy/course.yaml": """
            topics:
              - slug: algebra
                title: Algebra
                intents: [{id: quiz, label: quiz, instruction: Ask one question at a time.}]
                knowledge:
                  - {title: Balance, coreIdea: Do the same thing to both sides of an equation to keep it balanced and true.}
                  - {title: Isolate, coreIdea: Undo operations in reverse order to get the unknown on its own side.}
            """,
    ]

    @Test func compilesWithYAMLAlone() throws {
        let fileSystem = FileSystem.inMemory(Self.files)
        let result = PackLoader(fileSystem: fileSystem).load("studybuddy")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        var pack = try result.get()
        pack.defaults.systemMaxTokens = 1000
        let prompt = try Compiler(pack: pack).compile(CompileInputs(pack.variants[0]), fileSystem: fileSystem)
        #expect(prompt.system == """
            <session>
            Good morning, Kim! Quick warm-up first.
            ---
            <task>
            Ada runs a quiz on Algebra for a beginner.
            ---
            <cards>
            * Balance: Do the same thing to both sides of an equation to keep it balanced and true.
            * Isolate: Undo operations in reverse order to get the unknown on its own side.
            """)
        #expect(prompt.layers[0].sources.contains("studybuddy/pack.yaml:9"))  // Kim, through {student}
    }

    @Test func itsOwnBudgetTrimsItsOwnLayer() throws {
        let fileSystem = FileSystem.inMemory(Self.files)
        let pack = try PackLoader(fileSystem: fileSystem).load("studybuddy").get()
        let prompt = try Compiler(pack: pack).compile(CompileInputs(pack.variants[0]), fileSystem: fileSystem)
        #expect(prompt.trimmed.map(\.id) == ["cards"])
        #expect(!prompt.system.contains("<cards>"))
    }

    @Test func eveningBranchFollowsTheLocalHour() throws {
        let fileSystem = FileSystem.inMemory(Self.files)
        let pack = try PackLoader(fileSystem: fileSystem).load("studybuddy").get()
        var inputs = CompileInputs(pack.variants[0])
        inputs.now = LocalDateTime(parsing: "2026-05-04T20:15:00+02:00")
        let prompt = try Compiler(pack: pack).compile(inputs, fileSystem: fileSystem)
        #expect(prompt.system.hasPrefix("<session>\nEvening review for Kim."))
    }
}

/// `{{position}}` numbers the items of every list a template walks, as docs/packs.md says:
/// the lists the compiler builds (rules by priority, a topic's knowledge, memory's insights)
/// as well as the pack's own.
@Suite struct ListPositionTests {
    static let files = [
        "numbered/pack.yaml": """
            pack: {id: numbered, name: Numbered}
            persona: {name: Wren}
            rules:
              - {id: kind, title: Be kind, content: Speak gently.}
              - {id: safe, title: Safety first, content: Safety comes before coaching., priority: 10}
            topics:
              - slug: sleep
                title: Sleep
                knowledge:
                  - {coreIdea: Keep one wake-up time.}
                  - {coreIdea: Dim the lights an hour before bed.}
            memories:
              - id: kim
                insights:
                  - {createdAt: 2026-01-08T19:30:00Z, summary: Talked about late screens.}
                  - {createdAt: 2026-01-15T19:30:00Z, summary: Tried a wind-down routine.}
            variants:
              - {id: default, topic: sleep, memory: kim}
            stack:
              layers:
                - id: rules
                  title: Rules
                  template: |
                    {{#rules}}
                    {{position}}. {{title}}
                    {{/rules}}
                - id: knowledge
                  title: Knowledge
                  template: |
                    {{#knowledge}}
                    {{position}}. {{coreIdea}}
                    {{/knowledge}}
                - id: memory
                  title: Memory
                  when: memory
                  template: |
                    {{#memory.insights}}
                    Session {{position}}: {{summary}}
                    {{/memory.insights}}
            """,
    ]

    @Test func theCompilersListsAreNumbered() throws {
        let fileSystem = FileSystem.inMemory(Self.files)
        let compiler = try PackLoader(fileSystem: fileSystem).compiler(for: "numbered")
        let prompt = try compiler.compile(CompileInputs(compiler.pack.variants[0]), fileSystem: fileSystem)
        #expect(prompt.system == """
            === Rules ===
            1. Safety first
            2. Be kind

            === Knowledge ===
            1. Keep one wake-up time.
            2. Dim the lights an hour before bed.

            === Memory ===
            Session 1: Talked about late screens.
            Session 2: Tried a wind-down routine.
            """)
    }

    /// A list of texts numbers its items too: an alert's instructions, a knowledge item's
    /// heuristics. Inside a nested list of texts, `{{position}}` is the inner item's.
    static let texts = [
        "texts/pack.yaml": """
            pack: {id: texts, name: Texts}
            persona: {name: Wren}
            rules:
              - id: crisis
                title: Crisis
                content: Safety first.
                guardrail:
                  keywords: [want to die]
                  alert:
                    instructions: [Stay calm, Share the 988 lifeline]
            topics:
              - slug: sleep
                title: Sleep
                knowledge:
                  - {coreIdea: Keep one wake-up time., heuristics: [Set an alarm, Get light early]}
            variants:
              - {id: default, topic: sleep}
            stack:
              layers:
                - id: knowledge
                  title: Knowledge
                  template: |
                    {{#knowledge}}
                    {{position}}. {{coreIdea}}
                    {{#heuristics}}
                      {{position}}) {{.}}
                    {{/heuristics}}
                    {{/knowledge}}
                - id: alert
                  title: Alert
                  when: risk
                  template: |
                    {{#risk.alert.instructions}}
                    {{position}}) {{.}}
                    {{/risk.alert.instructions}}
            """,
    ]

    @Test func aListOfTextsIsNumberedToo() throws {
        let fileSystem = FileSystem.inMemory(Self.texts)
        let lint = try ProjectLint(fileSystem: fileSystem).lint(["texts"])
        #expect(lint.errors == 0 && lint.warnings == 0, "\(lint.diagnostics)")
        let compiler = try PackLoader(fileSystem: fileSystem).compiler(for: "texts")
        var inputs = CompileInputs(compiler.pack.variants[0])
        inputs.screen = "Some days I want to die."
        let prompt = try compiler.compile(inputs, fileSystem: fileSystem)
        #expect(prompt.system == """
            === Knowledge ===
            1. Keep one wake-up time.
              1) Set an alarm
              2) Get light early

            === Alert ===
            1) Stay calm
            2) Share the 988 lifeline
            """)
    }
}
