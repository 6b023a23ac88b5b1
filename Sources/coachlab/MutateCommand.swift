import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab mutate`: how many injected prompt defects the suites catch on the mock.
struct MutateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mutate",
        abstract: "Inject prompt defects into the packs, in memory, and report which ones the suites catch.",
        usage: "coachlab mutate [<suites> ...] [--pack <pack> ...] [options]",
        discussion: """
        Each mutant is one defect in one pack file, overlaid on the real files in memory; the \
        packs on disk are never written. The suites run on the mock against the unchanged packs, \
        then against each mutant. A mutant is killed when a case that passed now fails (the case \
        and check are named), caught by lint when the pack no longer loads cleanly, equivalent \
        when it changes no compiled prompt the suites use and no screening decision (left out of \
        the score), and otherwise survives: survivors are listed with file:line, the text before \
        and after, and a hint of the fixture or check that would catch them.

        Operators: \(Mutant.Operator.allCases.map(\.rawValue).joined(separator: ", ")). \
        docs/mutate.md explains each one and how to read a survivor.

        Examples:
          coachlab mutate
          coachlab mutate --pack luna --operator delete-instruction
          coachlab mutate --fail-under 0.9 --json mutants.json --markdown mutants.md
        """
    )

    @Argument(help: "Suite files, or folders of them (default: every suite in evals/).")
    var suites: [String] = []
    @Option(help: "Only this pack (its folder or name); repeatable.")
    var pack: [String] = []
    @Option(name: .customLong("operator"), help: "Only this operator; repeatable.")
    var operators: [String] = []
    @Option(help: "Exit 1 when any pack's score (caught over non-equivalent mutants) is below RATE (0-1).")
    var failUnder: Double?
    @Option(name: [.customShort("j"), .long], help: "Mutants run at once. Default: the number of cores.")
    var concurrency: Int?
    @Option(help: "Write every mutant and the scores as JSON to FILE.")
    var json: String?
    @Option(help: "Write the scores and survivors as Markdown to FILE.")
    var markdown: String?
    @Flag(help: "Also list each killed mutant with the case and check that caught it.")
    var verbose = false

    func validate() throws {
        if let failUnder, !(0...1).contains(failUnder) { throw ValidationError("--fail-under takes a rate from 0 to 1") }
        for name in operators where Mutant.Operator(rawValue: name) == nil {
            throw ValidationError("unknown operator '\(name)'; the operators are " + Mutant.Operator.allCases.map(\.rawValue).joined(separator: ", "))
        }
    }

    func run() async throws {
        try reports.check(fileSystem: .invocation)
        let loaded = try EvalContent.load(suites: suites, heldFixtures: .max)
        let tester = MutationTester(suites: loaded, registry: ProviderRegistry(system: Invocation.current.system), fileSystem: .invocation,
                                    concurrency: concurrency ?? ProcessInfo.processInfo.activeProcessorCount)
        let mutants = try tester.mutants(packs: pack.isEmpty ? nil : Set(pack), operators: operators.isEmpty ? nil : Set(operators.compactMap(Mutant.Operator.init)))
        guard !mutants.isEmpty else { throw CoachLabError(usage: "no mutants: no suite uses the named packs, or no operator applies") }
        let clock = ContinuousClock()
        var summary: MutationSummary?
        let elapsed = try await clock.measure { summary = try await tester.run(mutants) }.components
        guard let summary else { return }
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        if !summary.baselineFailures.isEmpty {
            Terminal.error("warning: \(summary.baselineFailures.count) cases already fail on the unchanged packs and cannot catch a defect: "
                           + summary.baselineFailures.prefix(5).joined(separator: ", ") + (summary.baselineFailures.count > 5 ? ", …" : ""))
        }
        Terminal.out(MutationReport.terminal(summary, failUnder: failUnder, verbose: verbose), terminator: "")
        Terminal.error(String(format: "%d mutants in %.1f s (%.1f mutants/s)", mutants.count, seconds, Double(mutants.count) / max(seconds, 0.001)))
        try write(summary)
    }

    private var reports: ReportFiles<MutationSummary> { ReportFiles(ReportFormats.mutation, paths: ["json": json, "markdown": markdown]) }

    /// The reports, then the gate: every pack's score must reach --fail-under.
    private func write(_ summary: MutationSummary) throws {
        try reports.write(summary, fileSystem: .invocation)
        if let failUnder, summary.packs.contains(where: { summary.counts(pack: $0).score < failUnder }) {
            throw ExitCode(Exit.failed)
        }
    }
}
