import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab judge`: measuring a judge against people.
struct JudgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "judge",
        abstract: "Measure a judge against people's verdicts.",
        subcommands: [Calibrate.self]
    )

    struct Calibrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calibrate",
            abstract: "Run a judge on labelled transcripts and report agreement, Cohen's kappa, the confusion matrix and the disagreements.",
            discussion: """
            Each file in fixtures/judgements/ is a transcript with a person's verdict (or score) per \
            criterion of a rubric. Verdicts are compared as pass or fail at the rubric's threshold. \
            Exit codes: 0 the gates held; 1 a --fail-under gate missed, or some transcript got no \
            usable answer from the judge (listed); 2 a usage or content error; 3 the judge could not \
            be reached.

            Examples:
              coachlab judge calibrate
              coachlab judge calibrate --judge claude-sonnet --rubric escalation \\
                --fail-under kappa=0.6
            """
        )

        @Argument(help: "Judgement files or folders. Default: fixtures/judgements.")
        var paths: [String] = []
        @Option(help: "The judge: a provider id, mock, or kind:model.")
        var judge = "mock"
        @Option(help: "Only transcripts graded with this named metric.")
        var rubric: String?
        @Option(help: "kappa=RATE or agreement=RATE (0-1); repeatable.")
        var failUnder: [String] = []
        @OptionGroup var provider: ProviderOptions
        @OptionGroup var cache: CacheOptions

        func validate() throws {
            if !provider.providers.isEmpty { throw ValidationError("calibrate names its judge with --judge, not --provider") }
            for gate in failUnder where CalibrationGate(gate) == nil {
                throw ValidationError("--fail-under takes kappa=RATE or agreement=RATE; got '\(gate)'")
            }
        }

        func run() async throws {
            let judgements = try labelled()
            let registry = try provider.registry()
            let configuration = try registry.configuration(for: judge, baseURL: provider.baseURL, apiKeyVariable: provider.apiKeyEnv)
            let chatProvider = try registry.provider(configuration, cache: cache.cache())
            let calibration = try await Calibration.run(judgements, judge: configuration, provider: chatProvider)
            Terminal.out(calibration.text(), terminator: "")
            let missed = CalibrationGate.misses(failUnder.compactMap(CalibrationGate.init), in: calibration)
            for line in missed { Terminal.error(line) }
            if !missed.isEmpty || calibration.answered < calibration.pairs.count { throw ExitCode(Exit.failed) }
        }

        /// The labelled transcripts under the paths, of the chosen metric; any content error stops here.
        private func labelled() throws -> [Judgement] {
            let files = (paths.isEmpty ? ["fixtures/judgements"] : paths).flatMap(ProjectLint(fileSystem: .invocation).yamlFiles(in:))
            var judgements: [Judgement] = []
            var diagnostics: [Diagnostic] = []
            for file in files {
                let (judgement, problems) = EvalLoader(fileSystem: .invocation).judgement(at: file)
                diagnostics += problems
                if let judgement, rubric == nil || judgement.metric == rubric { judgements.append(judgement) }
            }
            for diagnostic in diagnostics { Terminal.error(diagnostic.description) }
            if diagnostics.contains(where: { $0.severity == .error }) { throw ExitCode(Exit.usage) }
            guard !judgements.isEmpty else {
                throw CoachLabError(usage: "no labelled transcripts" + (rubric.map { " for the metric '\($0)'" } ?? ""),
                                    hint: "they live in fixtures/judgements/")
            }
            return judgements
        }
    }
}
