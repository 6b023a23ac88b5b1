import ArgumentParser
import CoachLab
import CoachLabProviders
import Foundation

/// `coachlab compile`: prints a pack's layered prompt, or writes and checks every variant.
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Compile a pack into its layered system prompt.",
        discussion: """
        Prints the system prompt for one set of inputs. Profiles, memories and contexts are ids \
        in the pack or paths to YAML files. With --all --out DIR every variant the pack declares \
        is written to DIR/<pack>/<variant>.txt (only the files that changed; a file of a variant \
        that is gone is removed only if DIR/<pack>/.compiled lists it as written by an earlier \
        run); with --check DIR the compiled prompts are compared with the committed ones and any \
        drift is printed as a unified diff (exit 1).

        Examples:
          coachlab compile personas/betterone --topic goal-setting \\
            --intent next_step \\
            --profile freelance-designer --screen "Do I have ADHD? I can't focus on anything."
          coachlab compile personas/kindred --coach career-clarity --profile maya \\
            --format json
          coachlab compile --all --out prompts personas/*
          coachlab compile --check prompts personas/*
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown, mock
    }

    @Argument(help: "The pack folder (several with --all or --check).")
    var packs: [String]

    @OptionGroup var input: CompileInputOptions
    @Option(help: "The latest user message; it is screened and a flag adds the risk alert.")
    var screen: String?
    @Option(help: "Output format: text (the prompt as sent), json (layers, tokens, sources), markdown, or mock (what the mock provider understood from each line, and its reply to --screen).")
    var format: Format = .text
    @Option(help: "Print the exact wire body for a provider kind instead: openai, openai-compatible, anthropic, gemini, proxy. The user message is --screen's, or 'Hello'.")
    var request: String?

    @Flag(help: "Compile every variant the pack declares (with --out).")
    var all = false
    @Option(help: "With --all: the folder to write DIR/<pack>/<variant>.txt into.")
    var out: String?
    @Option(help: "Compare every variant with the prompts committed in DIR; exit 1 on drift.")
    var check: String?

    func validate() throws {
        if all != (out != nil) { throw ValidationError("--all and --out go together: coachlab compile --all --out DIR PACK…") }
        if all, check != nil { throw ValidationError("use either --all --out DIR or --check DIR") }
        if !all, check == nil, packs.count != 1 { throw ValidationError("compile one pack at a time, or use --all / --check") }
    }

    func run() throws {
        if let out { return try writeAll(to: out) }
        if let check { return try checkAll(against: check) }
        let compiler = try PackLoader(fileSystem: .invocation).compiler(for: packs[0])
        var inputs = try input.inputs(for: compiler.pack)
        inputs.screen = screen ?? inputs.screen
        let prompt = try compiler.compile(inputs, fileSystem: .invocation)
        if let request {
            return try printRequest(kind: request, prompt: prompt, message: inputs.screen ?? "Hello", pack: compiler.pack)
        }
        switch format {
        case .text: Terminal.out(prompt.system)
        case .json: Terminal.out(prompt.jsonString(), terminator: "")
        case .markdown: Terminal.out(prompt.markdown(), terminator: "")
        case .mock: Terminal.out(try mockView(of: prompt, compiler: compiler, inputs: inputs), terminator: "")
        }
        for warning in prompt.warnings { Terminal.error("warning: \(warning)") }
    }

    /// What the mock read and its reply, told what the flag added as a run tells it: the same
    /// inputs compiled unflagged, compared with the prompt (``CompiledPrompt/alert(comparedWith:)``).
    private func mockView(of prompt: CompiledPrompt, compiler: Compiler, inputs: CompileInputs) throws -> String {
        var plain = inputs
        plain.screen = nil
        let alert = prompt.screening?.isFlagged == true ? prompt.alert(comparedWith: try compiler.compile(plain, fileSystem: .invocation)) : nil
        return MockReading.explain(prompt, message: inputs.screen ?? "Hello", alert: alert)
    }

    /// The body a provider of `kind` would receive; the URL goes to stderr.
    private func printRequest(kind name: String, prompt: CompiledPrompt, message: String, pack: Pack) throws {
        guard let preview = try ProviderKind(rawValue: name)?.previewRequest(system: prompt.system, message: message, pack: pack) else {
            throw CoachLabError(usage: "--request takes openai, openai-compatible, anthropic, gemini or proxy, not '\(name)'")
        }
        Terminal.error("POST \(preview.url)")
        Terminal.out(preview.body)
    }

    private func writeAll(to directory: String) throws {
        let result = try PromptSnapshots.write(packs: packs, to: directory, fileSystem: .invocation)
        for path in result.foreign { Terminal.error("warning: left \(path): no variant declares it, and compile did not write it") }
        Terminal.error("wrote \(result.written) compiled prompts to \(directory)" + (result.current > 0 ? "; \(result.current) were up to date" : ""))
    }

    private func checkAll(against directory: String) throws {
        var drifts: [PromptSnapshots.Drift] = []
        var checked = 0
        for (pack, files) in try PromptSnapshots.render(packs: packs, fileSystem: .invocation) {
            checked += files.count
            drifts += PromptSnapshots.check(files, packId: pack, in: directory, fileSystem: .invocation)
        }
        for drift in drifts { Terminal.out(drift.description, terminator: "") }
        if drifts.isEmpty {
            Terminal.error("\(checked) compiled prompts match \(directory)")
        } else {
            Terminal.error("\(drifts.count) of \(checked) compiled prompts drifted from \(directory); "
                + "review the diff, then run 'coachlab compile --all --out \(directory) …' to accept it")
            throw ExitCode(Exit.failed)
        }
    }
}
