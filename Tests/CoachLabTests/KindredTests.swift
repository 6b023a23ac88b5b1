import CoachLab
import Testing

@Suite struct KindredTests {
    let compiler: Compiler

    init() throws { compiler = try TestSupport.compiler("kindred") }

    func compile(_ inputs: CompileInputs) throws -> CompiledPrompt {
        try compiler.compile(inputs, fileSystem: TestSupport.fileSystem)
    }

    @Test func richPathHasTheSevenSectionsInPromptBuilderOrder() throws {
        let prompt = try compile(CompileInputs(coach: "career-clarity", profile: "maya", memory: "maya-history"))
        #expect(prompt.layers.map(\.id) == ["role", "framework", "rules", "user", "memory", "examples", "reminders"])
        #expect(prompt.system.contains("MEMORY FROM PAST SESSIONS"))
        #expect(prompt.system.contains("1. Notice: ") && prompt.system.contains("4. Experiment: "))
    }

    @Test func fallbackPathWrapsThePlainTextPrompt() throws {
        let prompt = try compile(CompileInputs(coach: "straight-talk-sam", profile: "maya"))
        #expect(prompt.layers.map(\.id) == ["fallback-role", "user", "reminders"])
        let role = try #require(prompt.layers.first)
        #expect(role.text.contains("\"Like my old basketball coach: blunt, funny, and on my side."))
        #expect(role.text.contains("a personal coach that Maya created"))
        #expect(!prompt.system.contains("COACHING FRAMEWORK"))
        #expect(!prompt.system.contains("EXAMPLE CONVERSATIONS"))
    }

    @Test func placeholdersAreHonouredAsWrittenWithTheirSources() throws {
        let prompt = try compile(CompileInputs(coach: "career-clarity", profile: "maya"))
        #expect(!prompt.system.contains("{userName}") && !prompt.system.contains("{userValues}") && !prompt.system.contains("{userGoals}"))
        #expect(prompt.system.contains("You help Maya find work"))
        #expect(prompt.system.contains("Connect options to Maya's values (Growth, Honesty, Family)."))
        #expect(prompt.system.contains("Use Maya's goals (Find work that feels meaningful; Run a half marathon this autumn)"))
        let lines = try TestSupport.lines(of: "personas/kindred/users.yaml")
        let nameLine = try #require(lines.firstIndex { $0 == "    name: Maya" }) + 1
        let role = try #require(prompt.layers.first { $0.id == "role" })
        #expect(role.sources.contains("personas/kindred/users.yaml:\(nameLine)"))
    }

    @Test func memoryTakesTheNewestThreeOfThisCoach() throws {
        let prompt = try compile(CompileInputs(coach: "career-clarity", profile: "maya", memory: "maya-history"))
        let memory = try #require(prompt.layers.first { $0.id == "memory" })
        let sessions = memory.text.split(separator: "\n").filter { $0.hasPrefix("- Session of ") }
        #expect(sessions.map { String($0.prefix(34)) } == [
            "- Session of 2026-01-15T19:10:00Z:",
            "- Session of 2026-01-29T19:45:00Z:",
            "- Session of 2026-02-05T19:20:00Z:",
        ])
        #expect(!memory.text.contains("practised the critique pitch"))  // the confidence coach's insight
    }

    @Test func memoryIgnoresInsightsBeforeItWasCleared() throws {
        let prompt = try compile(CompileInputs(coach: "habit-architect", profile: "jordan", memory: "jordan-cleared"))
        let memory = try #require(prompt.layers.first { $0.id == "memory" })
        #expect(!memory.text.contains("family conflict"))
        #expect(memory.text.contains("wind-down routine") && memory.text.contains("four of five days"))
    }

    @Test func coachMemoryClearedAtAlsoCutsInsights() throws {
        let pack = try TestSupport.pack("kindred")
        let memory = try #require(pack.memory("jordan-cleared"))
        var coach = try #require(pack.coach("habit-architect"))
        coach.memoryClearedAt = LocalDateTime(parsing: "2026-02-05T00:00:00Z")
        var inputs = try ResolvedInputs(CompileInputs(coach: "habit-architect", profile: "jordan", memory: "jordan-cleared"), pack: pack, fileSystem: .live)
        inputs.coach = coach
        let prompt = try Compiler(pack: pack).compile(inputs)
        let text = try #require(prompt.layers.first { $0.id == "memory" }).text
        #expect(!text.contains("wind-down routine"))
        #expect(text.contains("four of five days"))
        #expect(memory.insights.count == 3)
    }

    @Test func budgetTrimsExamplesBeforeMemoryAndSaysSo() throws {
        var pack = try TestSupport.pack("kindred")
        let full = try Compiler(pack: pack).compile(CompileInputs(coach: "career-clarity", profile: "maya", memory: "maya-history"),
                                                    fileSystem: TestSupport.fileSystem)
        let examples = try #require(full.layers.first { $0.id == "examples" }).tokens
        pack.defaults.systemMaxTokens = full.tokens - examples / 2
        let trimmedOnce = try Compiler(pack: pack).compile(CompileInputs(coach: "career-clarity", profile: "maya", memory: "maya-history"),
                                                           fileSystem: TestSupport.fileSystem)
        #expect(trimmedOnce.trimmed.map(\.id) == ["examples"])
        #expect(trimmedOnce.layers.contains { $0.id == "memory" })
        #expect(trimmedOnce.tokens <= trimmedOnce.budget ?? 0)

        pack.defaults.systemMaxTokens = 100
        let trimmedTwice = try Compiler(pack: pack).compile(CompileInputs(coach: "career-clarity", profile: "maya", memory: "maya-history"),
                                                            fileSystem: TestSupport.fileSystem)
        #expect(trimmedTwice.trimmed.map(\.id) == ["examples", "memory"])
        #expect(trimmedTwice.warnings.first?.contains("over the budget of 100") == true)
    }

    @Test func unknownInputsSuggestTheClosestId() {
        #expect(throws: CoachLabError.self) { try compile(CompileInputs(coach: "carer-clarity")) }
        do { _ = try compile(CompileInputs(coach: "carer-clarity")) } catch let error as CoachLabError {
            #expect(error.hint == "did you mean 'career-clarity'?")
        } catch { Issue.record("unexpected \(error)") }
    }
}
