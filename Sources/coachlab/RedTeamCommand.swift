import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab redteam`: how much of each guardrail rule's recall survives rewritten messages.
struct RedTeamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redteam",
        abstract: "Measure how each guardrail rule holds up when its flagged messages are rewritten.",
        discussion: """
        Every labelled message the screen catches as written is rewritten in deterministic ways, \
        and screened again; the report gives each rule's recall under each rewrite, and how many \
        harmless messages a rewrite makes a rule flag. The rewrites (paraphrase only with --paraphrase):
        \(Perturbation.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))

        The messages come from the labelled sets in fixtures/guardrails/ that name the pack \
        (dataset.pack), or from --dataset; --split keeps one split (tune on dev, report test). \
        Perturbations aim at the words that flagged each message. With --stage2, a second table gives stage 1 and the \
        classifier together (--provider, the mock by default).

        --paraphrase N asks the provider (--provider, the mock by default) for N paraphrases of \
        each message stage 1 catches, and adds a paraphrase row: words nobody on the team chose. \
        --paraphrase-out FILE also writes them as a labelled set, each labelled with its \
        original's rule, for review before any tuning on them; it never overwrites a file.

        --fail-under gates it: RATE applies to every rule under every rewrite, and \
        REWRITE=RATE to one rewrite; exit 1 when a rule falls below. With --stage2 the gate \
        applies to both stages together.

        Examples:
          coachlab redteam personas/betterone
          coachlab redteam personas/luna --perturbation homoglyph \\
            --perturbation leetspeak --format json
          coachlab redteam personas/ticbuddy --fail-under 0.5 --fail-under case=1 \\
            --fail-under homoglyph=0.95
          coachlab redteam personas/luna --paraphrase 5 --provider local-gemma \\
            --paraphrase-out luna-paraphrases.yaml
        """
    )

    @Argument(help: "The pack whose guardrails are tested.")
    var pack: String
    @Option(name: .customLong("dataset"), help: "A labelled set (YAML or JSONL); repeatable. Default: the sets in fixtures/guardrails/ for the pack.")
    var datasets: [String] = []
    @Option(help: "Only the sets of this split (dev or test). Default: every set.")
    var split: GuardrailDataset.Split?
    @Option(name: .customLong("perturbation"), help: "Only this rewrite; repeatable. Default: all.")
    var perturbations: [Perturbation] = []
    @Option(help: "RATE or REWRITE=RATE; repeatable.")
    var failUnder: [String] = []
    @Flag(help: "Also measure stage 1 and the stage-2 classifier together.")
    var stage2 = false
    @Option(help: "Ask the provider for N paraphrases of each message stage 1 catches (1 to 20).")
    var paraphrase = 0
    @Option(help: "Write the paraphrases as a labelled set (YAML) for review; the file must not exist.")
    var paraphraseOut: String?
    @OptionGroup var provider: ProviderOptions
    @Option(help: "text or json.")
    var format: GuardScreenCommand.OutputFormat = .text
    @OptionGroup var cache: CacheOptions

    func validate() throws {
        guard (0...20).contains(paraphrase) else { throw ValidationError("--paraphrase takes 1 to 20 rewrites per message; got \(paraphrase)") }
        if paraphraseOut != nil && paraphrase == 0 { throw ValidationError("--paraphrase-out needs --paraphrase N") }
        if perturbations.contains(.paraphrase) && paraphrase == 0 { throw ValidationError("--perturbation paraphrase needs --paraphrase N") }
        if let paraphraseOut, FileSystem.invocation.exists(paraphraseOut) {
            throw ValidationError("--paraphrase-out \(paraphraseOut) exists; redteam never overwrites a file, so name a new one")
        }
        for gate in failUnder where RedTeamGate(gate) == nil {
            throw ValidationError("--fail-under '\(gate)' is not RATE or REWRITE=RATE (REWRITE one of \(Perturbation.allCases.map(\.rawValue).joined(separator: ", ")), RATE from 0 to 1)")
        }
    }

    func run() async throws {
        let pack = try PackLoader(fileSystem: .invocation).load(self.pack).get()
        guard pack.rules.contains(where: { $0.guardrail != nil }) else {
            return Terminal.out("\(self.pack) has no guardrail rules; nothing to red-team.")
        }
        let sets = try labelledSets(for: pack)
        let reports = try await self.reports(pack, sets: sets)
        if format == .json {
            Terminal.out(try Reporters.redTeamJSON(reports, pack: self.pack), terminator: "")
        } else {
            Terminal.out(reports.map { Reporters.redTeam($0.report, title: $0.title, pack: self.pack) }.joined(separator: "\n"), terminator: "")
        }
        let missed = RedTeamGate.misses(failUnder.compactMap(RedTeamGate.init), in: reports[reports.count - 1].report)
        for line in missed { Terminal.error("fail-under: \(line)") }
        if !missed.isEmpty { throw ExitCode(Exit.failed) }
    }

    /// The labelled sets to rewrite: those named, else every set in fixtures/guardrails/ for
    /// the pack, of the chosen split; each checked against the pack.
    private func labelledSets(for pack: Pack) throws -> [GuardrailDataset] {
        let sets = (datasets.isEmpty ? try GuardrailDataset.discover(for: self.pack, fileSystem: .invocation) : try datasets.map { try GuardrailDataset.load($0, fileSystem: .invocation) })
            .filter { split == nil || $0.split == split }
        guard !sets.isEmpty else {
            throw CoachLabError(usage: "no labelled set\(split.map { " of the \($0.rawValue) split" } ?? "") names \(self.pack) in fixtures/guardrails/",
                                hint: "give one with --dataset, or set dataset.pack (and dataset.split) in a set")
        }
        for set in sets {
            let problems = set.problems(for: pack)
            if !problems.isEmpty { throw CoachLabError(.content, problems) }
        }
        return sets
    }

    /// Stage 1's report, then (with --stage2) the two stages together.
    private func reports(_ pack: Pack, sets: [GuardrailDataset]) async throws -> [(title: String, report: RedTeamReport)] {
        let items = sets.flatMap(\.items)
        let rules = pack.guardedRuleIDs.filter { rule in items.contains { $0.expected == rule } }
        let names = sets.map { $0.id + ($0.split.map { " \($0.rawValue)" } ?? "") }
        let screener = Screener(pack: pack)
        let paraphrases = try await self.paraphrases(of: items.filter { $0.expected != nil && screener.screen($0.message).decision?.ruleId == $0.expected })
        let chosen = perturbations.isEmpty ? Perturbation.deterministic + (paraphrase > 0 ? [.paraphrase] : []) : perturbations
        var reports = [("stage 1", await RedTeam.run(items, rules: rules, datasets: names, perturbations: chosen, paraphrases: paraphrases) {
            screener.screen($0).decision
        })]
        guard stage2 else { return reports }
        let both = try twoStage(pack)
        do {
            reports.append(("stage 1 + 2 (\(both.name))", try await RedTeam.run(items, rules: rules, datasets: names, perturbations: chosen,
                                                                                paraphrases: paraphrases) {
                try await both.screener.screen($0).screening.decision
            }))
        } catch var error as ProviderError {
            error.message = "the stage-2 classifier failed: " + error.message
            throw error
        }
        return reports
    }

    /// With --paraphrase, the provider's rewrites of the messages stage 1 catches, written to
    /// --paraphrase-out when given.
    private func paraphrases(of caught: [GuardrailDataset.Item]) async throws -> [String: [String]] {
        guard paraphrase > 0 else { return [:] }
        let model = try classifierProvider()
        let found: [String: [String]]
        do {
            found = try await Paraphraser(provider: model.provider, count: paraphrase, concurrency: model.concurrency)
                .paraphrases(of: caught.map(\.message))
        } catch var error as ProviderError {
            error.message = "asking for paraphrases failed: " + error.message
            throw error
        }
        if let paraphraseOut {
            let id = URL(fileURLWithPath: paraphraseOut).deletingPathExtension().lastPathComponent
            let rewrites = caught.map { ($0, found[$0.message] ?? []) }
            let text = Paraphrase.labelledSet(id: id, pack: pack, provider: model.id,
                                              command: "coachlab redteam \(pack) --paraphrase \(paraphrase) --provider \(model.id)",
                                              rewrites: rewrites)
            try FileSystem.invocation.write(text, to: paraphraseOut, mode: .createNew)
            Terminal.error("wrote \(rewrites.map(\.1.count).reduce(0, +)) paraphrases to \(paraphraseOut) for review")
        }
        return found
    }

    private func twoStage(_ pack: Pack) throws -> (screener: TwoStageScreener, name: String) {
        let model = try classifierProvider()
        return (TwoStageScreener(pack: pack, classifier: model.provider), model.id)
    }

    /// The provider --provider names (the mock by default), for stage 2 and paraphrases.
    private func classifierProvider() throws -> (provider: any ChatProvider, id: String, concurrency: Int) {
        let registry = try provider.registry()
        let configuration = try registry.configuration(for: provider.providers.first ?? "mock", baseURL: provider.baseURL,
                                                       apiKeyVariable: provider.apiKeyEnv)
        return (try registry.provider(configuration, cache: cache.cache()), configuration.id, configuration.concurrency)
    }
}

extension Perturbation: ExpressibleByArgument {}
extension GuardrailDataset.Split: ExpressibleByArgument {}
