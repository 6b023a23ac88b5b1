import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab guard`: screen a message, score a labelled set, or read the guardrail log.
struct GuardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guard",
        abstract: "Screen messages with a pack's guardrails, measure them on labelled sets, and read the guardrail log.",
        subcommands: [GuardScreenCommand.self, GuardLogCommand.self],
        defaultSubcommand: GuardScreenCommand.self
    )
}

struct GuardScreenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screen",
        abstract: "Screen one message, or score a labelled dataset (the default guard command).",
        discussion: """
        Stage 1 matches the pack's keywords and patterns; with --stage2, a model (--provider, the \
        mock by default) classifies messages stage 1 did not flag (every message, when the pack's \
        defaults.screening.stage2 is 'always'). A classifier answer that cannot be parsed is \
        reported as unknown, never as safe.

        --dataset scores a labelled set (YAML with dataset: and items:, or JSONL lines of \
        {"message", "expected", "about"}), printing precision, recall and F1 per rule and overall, \
        the confusion counts, and every false negative and false positive. Repeat it to score a \
        dev and a test split side by side; each set is reported and gated on its own, under its \
        split. --fail-under gates them: RATE (F1) or METRIC=RATE with METRIC precision, recall or \
        f1, applied to every rule and overall; exit 1 when one misses.

        Examples:
          coachlab guard "Do I have ADHD? I can't focus on anything." \\
            --pack personas/betterone
          coachlab guard "Should I stop my medication?" --pack personas/betterone \\
            --stage2 --provider mock --format json
          coachlab guard --dataset fixtures/guardrails/betterone-test.yaml \\
            --fail-under precision=0.9 --fail-under recall=0.9
        """
    )

    @Argument(help: "The message to screen.")
    var message: String?
    @Option(help: "The pack whose guardrails screen. Default: the dataset's pack.")
    var pack: String?
    @Flag(help: "Run the stage-2 classifier too.")
    var stage2 = false
    @OptionGroup var provider: ProviderOptions
    @Option(name: .customLong("dataset"), help: "A labelled dataset to score (YAML or JSONL); repeatable.")
    var datasets: [String] = []
    @Option(help: "With --dataset: RATE (F1) or precision=|recall=|f1=RATE; repeatable.")
    var failUnder: [String] = []
    @Option(help: "text or json.")
    var format: OutputFormat = .text
    @OptionGroup var cache: CacheOptions

    enum OutputFormat: String, ExpressibleByArgument { case text, json }

    func validate() throws {
        if (message == nil) == datasets.isEmpty { throw ValidationError("give a message or --dataset FILE (one of them)") }
        if !failUnder.isEmpty, datasets.isEmpty { throw ValidationError("--fail-under applies to --dataset") }
        for gate in failUnder where GuardrailGate(gate) == nil {
            throw ValidationError("--fail-under '\(gate)' is not RATE or precision=|recall=|f1=RATE with RATE from 0 to 1")
        }
    }

    func run() async throws {
        let loaded = try datasets.map { try GuardrailDataset.load($0, fileSystem: .invocation) }
        var scores: [GuardrailScore] = []
        do {
            if loaded.isEmpty, let message {
                let (screener, classifierName) = try screener(pack: try loadPack(pack))
                return try await screenOne(message, screener: screener, classifierName: classifierName)
            }
            for dataset in loaded {
                let pack = try loadPack(pack ?? dataset.pack)
                scores.append(try await score(dataset, pack: pack, screener: try screener(pack: pack).screener))
            }
        } catch var error as ProviderError {
            error.message = "the stage-2 classifier failed: " + error.message
            throw error
        }
        try show(scores)
        let missed = scores.flatMap { GuardrailGate.misses(failUnder.compactMap(GuardrailGate.init), in: $0) }
        for line in missed { Terminal.error("fail-under: \(line)") }
        if !missed.isEmpty { throw ExitCode(Exit.failed) }
    }

    private func show(_ scores: [GuardrailScore]) throws {
        guard format == .json else { return Terminal.out(scores.map(Reporters.guardrails).joined(separator: "\n"), terminator: "") }
        let encoder = JSONEncoder.sorted(pretty: true)
        let data = scores.count == 1 ? try encoder.encode(scores[0]) : try encoder.encode(scores)
        Terminal.out(String(decoding: data, as: UTF8.self))
    }

    private func loadPack(_ path: String?) throws -> Pack {
        guard let path else { throw CoachLabError(usage: "name the pack with --pack", hint: "for example --pack personas/betterone") }
        return try PackLoader(fileSystem: .invocation).load(path).get()
    }

    /// Stage 1, and stage 2 when asked, for one pack.
    private func screener(pack: Pack) throws -> (screener: TwoStageScreener, classifierName: String?) {
        guard stage2 else { return (TwoStageScreener(pack: pack, classifier: nil), nil) }
        let registry = try provider.registry()
        let configuration = try registry.configuration(for: provider.providers.first ?? "mock", baseURL: provider.baseURL,
                                                       apiKeyVariable: provider.apiKeyEnv)
        // A labelled set is classified again after every rule edit: answers already paid for
        // come from the response cache.
        let classifier = try registry.provider(configuration, cache: cache.cache())
        return (TwoStageScreener(pack: pack, classifier: classifier), configuration.id)
    }

    private func screenOne(_ message: String, screener: TwoStageScreener, classifierName: String?) async throws {
        let outcome = try await screener.screen(message)
        switch format {
        case .text: Terminal.out(Reporters.screening(outcome, classifier: classifierName), terminator: "")
        case .json: Terminal.out(Reporters.screeningJSON(outcome, classifier: classifierName), terminator: "")
        }
    }

    private func score(_ dataset: GuardrailDataset, pack: Pack, screener: TwoStageScreener) async throws -> GuardrailScore {
        try await GuardrailScore.score(dataset, pack: pack) { message in
            let outcome = try await screener.screen(message)
            return (outcome.screening.decision, outcome.isUnknown)
        }
    }

}

struct GuardLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Show the guardrail log: every flagged interaction in evals and chats, newest first.",
        usage: "coachlab guard log [--run <run>] [--rule <rule>] [options]"
    )

    @Option(help: "The result store. Default: $COACHLAB_STORE, or .coachlab/coachlab.sqlite.")
    var store: String?
    @Option(name: .customLong("run"), help: "Only this run's entries.")
    var runId: String?
    @Option(help: "Only this rule's entries.")
    var rule: String?
    @Option(help: "At most this many entries.")
    var limit = 50
    @Option(help: "text or json.")
    var format: GuardScreenCommand.OutputFormat = .text

    func run() throws {
        let path = Terminal.storePath(store)
        let entries = try ResultStore(path: path, system: Invocation.current.system).guardrailLog(run: runId, rule: rule, limit: limit)
        if format == .json {
            let encoder = JSONEncoder.sorted(pretty: true)
            Terminal.out(String(decoding: try encoder.encode(entries), as: UTF8.self))
            return
        }
        guard !entries.isEmpty else {
            Terminal.error("no flagged interactions in \(path)")
            return
        }
        Terminal.out(Reporters.guardrailLog(entries), terminator: "")
    }
}
