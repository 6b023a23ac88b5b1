import CoachLab
import CoachLabProviders
import Foundation

/// One case, from its fixture to its scored result: a structured generation first when the
/// fixture asks for one, then its scripted turns, then a simulated user's, then the checks
/// scored over the whole conversation. Eval, `--retry-errors`, `--resume`, simulated users and
/// mutate run every case through it; its checks are scored by ``CheckScoring``, as a rescore's are.
struct CaseSession {
    let evalCase: EvalCase
    let fixture: Fixture
    let job: EvalRunner.Job
    /// The provider the coach's replies come from.
    let slot: ProviderSlot
    let settings: Settings
    let scoring: CheckScoring
    /// What the case has so far.
    private(set) var result: CaseResult
    /// The checks scored once the conversation is over.
    private var later: [Check] = []
    /// What the conversation is compiled from: the fixture's inputs, with the coach a
    /// structured generation made or imported.
    private var inputs: CompileInputs

    /// What the runner asks of every case.
    struct Settings: Sendable {
        var streaming: Bool
        var sanitize: Bool
        /// Whether the case is one of several repeats, each a fresh sample: its coach calls then
        /// never read the response cache (a judge's may).
        var repeated: Bool
        var fileSystem: FileSystem
        var environment: [String: String]
    }

    /// Runs one case; provider failures become an `error` outcome, never a thrown error.
    static func run(_ evalCase: EvalCase, reference: FixtureReference, job: EvalRunner.Job, settings: Settings) async -> CaseResult {
        // Held in memory, or read again from its file.
        guard let fixture = reference.held ?? EvalLoader(fileSystem: settings.fileSystem).fixture(at: reference.file).0,
              let compiler = job.compilers[fixture.pack], let slot = job.providers[evalCase.provider] else {
            return CaseResult(suite: evalCase.suite, fixture: evalCase.fixture, provider: evalCase.provider, model: "",
                              repeatIndex: evalCase.repeatIndex, outcome: .error, score: 0, turns: [],
                              error: "the case's fixture could not be read again, or its pack or provider is missing", tags: [])
        }
        var session = CaseSession(evalCase: evalCase, fixture: fixture, job: job, slot: slot, settings: settings, compiler: compiler)
        do {
            try await session.play(compiler)
        } catch {
            session.result.outcome = .error
            session.result.error = (error as? ProviderError)?.description ?? "\(error)"
            session.result.score = 0
            return session.result
        }
        return EvalRunner.scored(session.result)
    }

    private init(evalCase: EvalCase, fixture: Fixture, job: EvalRunner.Job, slot: ProviderSlot, settings: Settings, compiler: Compiler) {
        self.evalCase = evalCase
        self.fixture = fixture
        self.job = job
        self.slot = slot
        self.settings = settings
        scoring = CheckScoring(models: .ask(job.judges, judge: job.suite.judge), fileSystem: settings.fileSystem,
                               environment: settings.environment)
        inputs = fixture.inputs
        result = CaseResult(suite: evalCase.suite, fixture: fixture.id, provider: evalCase.provider, model: slot.provider.model,
                            repeatIndex: evalCase.repeatIndex, outcome: .pass, score: 1, turns: [], error: nil, tags: fixture.tags,
                            pack: fixture.pack)
    }

    /// The case's steps in order.
    private mutating func play(_ compiler: Compiler) async throws {
        var compiler = compiler
        if let generate = fixture.generate {
            let step = try await EvalRunner.uncached(settings.repeated) { [self] in
                try await StructuredStep.run(generate, fixture: fixture, compiler: compiler, slot: slot, fileSystem: settings.fileSystem)
            }
            result.turns.append(step.turn)
            if let model = step.model { result.model = model }
            guard let next = step.compiler, !generate.kind.readsTranscript else { return }
            compiler = next
            inputs.coach = step.coach ?? inputs.coach
        }
        var conversation = try conversation(compiler)
        try await playScriptedTurns(&conversation)
        try await playSimulatedUser(&conversation)
        try await scoreConversation(conversation)
    }

    /// The conversation with the coach, with the fixture's inputs resolved in its pack.
    private func conversation(_ compiler: Compiler) throws -> Conversation {
        let resolved = try ResolvedInputs(inputs, pack: compiler.pack, fileSystem: settings.fileSystem)
        // A generated or imported coach has a compiler of its own; only the pack's share a cache.
        let cache = fixture.generate == nil ? job.prompts[fixture.pack].map { ($0, inputs) } : nil
        return Conversation(compiler: compiler, inputs: resolved, sanitize: settings.sanitize, cache: cache, rotates: !slot.provider.isApp)
    }

    /// Sends the coach a message: within the provider's limit, streamed when the run streams.
    private var send: Conversation.Send {
        { [slot, settings] request in
            try await slot.run {
                try await EvalRunner.uncached(settings.repeated) { try await slot.provider.reply(to: request, streaming: settings.streaming) }
            }
        }
    }

    /// Summarises the conversation when its context rotates, as the coach's provider.
    private var summarise: Conversation.Summarise {
        { [slot, settings] history, rotation in
            try await slot.run {
                try await EvalRunner.uncached(settings.repeated) {
                    try await Conversation.summary(of: history, rotation: rotation, provider: slot.provider,
                                                   sendsSchema: slot.configuration.sendsResponseSchema)
                }
            }
        }
    }

    /// The fixture's turns: each one scored is sent; one that is not, and has a recorded reply,
    /// only joins the history.
    private mutating func playScriptedTurns(_ conversation: inout Conversation) async throws {
        let scored = job.suite.mode == .final ? [fixture.turns.count - 1] : Array(fixture.turns.indices)
        for (index, turn) in fixture.turns.enumerated() {
            guard scored.contains(index) || turn.reply == nil else {
                conversation.record(user: turn.user, reply: turn.reply ?? "")
                continue
            }
            conversation.quotable = Self.quotable(job.suite.checks + turn.expect)
            let exchange = try await conversation.send(turn.user, scriptedReply: turn.mock, using: send, summarise: summarise)
            guard scored.contains(index) else { continue }
            try await score(exchange, in: conversation, turn: index + 1, user: turn.user, expect: turn.expect, simulated: false)
        }
    }

    /// A simulated user's turns after the scripted ones, every coach reply scored (as in
    /// rollout), and whether a stop fired: the runner's own verdict on the last turn.
    private mutating func playSimulatedUser(_ conversation: inout Conversation) async throws {
        guard let user = fixture.simulatedUser else { return }
        guard let simulator = job.simulator else { throw CoachLabError(usage: "the suite has no simulator for '\(fixture.id)'") }
        var ended: String?
        conversation.quotable = Self.quotable(job.suite.checks)
        for step in 0..<user.maxTurns {
            let (message, goalReached) = try await SimulatedUserPlayer.next(user, step: step, history: conversation.history,
                                                                            slot: simulator, bypassCache: settings.repeated)
            let exchange = try await conversation.send(message, using: send, summarise: summarise)
            try await score(exchange, in: conversation, turn: fixture.turns.count + step + 1, user: message, expect: [], simulated: true)
            if let reason = user.stop(after: exchange.text, message: message, goalReached: goalReached) {
                ended = "\(reason) after \(step + 1) coach repl\(step == 0 ? "y" : "ies")"
                break
            }
        }
        let verdict = CheckResult(check: "simulated-user", passed: ended != nil,
                                  reason: ended ?? "no stop fired within \(user.maxTurns) coach replies: the conversation never got where the fixture waits for")
        if result.turns.isEmpty { throw CoachLabError(usage: "the simulated user of '\(fixture.id)' spoke no turn") }
        result.turns[result.turns.count - 1].checks.append(verdict)
    }

    /// The layers a reply may quote: those every leak check among `checks` names quotable
    /// (none when no check looks for a leak, as a model is not told either).
    static func quotable(_ checks: [Check]) -> Set<String> {
        let named = checks.compactMap { check -> Set<String>? in
            if let leak = check.kind.as(CheckKinds.LeakedPrompt.self) { return Set(leak.quotable.map(\.value)) }
            if let contract = check.kind.as(CheckKinds.FollowsContract.self) { return Set(contract.quotable.map(\.value)) }
            return nil
        }
        guard let first = named.first else { return [] }
        return named.dropFirst().reduce(first) { $0.intersection($1) }
    }

    /// Scores one coach reply with the suite's checks and the turn's own, and keeps the turn.
    private mutating func score(_ exchange: Conversation.Turn, in conversation: Conversation, turn number: Int, user: String,
                                expect: [Check], simulated: Bool) async throws {
        let (prompt, reply) = (exchange.prompt, exchange.reply)
        result.model = reply.model
        if !result.prompts.contains(where: { $0.hash == prompt.hash }) { result.prompts.append(prompt) }
        let cost = slot.configuration.prices.map { $0.cost(reply.usage, batched: reply.batched) }
        let persona = conversation.inputs.coach?.value.located("name")?.value ?? conversation.compiler.pack.persona?.located("name")?.value
        let subject = CheckSubject(reply: exchange.text, system: exchange.system, layers: prompt.layers, screening: prompt.screening,
                                   personaName: persona, latency: reply.latency, outputTokens: reply.usage.outputTokens, cost: cost,
                                   finishReason: reply.finishReason.rawValue, userMessages: conversation.userMessages,
                                   contract: conversation.compiler.pack.reply)
        let scored = try await scoring.score(reply: job.suite.checks + expect,
                                             in: context(subject, reply: exchange.text, history: conversation.history, turn: number, user: user))
        for check in scored.later where !later.contains(where: { $0.id == check.id }) { later.append(check) }
        var turn = TurnResult(turn: number, user: user, reply: exchange.text, checks: scored.results,
                              flag: prompt.screening?.decision, latency: reply.latency,
                              timeToFirstToken: reply.timeToFirstToken, inputTokens: reply.usage.inputTokens,
                              outputTokens: reply.usage.outputTokens, usageEstimated: reply.usage.estimated,
                              cost: cost, finishReason: reply.finishReason.rawValue, promptHash: prompt.hash)
        turn.sanitized = exchange.removed
        turn.screening = prompt.screening?.isFlagged == true ? prompt.screening : nil
        turn.cached = reply.cached
        turn.simulated = simulated
        result.turns.append(turn)
    }

    /// Scores the checks kept for the end, over the whole conversation, onto the last turn.
    private mutating func scoreConversation(_ conversation: Conversation) async throws {
        guard !later.isEmpty, let last = result.turns.last else { return }
        let subject = CheckSubject(reply: last.reply, system: "")
        let scored = try await scoring.score(conversation: later,
                                             in: context(subject, reply: nil, history: conversation.history, turn: last.turn, user: last.user))
        result.turns[result.turns.count - 1].checks += scored.results
    }

    private func context(_ subject: CheckSubject, reply: String?, history: [ChatMessage], turn: Int, user: String) -> CalloutContext {
        CalloutContext(subject: subject, reply: reply, history: history, suite: evalCase.suite, fixture: fixture.id,
                       provider: evalCase.provider, turn: turn, user: user,
                       inputs: ScriptCheck.Input.inputs(inputs, pack: fixture.pack), model: nil,
                       fileSystem: settings.fileSystem, environment: settings.environment)
    }
}

extension ChatProvider {
    /// The whole reply, streamed (so time to first token is measured) or not.
    func reply(to request: ChatRequest, streaming: Bool) async throws -> ProviderReply {
        guard streaming else { return try await complete(request) }
        for try await event in stream(request) {
            if case .finished(let reply) = event { return reply }
        }
        throw ProviderError(.streamInterrupted, provider: id, message: "the stream ended without its final event")
    }
}
