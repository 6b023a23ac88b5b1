import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab chat`: talk to a compiled persona through any provider.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Chat with a compiled persona; replies stream and guardrail flags are shown.",
        discussion: """
        Each user message is screened (stage 1) and compiled into the prompt, so a flagged message \
        gets the pack's risk alert, as in the app. With no --provider, the embedded mock answers. \
        Slash commands are handled here and never sent: /help, /reset, /save PATH and /quit (or \
        end input) to stop. On a terminal, lines are edited (arrows, Home, End, Ctrl-A, Ctrl-E, \
        Ctrl-K, Ctrl-U, Ctrl-W) and Up and Down recall earlier messages; no key's escape code is \
        ever sent or saved. \
        Without a terminal, turns are read from standard input, one per line.

        Examples:
          coachlab chat personas/betterone --topic goal-setting --provider mock
          printf 'Hi\\nDo I have ADHD?\\n' | coachlab chat personas/betterone \\
            --topic focus --provider mock
          coachlab chat personas/luna --now 2026-03-01T03:10:00-05:00 \\
            --provider luna --save fixtures/luna/night.yaml
        """
    )

    @Argument(help: "The pack folder.")
    var pack: String
    @OptionGroup var input: CompileInputOptions
    @OptionGroup var provider: ProviderOptions
    @Option(help: "Save the transcript as a fixture YAML file when the chat ends (it replaces only a fixture chat recorded, never a hand-written one).")
    var save: String?
    @Flag(help: "Wait for whole replies instead of streaming.")
    var noStream = false
    @Flag(help: "Strip leaked system-prompt lines from each reply (Kindred's sanitiser) and say what was removed.")
    var sanitize = false
    @Option(help: "Where flagged interactions are logged (coachlab guard log). Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?

    func validate() throws {
        if provider.providers.count > 1 { throw ValidationError("chat talks to one provider; name one --provider") }
    }

    func run() async throws {
        if let save { try FileSystem.invocation.checkReplaceable(save, by: .recording) }
        var session = try ChatSession(self)
        if session.interactive {
            Terminal.error("Chatting with \(session.speaker) (\(session.compiler.pack.name)) via \(session.providerID). /quit to stop.")
        }
        while let message = try session.nextMessage() {
            try await session.exchange(message)
        }
        if let save { try session.save(to: save) }
        if session.failures > 0 && session.turns.isEmpty { throw ExitCode(Exit.infrastructure) }
    }

    /// One chat: the conversation, and what the terminal shows of each exchange.
    struct ChatSession {
        let compiler: Compiler
        let inputs: CompileInputs
        let speaker: String
        let providerID: String
        let interactive = Invocation.current.inputIsTerminal
        private let provider: any ChatProvider
        private let summarise: Conversation.Summarise
        private let noStream: Bool
        private let pack: String
        private let store: String?
        private var conversation: Conversation
        private let resolved: ResolvedInputs
        private let sanitize: Bool
        private(set) var turns: [FixtureRecording.Turn] = []
        private(set) var failures = 0
        /// The line being typed and the messages sent before, for Up and Down.
        private var editor = LineEditor()

        init(_ command: ChatCommand) throws {
            compiler = try PackLoader(fileSystem: .invocation).compiler(for: command.pack)
            inputs = try command.input.inputs(for: compiler.pack)
            let resolved = try ResolvedInputs(inputs, pack: compiler.pack, fileSystem: .invocation)
            let registry = try command.provider.registry()
            let configuration = try command.provider.configurations(in: registry)[0]
            let provider = try registry.provider(configuration)
            self.provider = provider
            providerID = configuration.id
            speaker = resolved.coach.flatMap { $0.value.located("name")?.value }
                ?? compiler.pack.persona?.located("name")?.value ?? compiler.pack.name
            summarise = { history, rotation in
                try await Conversation.summary(of: history, rotation: rotation, provider: provider,
                                               sendsSchema: configuration.sendsResponseSchema)
            }
            conversation = Conversation(compiler: compiler, inputs: resolved, sanitize: command.sanitize)
            (self.resolved, sanitize) = (resolved, command.sanitize)
            (noStream, pack, store) = (command.noStream, command.pack, command.store)
        }

        /// The commands handled here, never sent to the coach.
        static let help = """
            /help         these commands
            /reset        start the conversation again (the saved fixture starts here too)
            /save PATH    save the conversation so far as a fixture
            /quit         stop (so does the end of input)
            """

        /// The next message: a line of input without terminal escape codes (an arrow key's
        /// `ESC [ A`) or other control characters, skipping blank ones and handling the slash
        /// commands here; nil at the end or on /quit.
        mutating func nextMessage() throws -> String? {
            while true {
                // On the process's own terminal the line is edited here (arrows, history);
                // otherwise it is read as it comes.
                let line = interactive && Invocation.current.ownsProcess ? LineEditor.read(prompt: "you> ", editor: &editor)
                    : Invocation.current.readLine()
                guard let line else { return nil }
                let message = Self.typed(line).trimmingCharacters(in: .whitespaces)
                if message.isEmpty { continue }
                let words = message.split(separator: " ", maxSplits: 1).map(String.init)
                switch words[0] {
                case "/quit", "/exit":
                    return nil
                case "/help":
                    Terminal.error(Self.help)
                    continue
                case "/reset":
                    conversation = Conversation(compiler: compiler, inputs: resolved, sanitize: sanitize)
                    turns = []
                    Terminal.error("the conversation starts again")
                    continue
                case "/save":
                    guard words.count == 2 else { Terminal.error("/save takes a path: /save fixtures/app/chat.yaml"); continue }
                    do {
                        try FileSystem.invocation.checkReplaceable(words[1], by: .recording)
                        try save(to: words[1])
                    } catch { Terminal.error("\(error)") }
                    continue
                case let command where command.hasPrefix("/") && words.count == 1 && command.dropFirst().allSatisfy(\.isLetter):
                    Terminal.error("no command \(command); /help lists them")
                    continue
                default:
                    break
                }
                if !interactive { Terminal.out("you> \(message)") }
                return message
            }
        }

        /// What the user typed, without the escape sequences a terminal sends for keys that
        /// edit rather than type (arrows, Home, Delete) and without other control characters.
        static func typed(_ line: String) -> String {
            line.replacingOccurrences(of: #"\x{1B}(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?"#, with: "", options: .regularExpression)
                .filter { character in !character.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\t" } }
        }

        /// Saves the conversation as a fixture. If the file cannot be written (one appeared at the
        /// path during the chat, say), the fixture goes to standard output instead, so the
        /// conversation is not lost, and the error follows.
        func save(to path: String) throws {
            let recorded = FixtureRecording(id: Paths.stem(path), pack: pack, inputs: inputs, turns: turns)
            do {
                try FileSystem.invocation.write(recorded.yaml, to: path, replacing: .recording)
            } catch {
                Terminal.out(recorded.yaml, terminator: "")
                throw error
            }
            Terminal.error("saved \(turns.count) turns to \(path)")
        }

        /// Screens and sends one message and shows the reply; a provider's failure is shown
        /// and counted, and the chat goes on.
        mutating func exchange(_ message: String) async throws {
            for line in Reporters.chatFlags(compiler.screen(message)) { Terminal.out(line) }
            Terminal.out("\(speaker.lowercased())> ", terminator: "")
            let (provider, noStream) = (self.provider, self.noStream)
            // Streamed pieces show as they arrive; the sanitiser (when on) can only clean the whole reply.
            let send: Conversation.Send = { request in
                guard !noStream else { return try await provider.complete(request) }
                return try await ChatCommand.streamReply(provider.stream(request), provider: provider.id)
            }
            let exchange: Conversation.Turn
            do {
                exchange = try await conversation.send(message, using: send, summarise: summarise)
            } catch let error as ProviderError {
                Terminal.out("")
                Terminal.error("error: \(error)")
                failures += 1
                return
            }
            show(exchange)
            turns.append(FixtureRecording.Turn(user: message, reply: exchange.text))
            if let flag = exchange.prompt.screening?.decision {
                let log = try ResultStore(path: Terminal.storePath(store), system: Invocation.current.system)
                try log.log(GuardrailLogEntry(at: ResultStore.timestamp(log.clock()), source: "chat", pack: pack, flag: flag,
                                              message: message, reply: exchange.text))
            }
        }

        private func show(_ exchange: Conversation.Turn) {
            if noStream { Terminal.out(exchange.text, terminator: "") }
            Terminal.out("")
            for line in Reporters.chatNotes(exchange.reply, rotated: exchange.rotated, removed: exchange.removed) { Terminal.error(line) }
            // A streamed reply showed as it came; what the sanitiser kept is shown again.
            if exchange.removed?.isEmpty == false, !noStream { Terminal.out("  (kept) \(exchange.text)") }
        }
    }

    private static func streamReply(_ stream: AsyncThrowingStream<StreamEvent, Error>, provider: String) async throws -> ProviderReply {
        for try await event in stream {
            switch event {
            case .delta(let piece): Terminal.out(piece, terminator: "")
            case .restarted(let reason): Terminal.out("\n  [\(reason.provider): \(reason.code); starting the reply again] ", terminator: "")
            case .finished(let reply): return reply
            }
        }
        throw ProviderError(.streamInterrupted, provider: provider, message: "the stream ended early")
    }
}

enum Paths {
    /// A file name without folders and extension.
    static func stem(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return (name as NSString).deletingPathExtension
    }
}
