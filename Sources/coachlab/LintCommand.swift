import ArgumentParser
import CoachLab
import Foundation

/// `coachlab lint`: validates packs and reports every problem as `path:line:col: …`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Validate packs, fixtures and suites; print every problem as path:line:col: error|warning: message.",
        discussion: """
        With no paths, lints every pack under personas/, every fixture under fixtures/ and every \
        suite under evals/. A path may be a pack folder, a file inside one, a folder of packs, \
        or fixture and suite files and folders. Exits 0 when there are no errors (warnings \
        allowed), 2 when there are, or when there is nothing to lint (no path named, and none \
        of those folders here).
        """
    )

    @Argument(help: "Packs, files in packs, folders of packs, fixtures or suites. Default: personas/, fixtures/, evals/.")
    var paths: [String] = []

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let result = try ProjectLint(fileSystem: .invocation).lint(paths)
        let colour = Terminal.stdoutIsTerminal
        for diagnostic in result.diagnostics { Terminal.out(Terminal.styled(diagnostic.description, colour: colour)) }
        if result.coverage.count > 1 {
            for (pack, coverage) in result.coverage { Terminal.error("reading coverage of \(pack): \(coverage.summary)") }
        }
        Terminal.error(result.summary)
        if result.fails(strict: strict) { throw ExitCode(Exit.usage) }
    }
}
