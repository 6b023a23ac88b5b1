/// What a prompt is compiled for, beside the pack: the coach, topic and intent, the user's
/// profile, memory and context data, the local time, and the latest user message to screen.
/// Profiles, memories and contexts are ids in the pack or paths to files of their own.
public struct CompileInputs: Sendable, Hashable {
    /// The declared variant these inputs came from, if any.
    public var variant: String?
    /// Coach id.
    public var coach: String?
    /// Topic slug.
    public var topic: String?
    /// Intent id within the topic.
    public var intent: String?
    /// Profile id, or a path to a profile file.
    public var profile: String?
    /// Memory id, or a path to a memory file.
    public var memory: String?
    /// Context id, or a path to a context file.
    public var context: String?
    /// The local date and time.
    public var now: LocalDateTime?
    /// The latest user message, screened for risk.
    public var screen: String?

    /// Creates inputs.
    public init(variant: String? = nil, coach: String? = nil, topic: String? = nil, intent: String? = nil,
                profile: String? = nil, memory: String? = nil, context: String? = nil,
                now: LocalDateTime? = nil, screen: String? = nil) {
        self.variant = variant
        self.coach = coach
        self.topic = topic
        self.intent = intent
        self.profile = profile
        self.memory = memory
        self.context = context
        self.now = now
        self.screen = screen
    }

    /// The inputs a declared variant names.
    public init(_ variant: Variant) {
        self.init(variant: variant.id, coach: variant.coach?.value, topic: variant.topic?.value,
                  intent: variant.intent?.value, profile: variant.profile?.value, memory: variant.memory?.value,
                  context: variant.context?.value, now: variant.now.flatMap { LocalDateTime(parsing: $0.value) },
                  screen: variant.screen?.value)
    }
}

/// Compile inputs with every reference looked up.
public struct ResolvedInputs: Sendable {
    public var coach: Coach?
    public var topic: Topic?
    public var intent: Topic.Intent?
    public var profile: Entity?
    public var memory: Memory?
    public var context: Entity?
    public var now: LocalDateTime?
    public var screen: String?

    /// Looks up every reference in `inputs`; profiles, memories and contexts that are not
    /// ids in the pack are read as files.
    /// - Throws: ``CoachLabError`` (usage) for an unknown id, (content) for a bad file.
    public init(_ inputs: CompileInputs, pack: Pack, fileSystem: FileSystem) throws {
        func unknown(_ noun: String, _ name: String, _ known: [String]) -> CoachLabError {
            CoachLabError(usage: "pack '\(pack.id)' has no \(noun) '\(name)'",
                          hint: Suggestions.hint(for: name, in: known, noun: noun))
        }
        if let id = inputs.coach {
            guard let coach = pack.coach(id) else { throw unknown("coach", id, pack.coaches.map(\.id)) }
            self.coach = coach
        }
        if let slug = inputs.topic {
            guard let topic = pack.topic(slug) else { throw unknown("topic", slug, pack.topics.map(\.slug)) }
            self.topic = topic
        }
        if let id = inputs.intent {
            guard let topic else {
                throw CoachLabError(usage: "an intent needs a topic", hint: "add --topic with the topic whose intent '\(id)' is")
            }
            guard let intent = topic.intent(id) else { throw unknown("intent", id, topic.intents.map(\.id)) }
            self.intent = intent
        }
        if let name = inputs.profile {
            profile = try pack.profile(name) ?? Self.loadEntity(name, spec: ContentSpecs.profile, noun: "profile",
                                                                known: pack.profiles.map(\.id), pack: pack, fileSystem: fileSystem)
        }
        if let name = inputs.context {
            context = try pack.context(name) ?? Self.loadEntity(name, spec: ContentSpecs.context, noun: "context",
                                                                known: pack.contexts.map(\.id), pack: pack, fileSystem: fileSystem)
        }
        if let name = inputs.memory {
            if let memory = pack.memory(name) {
                self.memory = memory
            } else {
                let value = try Self.loadFile(name, spec: ContentSpecs.memory, noun: "memory", known: pack.memories.map(\.id),
                                              pack: pack, fileSystem: fileSystem)
                memory = PackAssembler.memory(value)
            }
        }
        now = inputs.now
        screen = inputs.screen
    }

    private static func loadEntity(_ name: String, spec: ObjectSpec, noun: String, known: [String], pack: Pack,
                                   fileSystem: FileSystem) throws -> Entity {
        let value = try loadFile(name, spec: spec, noun: noun, known: known, pack: pack, fileSystem: fileSystem)
        return Entity(id: value.located("id")?.value ?? Paths.lastComponent(name), value: value)
    }

    private static func loadFile(_ name: String, spec: ObjectSpec, noun: String, known: [String], pack: Pack,
                                 fileSystem: FileSystem) throws -> YAMLValue {
        guard fileSystem.exists(name), !fileSystem.isDirectory(name) else {
            throw CoachLabError(usage: "pack '\(pack.id)' has no \(noun) '\(name)', and no file has that path",
                                hint: Suggestions.hint(for: name, in: known, noun: noun))
        }
        let path = Paths.normalize(name)
        let data: [UInt8]
        do { data = Array(try fileSystem.read(path)) } catch {
            throw CoachLabError(.io, "cannot read \(noun) file: \(error.localizedDescription)",
                                at: SourceLocation(file: path, line: 1, column: 1))
        }
        let value = try YAMLDocument.parse(.init(data), file: path)
        var diagnostics = Diagnostics()
        var relaxed = spec
        relaxed.fields = relaxed.fields.map { field in
            var field = field
            if field.name == "id" { field.required = false }
            return field
        }
        SpecValidator.validate(value, spec: relaxed, what: noun, into: &diagnostics)
        if diagnostics.hasErrors { throw CoachLabError(.content, diagnostics.sorted) }
        return value
    }
}
