import ArgumentParser
import CoachLab
import CoachLabProviders
import Foundation

/// `coachlab generate`: the seed apps' structured generations.
struct GenerateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate a coach template, a session insight or a wrap-up as validated structured output.",
        discussion: """
        Providers that take a JSON Schema get one (openai, gemini, mock; `structuredOutput:` in \
        providers.yaml overrides); the others are asked for strict JSON. The reply is parsed \
        (a code fence or surrounding prose is removed, and said so), validated field by field, \
        and sent back once with its problems when it cannot be used. A reply that is still \
        invalid prints every problem and exits 1. See docs/generate.md.
        """,
        subcommands: [GenerateCoach.self, GenerateInsight.self, GenerateWrapup.self]
    )
}

/// What every `generate` subcommand shares: the provider and the generation settings.
struct GenerationOptions: ParsableArguments {
    /// `--max-tokens` and `--temperature` come from here; a structured reply gets 2048 tokens
    /// when no limit is given.
    @OptionGroup var provider: ProviderOptions
    @Option(help: "A file whose text the mock provider returns instead of simulating (to see how a reply is validated).")
    var mockReply: String?

    func validate() throws {
        if provider.providers.count > 1 { throw ValidationError("generate uses one provider; name one --provider") }
    }

    /// Runs `task` and prints the report to standard error.
    /// - Throws: `ExitCode` 1 for an invalid result, 3 for a provider failure.
    func run(_ task: StructuredTask) async throws -> JSONValue {
        let registry = try provider.registry()
        guard let configuration = try provider.configurations(in: registry).first else { throw ExitCode(Exit.usage) }
        var scripted: String?
        if let mockReply {
            guard configuration.kind == .mock else { throw ValidationError("--mock-reply works with the mock provider only") }
            scripted = try FileSystem.invocation.text(at: mockReply)
        }
        let chatProvider = try registry.provider(configuration)
        let generator = StructuredGenerator(provider: chatProvider, sendsSchema: configuration.sendsResponseSchema,
                                            temperature: provider.temperature, maxTokens: provider.maxTokens ?? 2048,
                                            scriptedReply: scripted)
        let outcome = try await generator.generate(task)
        let reply = outcome.attempts.last?.reply
        Terminal.error(outcome.report)
        if let reply {
            Terminal.error(String(format: "  (%@ · %@ · %.2f s · %d→%d tokens%@)", configuration.id, reply.model, outcome.latency,
                                  outcome.usage.inputTokens, outcome.usage.outputTokens, outcome.usage.estimated ? " est." : ""))
        }
        guard let value = outcome.value else { throw ExitCode(Exit.failed) }
        return value
    }
}

/// The transcript a generation reads, and when the result was made.
struct TranscriptOptions: ParsableArguments {
    @Argument(help: "The transcript: YAML with 'messages:' ({user: …} or {coach: …}), a fixture, or 'User:'/'Coach:' lines.")
    var transcript: String
    @Option(help: "When the session ended (the entry's date), ISO 8601; default now (UTC).")
    var at: String?

    func validate() throws {
        if let at, LocalDateTime(parsing: at) == nil { throw ValidationError("--at '\(at)' is not an ISO 8601 date-time") }
    }

    /// The transcript, read and checked.
    func load() throws -> Transcript { try Transcript.load(FileSystem.invocation.text(at: transcript), file: transcript) }

    /// `--at`, or now.
    var timestamp: String { at ?? MemoryFile.timestamp(Invocation.current.now()) }
}

/// `coachlab generate coach`.
struct GenerateCoach: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coach",
        abstract: "Generate a rich coach template from a description (Kindred's AI-assisted creation).",
        discussion: """
        The template must hold a role and personality that name the coach, a framework with the \
        pack's number of phases (Kindred: 3-5), its number of rules (5-7), examples (3) and \
        starter questions (3), and context instructions. The result is written as a coach YAML \
        file that `lint` accepts and `compile` builds on the rich path.

        Examples:
          coachlab generate coach \\
            --describe "A patient running coach for beginners" \\
            --pack personas/kindred
          coachlab generate coach --describe "…" --name "Trail Buddy" \\
            --pack personas/kindred \\
            --out personas/kindred/coaches/trail-buddy.yaml
          coachlab compile personas/kindred --coach trail-buddy --profile maya
        """
    )

    @Option(help: "What the coach should do, in the user's words.")
    var describe: String
    @Option(help: "The pack whose count limits and placeholders the coach must meet.")
    var pack = "personas/kindred"
    @Option(help: "The coach's name; the model chooses one when not given.")
    var name: String?
    @Option(help: "The coach's id; a slug of its name when not given.")
    var id: String?
    @Option(help: "Write the coach YAML here (a file in the pack's coaches/ folder makes it part of the pack; it replaces only a coach generate wrote); default standard output.")
    var out: String?
    @OptionGroup var generation: GenerationOptions

    func run() async throws {
        if let out { try FileSystem.invocation.checkReplaceable(out, by: .generatedCoach) }
        let pack = try PackLoader(fileSystem: .invocation).load(self.pack).get()
        let task = StructuredTask.coach(describing: describe, name: name, limits: pack.defaults)
        let mapping = CoachDocuments.coach(fromGenerated: try await generation.run(task), id: id)
        let coachID = mapping["id"]?.string ?? "coach"
        let (placed, prompt) = try place(mapping, id: coachID, into: pack)
        let shape = "rich path, \(prompt.layers.count) layers, ~\(prompt.tokens) tokens"
        if let out {
            try FileSystem.invocation.write(placed.packFile, to: out, replacing: .generatedCoach)
            Terminal.error("wrote coach '\(coachID)' to \(out): \(shape)")
        } else {
            Terminal.out(placed.packFile, terminator: "")
            Terminal.error("coach '\(coachID)': \(shape)")
        }
    }

    /// The generated coach as a file of the pack, refused when the pack already has the id,
    /// and proved on the rich path: compiled with the pack's first profile.
    private func place(_ mapping: JSONValue, id coachID: String, into pack: Pack) throws -> (CoachDocuments.Imported, CompiledPrompt) {
        if let existing = pack.coach(coachID) {
            throw CoachLabError(usage: "pack '\(pack.id)' already has a coach '\(coachID)' (\(existing.value.location))",
                                hint: "choose another id with --id")
        }
        let placed = try CoachDocuments.place(mapping, comment: "\(CoachDocuments.generatedMark.dropFirst(2)) from the description:\n\"\(describe)\"",
                                              at: out ?? "\(coachID).yaml", into: pack)
        let compiler = try Compiler(pack: CoachDocuments.pack(pack, with: placed.coach))
        let inputs = try ResolvedInputs(CompileInputs(coach: coachID, profile: pack.profiles.first?.id), pack: compiler.pack, fileSystem: .invocation)
        return (placed, compiler.compile(inputs))
    }
}

/// `coachlab generate insight`.
struct GenerateInsight: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insight",
        abstract: "Generate a session insight (Kindred's SessionInsight) from a transcript.",
        discussion: """
        Prints the insight as a memory entry: summary, key theme, 1-3 patterns, dominant \
        emotion, repeated words and a suggestion. --quick makes the mid-session reflection \
        (6 or more messages), marked isQuickReflection. --memory-file appends the insight to a \
        memory file (created when missing), so `compile --memory FILE` includes it next time.

        Examples:
          coachlab generate insight \\
            fixtures/kindred/structured/scenario5-insight.yaml \\
            --coach career-clarity
          coachlab generate insight \\
            fixtures/kindred/structured/scenario5-insight.yaml \\
            --coach career-clarity \\
            --memory-file .coachlab/maya.yaml
          coachlab compile personas/kindred --coach career-clarity --profile maya \\
            --memory .coachlab/maya.yaml
        """
    )

    @OptionGroup var source: TranscriptOptions
    @Flag(help: "The mid-session reflection (needs at least 6 messages).")
    var quick = false
    @Option(help: "The coach the insight belongs to (memory is per coach).")
    var coach: String?
    @Option(help: "Append the insight to this memory file.")
    var memoryFile: String?
    @OptionGroup var generation: GenerationOptions

    func run() async throws {
        let conversation = try source.load()
        if quick && conversation.messages.count < StructuredTask.quickReflectionMinimumMessages {
            throw CoachLabError(usage: "a quick reflection needs at least \(StructuredTask.quickReflectionMinimumMessages) messages; \(source.transcript) has \(conversation.messages.count)",
                                hint: "leave out --quick for a session insight")
        }
        let value = try await generation.run(.insight(conversation, quick: quick))
        let entry = MemoryFile.entry(value, createdAt: source.timestamp, coach: coach, quick: quick)
        Terminal.out(try MemoryFile.yaml(entry), terminator: "")
        if let memoryFile {
            try MemoryFile.append(entry, toFileAt: memoryFile, list: "insights", fileSpec: ContentSpecs.memory, itemSpec: ContentSpecs.insight,
                                  fileSystem: .invocation)
            Terminal.error("appended the insight to \(memoryFile)")
        }
    }
}

/// `coachlab generate wrapup`.
struct GenerateWrapup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wrapup",
        abstract: "Generate BetterOne's session wrap-up: a takeaway and a next step.",
        discussion: """
        --sessions-file appends the wrap-up to a sessions file, whose takeaways `coachlab tips` \
        draws from.

        Examples:
          coachlab generate wrapup \\
            fixtures/betterone/wrapup/goal-setting-next-step.yaml
          coachlab generate wrapup \\
            fixtures/betterone/wrapup/goal-setting-next-step.yaml \\
            --topic goal-setting \\
            --sessions-file .coachlab/sessions.yaml
          coachlab tips personas/betterone --sessions .coachlab/sessions.yaml
        """
    )

    @OptionGroup var source: TranscriptOptions
    @Option(help: "The session's topic slug, recorded with the wrap-up.")
    var topic: String?
    @Option(help: "Append the wrap-up to this sessions file.")
    var sessionsFile: String?
    @OptionGroup var generation: GenerationOptions

    func run() async throws {
        let value = try await generation.run(.wrapup(try source.load()))
        var session: [String: JSONValue] = ["endedAt": .string(source.timestamp)]
        session["topic"] = topic.map(JSONValue.string)
        session["takeaway"] = value["takeaway"]
        session["nextStep"] = value["nextStep"]
        Terminal.out("takeaway: \(value["takeaway"]?.string ?? "")\nnext step: \(value["nextStep"]?.string ?? "")")
        if let sessionsFile {
            try MemoryFile.append(.object(session), toFileAt: sessionsFile, list: "sessions", fileSpec: DailyTip.sessionsSpec,
                                  itemSpec: DailyTip.sessionSpec, fileSystem: .invocation)
            Terminal.error("appended the wrap-up to \(sessionsFile)")
        }
    }
}
