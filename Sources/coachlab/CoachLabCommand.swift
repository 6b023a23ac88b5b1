import ArgumentParser
import CoachLab
import CoachLabProviders
import Foundation

/// The `coachlab` command.
struct CoachLabCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coachlab",
        abstract: "Author, compile and evaluate the prompt systems of AI coaching apps.",
        discussion: """
        Exit codes: 0 everything held; 1 checks failed or prompts drifted; 2 a usage or \
        content error; 3 provider or infrastructure errors.
        """,
        version: CoachLabVersion.string,
        subcommands: [EvalCommand.self, CompareCommand.self, DiffCommand.self, MergeCommand.self, CompileCommand.self, LintCommand.self, GuardCommand.self, SchemaCommand.self, ChatCommand.self, ProvidersCommand.self, RunsCommand.self, CacheCommand.self, RescoreCommand.self, InitCommand.self, ReportCommand.self, PRCommentCommand.self, WatchCommand.self, JudgeCommand.self,
                      GenerateCommand.self, CoachCommand.self, TipsCommand.self,
                      MutateCommand.self, RedTeamCommand.self, AttackCommand.self, ImportTranscriptsCommand.self, ReviewCommand.self, ServeMockCommand.self]
    )
}

/// The version printed by `--version`.
enum CoachLabVersion {
    static let string = "0.1.0"
}

/// Exit codes, as DESIGN.md sets them.
enum Exit {
    static let ok: Int32 = 0
    static let failed: Int32 = 1
    static let usage: Int32 = 2
    static let infrastructure: Int32 = 3
    /// Stopped at `--max-cost`'s budget; `--resume` goes on.
    static let budget: Int32 = 4
    /// Stopped by Ctrl-C or SIGTERM (the shell's convention, 128 + SIGINT).
    static let interrupted: Int32 = 130
}

@main
enum Main {
    static func main() async {
        exit(await run(Array(CommandLine.arguments.dropFirst())))
    }

    /// Parses `arguments` and runs the command they name in the current ``Invocation``,
    /// reporting what it throws on its standard error; returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        do {
            var command = try CoachLabCommand.parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return Exit.ok
        } catch let error as CoachLabError {
            Terminal.error(error.description)
            return error.kind == .io ? Exit.infrastructure : Exit.usage
        } catch let error as ProviderError {
            // The one place a provider's failure becomes exit 3; commands just let it through.
            Terminal.error("error: \(error)")
            return Exit.infrastructure
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            let code = CoachLabCommand.exitCode(for: error)
            // --help and --version end parsing with an "error" whose exit code is success.
            if code == .success {
                Terminal.out(CoachLabCommand.fullMessage(for: error))
                return Exit.ok
            }
            Terminal.error(CoachLabCommand.fullMessage(for: error))
            return code == .validationFailure ? Exit.usage : code.rawValue
        }
    }
}
