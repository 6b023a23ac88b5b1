import CoachLab

/// One conversation with a coach, as `eval`, `chat` and simulated users all hold it: each
/// message is screened and compiled into a fresh system prompt, the history is sent with it,
/// the pack's context rotation is applied (Kindred: at 24 messages the last 20 are
/// summarised and the session starts again carrying the summary), a provider's
/// context-overflow error rotates early and retries once, and the reply may be sanitised.
///
/// It is a value: what to send and how to summarise are passed in, so it is tested without
/// sockets, and each caller decides about streaming, concurrency limits and display.
public struct Conversation: Sendable {
    /// The compiler of the conversation's pack (or of a generated coach's pack).
    public let compiler: Compiler
    /// The compile inputs every turn shares; each turn adds its message to screen.
    public let inputs: ResolvedInputs
    /// Whether leaked system-prompt lines are stripped from replies.
    public var sanitize: Bool
    /// The messages sent with the next turn: everything since the last rotation.
    public private(set) var history: [ChatMessage] = []
    /// The user's messages of the whole conversation, oldest first (rotation does not forget them).
    public private(set) var userMessages: [String] = []
    /// The summary the system prompt carries after a rotation.
    public private(set) var carried: String?
    /// How many times the conversation rotated.
    public private(set) var rotations = 0
    /// Ids of the layers a reply may quote, which the mock is told (``MockCue/quotable``): set
    /// before each message from the leak checks that will score its reply.
    public var quotable: Set<String> = []
    private let rotation: ContextRotation?
    private let cache: (prompts: PromptCache, key: CompileInputs)?

    /// Asks the provider for a reply to a request.
    public typealias Send = @Sendable (ChatRequest) async throws -> ProviderReply
    /// Summarises the given messages for a rotated session.
    public typealias Summarise = @Sendable ([ChatMessage], ContextRotation) async throws -> String

    /// One exchange.
    public struct Turn: Sendable {
        /// The prompt sent for the message, with the message's screening: the compiled one,
        /// after a rotation with the carried summary as a last layer (and its own hash).
        public var prompt: CompiledPrompt
        /// The system prompt sent: `prompt.system`.
        public var system: String
        /// The provider's reply, as it came.
        public var reply: ProviderReply
        /// The reply's text as kept in the history (sanitised when asked).
        public var text: String
        /// Lines the sanitiser removed; nil when it was off.
        public var removed: [String]?
        /// Whether the conversation rotated before this turn.
        public var rotated: Bool
    }

    /// A conversation with no history yet.
    /// - Parameters:
    ///   - cache: Prompts shared across conversations, with the unresolved inputs `inputs` came
    ///     from as their key; nil compiles every turn.
    ///   - rotates: Whether the pack's context rotation applies; not for an app's own endpoint
    ///     (``ChatProvider/isApp``), which keeps its context itself.
    public init(compiler: Compiler, inputs: ResolvedInputs, sanitize: Bool = false,
                cache: (prompts: PromptCache, key: CompileInputs)? = nil, rotates: Bool = true) {
        self.compiler = compiler
        self.inputs = inputs
        self.sanitize = sanitize
        self.cache = cache
        rotation = rotates ? ContextRotation(compiler.pack.defaults) : nil
    }

    /// Adds an exchange that already happened (a fixture's recorded reply) without asking anyone.
    public mutating func record(user: String, reply: String) {
        history += [ChatMessage(.user, user), ChatMessage(.assistant, reply)]
        userMessages.append(user)
    }

    /// Sends the user's next message and records the exchange.
    /// - Parameters:
    ///   - scriptedReply: A reply the mock provider must give (a fixture's `mock:`).
    ///   - send: How to ask the provider.
    ///   - summarise: How to summarise for a rotation (``summary(of:rotation:provider:sendsSchema:)``).
    /// - Throws: The provider's errors, after the one retry a context overflow earns.
    public mutating func send(_ message: String, scriptedReply: String? = nil, using send: Send,
                              summarise: Summarise) async throws -> Turn {
        let compiled: CompiledPrompt
        if let cache {
            compiled = cache.prompts.prompt(compiler, resolved: inputs, key: cache.key, message: message)
        } else {
            var turnInputs = inputs
            turnInputs.screen = message
            compiled = compiler.compile(turnInputs)
        }
        var rotated = false
        if let rotation, rotation.mustRotate(history.count) {
            carried = try await summarise(history, rotation)
            history = []
            rotations += 1
            rotated = true
        }
        var prompt = carried.map { ContextRotation.carry($0, into: compiled) } ?? compiled
        var request = ChatRequest(system: prompt.system, messages: history + [ChatMessage(.user, message)])
        request.appData = AppData(inputs)
        let reply: ProviderReply
        do {
            reply = try await MockCue.$current.withValue(cue(prompt, compiled: compiled, scriptedReply: scriptedReply)) { try await send(request) }
        } catch let error as ProviderError where error.code == .contextLength && !history.isEmpty {
            // The window overflowed before the declared point: rotate now and retry once.
            guard let rotation else { throw error }
            carried = try await summarise(history, rotation)
            history = []
            rotations += 1
            rotated = true
            prompt = ContextRotation.carry(carried ?? "", into: compiled)
            request = ChatRequest(system: prompt.system, messages: [ChatMessage(.user, message)])
            request.appData = AppData(inputs)
            reply = try await MockCue.$current.withValue(cue(prompt, compiled: compiled, scriptedReply: scriptedReply)) { try await send(request) }
        }
        var text = reply.text
        var removed: [String]?
        if sanitize {
            let cleaned = ReplySanitizer(system: prompt.system).sanitize(text)
            (text, removed) = (cleaned.text, cleaned.removed)
        }
        record(user: message, reply: text)
        return Turn(prompt: prompt, system: prompt.system, reply: reply, text: text, removed: removed, rotated: rotated)
    }

    /// What the mock reads of this turn besides the request (``MockCue``). The alert is worked
    /// out only if the mock asks for it, from the prompt these inputs give with no message
    /// flagged: from the cache, where every unflagged message of the conversation's inputs
    /// shares it.
    private func cue(_ prompt: CompiledPrompt, compiled: CompiledPrompt, scriptedReply: String?) -> MockCue {
        let (compiler, inputs, cache) = (self.compiler, self.inputs, self.cache)
        return MockCue(scriptedReply: scriptedReply, structure: prompt.structure, quotable: quotable) {
            guard compiled.screening?.isFlagged == true else { return nil }
            if let cache { return compiled.alert(comparedWith: cache.prompts.prompt(compiler, resolved: inputs, key: cache.key, message: "")) }
            var plain = inputs
            plain.screen = nil
            return compiled.alert(comparedWith: compiler.compile(plain))
        }
    }

    /// Asks `provider` to summarise the latest messages for a rotated session, as a structured
    /// generation (``StructuredTask/summary(_:)``).
    /// - Throws: ``ProviderError`` when the provider fails, or (`malformedResponse`) when its
    ///   summary is still unusable after the correction.
    public static func summary(of history: [ChatMessage], rotation: ContextRotation, provider: any ChatProvider,
                               sendsSchema: Bool) async throws -> String {
        let transcript = rotation.transcript(history.map { ($0.role == .user, $0.content) })
        let generator = StructuredGenerator(provider: provider, sendsSchema: sendsSchema, maxTokens: 1024)
        let outcome = try await generator.generate(.summary(transcript))
        guard let summary = outcome.value?["summary"]?.string else {
            throw ProviderError(.malformedResponse, provider: provider.id,
                                message: "the rotation summary could not be used: " + outcome.problems.joined(separator: "; "))
        }
        return summary
    }
}
