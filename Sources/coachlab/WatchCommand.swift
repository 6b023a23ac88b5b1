import ArgumentParser
import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// `coachlab watch`: recompile on every save and re-run only the fixtures a change touched.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Recompile a pack on every save, show the layers that changed, and re-run only the fixtures they touch.",
        usage: "coachlab watch <pack> [<suites> ...] [options]",
        discussion: """
        Runs the pack's fixtures (from the suites given, or every evals/*.yaml) once, then waits for \
        file events in the pack, the fixtures' folders and the suites' folders. On each save it \
        reloads the pack (printing lint's diagnostics if it no longer loads), shows each layer whose \
        text changed with its token counts, and re-runs the fixtures whose compiled prompt or file \
        changed, on the mock unless --provider says otherwise. Ctrl-C stops.

        Examples:
          coachlab watch personas/luna
          coachlab watch personas/betterone evals/betterone.yaml --provider serve-mock
        """
    )

    @Argument(help: "The pack folder.")
    var pack: String
    @Argument(help: "Suite files whose fixtures to run, or folders of them. Default: every evals/*.yaml.")
    var suites: [String] = []
    @OptionGroup var provider: ProviderOptions
    @Option(help: "Stop after this many rebuilds (for scripts and tests).")
    var exitAfter: Int?

    func run() async throws {
        let runner = EvalRunner(registry: try provider.registry(), providerOverride: provider.providers, baseURL: provider.baseURL,
                                apiKeyVariable: provider.apiKeyEnv, fileSystem: .invocation)
        var (session, update) = try await WatchSession.start(pack: pack, suites: suites, fileSystem: .invocation) { suites, fixtures in
            let results = WatchResults()
            try await runner.run(suites, include: { fixtures.contains($0.fixture) }) { await results.add($0) }
            return await results.all
        }
        Self.show(update)
        let folders = session.folders(fileSystem: .invocation)
        let events = try FileEvents(folders: folders.map(FileSystem.invocation.onDisk))
        Terminal.error("watching \(folders.count) folders; save a file to rebuild (Ctrl-C stops)")
        for await _ in events.changes {
            // A folder replaced since (a checkout, a stash) is watched anew before the files are read.
            events.watch(session.folders(fileSystem: .invocation).map(FileSystem.invocation.onDisk))
            guard let update = try await session.rebuild(fileSystem: .invocation) else { continue }
            events.watch(session.folders(fileSystem: .invocation).map(FileSystem.invocation.onDisk))
            Self.show(update)
            if let exitAfter, session.rebuilds >= exitAfter { break }
        }
    }

    private static func show(_ update: WatchSession.Update) {
        for diagnostic in update.diagnostics { Terminal.error(diagnostic) }
        Terminal.out(update.text, terminator: "")
    }
}

actor WatchResults {
    private(set) var all: [CaseResult] = []
    func add(_ result: CaseResult) { all.append(result) }
}
