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
        Each user message is screened (stage 1) and compiled into the prompt, so a flagged message
        gets the pack's risk alert, as in the app. Type /quit (or end input) to stop. Without a
        terminal, turns are read from standard input, one per line.

        Examples:
          coachlab chat personas/betterone --topic goal-setting --provider mock
          printf 'Hi\\nDo I have ADHD?\\n' | coachlab chat personas/betterone --topic focus --provider mock
          coachlab chat personas/luna --now 2026-03-01T03:10:00-05:00 --provider luna --save fixtures/luna/night.yaml
        """
    )

    @Argument(help: "The pack folder.")
    var pack: String
    @OptionGroup var input: CompileInputOptions
    @OptionGroup var provider: ProviderOptions
    @Option(help: "Save the transcript as a fixture YAML file when the chat ends.")
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
        let compiler = try Compiler(pack: PackLoader().load(pack).get())
        let inputs = try input.inputs(for: compiler.pack)
        let resolved = try ResolvedInputs(inputs, pack: compiler.pack)
        let registry = try provider.registry()
        guard let configuration = try provider.configurations(in: registry).first else { return }
        let chatProvider = try registry.provider(configuration)
        let speaker = resolved.coach.flatMap { $0.value.located("name")?.value }
            ?? compiler.pack.persona?.located("name")?.value ?? compiler.pack.name
        let interactive = isatty(STDIN_FILENO) != 0
        if interactive {
            Terminal.error("Chatting with \(speaker) (\(compiler.pack.name)) via \(configuration.id). /quit to stop.")
        }
        var conversation = Conversation(compiler: compiler, inputs: resolved, sanitize: sanitize)
        var turns: [(user: String, reply: String)] = []
        var failures = 0
        let noStream = self.noStream
        let summarise: Conversation.Summarise = { history, rotation in
            try await Conversation.summary(of: history, rotation: rotation, provider: chatProvider,
                                           sendsSchema: configuration.sendsResponseSchema)
        }
        while true {
            if interactive { Terminal.out("you> ", terminator: "") }
            guard let line = readLine() else { break }
            let message = line.trimmingCharacters(in: .whitespaces)
            if message.isEmpty { continue }
            if message == "/quit" || message == "/exit" { break }
            if !interactive { Terminal.out("you> \(message)") }

            let screening = compiler.screen(message)
            for flag in screening.flags {
                Terminal.out("  [guardrail] \(flag.ruleTitle) (\(flag.ruleId)), stage \(flag.stage) \(flag.kind.rawValue) "
                    + "\"\(flag.excerpt)\"\(flag == screening.decision ? ", risk alert added" : "")")
            }
            Terminal.out("\(speaker.lowercased())> ", terminator: "")
            do {
                // Streamed pieces show as they arrive; the sanitiser (when on) can only clean the whole reply.
                let send: Conversation.Send = { request in
                    guard !noStream else { return try await chatProvider.complete(request) }
                    return try await ChatCommand.streamReply(chatProvider.stream(request), provider: chatProvider.id)
                }
                let exchange = try await conversation.send(message, using: send, summarise: summarise)
                let reply = exchange.reply
                if noStream { Terminal.out(exchange.text, terminator: "") }
                Terminal.out("")
                if exchange.rotated {
                    Terminal.error("  [context] the conversation reached the pack's limit; it continues in a new session carrying a summary")
                }
                if let removed = exchange.removed, !removed.isEmpty {
                    Terminal.error("  [sanitiser] removed \(removed.count) line\(removed.count == 1 ? "" : "s") that repeat the system prompt")
                    if !noStream { Terminal.out("  (kept) \(exchange.text)") }
                }
                let fallback = reply.fellBackFrom.isEmpty ? "" : " after " + reply.fellBackFrom.joined(separator: ", ") + " failed"
                Terminal.error(String(format: "  (%@%@ · %@ · %.2f s%@ · %d→%d tokens%@)", reply.provider, fallback, reply.model, reply.latency,
                                      reply.timeToFirstToken.map { String(format: " · first token %.2f s", $0) } ?? "",
                                      reply.usage.inputTokens, reply.usage.outputTokens, reply.usage.estimated ? " est." : ""))
                turns.append((message, exchange.text))
                if let flag = exchange.prompt.screening?.decision {
                    let path = Terminal.storePath(store)
                    try ResultStore(path: path).log(GuardrailLogEntry(at: ResultStore.timestamp(Date()), source: "chat", pack: pack,
                                                                      flag: flag, message: message, reply: exchange.text))
                }
            } catch let error as ProviderError {
                Terminal.out("")
                Terminal.error("error: \(error)")
                failures += 1
            }
        }
        if let save {
            try Files.write(fixture(turns: turns, inputs: inputs), to: save)
            Terminal.error("saved \(turns.count) turns to \(save)")
        }
        if failures > 0 && turns.isEmpty { throw ExitCode(Exit.infrastructure) }
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

    /// The transcript as a fixture: its target, inputs and turns with recorded replies.
    private func fixture(turns: [(user: String, reply: String)], inputs: CompileInputs) -> String {
        func quoted(_ text: String) -> String { JSONValue.string(text).text }
        var lines = ["# Recorded with coachlab chat.", "fixture:", "  id: \(quoted(Paths.stem(save ?? "chat")))",
                     "  pack: \(quoted(pack))"]
        for (key, value) in [("coach", inputs.coach), ("topic", inputs.topic), ("intent", inputs.intent), ("profile", inputs.profile),
                             ("memory", inputs.memory), ("context", inputs.context), ("now", inputs.now?.description)] {
            if let value { lines.append("  \(key): \(quoted(value))") }
        }
        lines.append("turns:")
        for turn in turns {
            lines.append("  - user: \(quoted(turn.user))")
            lines.append("    reply: \(quoted(turn.reply))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

enum Paths {
    /// A file name without folders and extension.
    static func stem(_ path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return (name as NSString).deletingPathExtension
    }
}
