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
    @Argument(help: "Suite files whose fixtures to run. Default: every evals/*.yaml.")
    var suites: [String] = []
    @OptionGroup var provider: ProviderOptions
    @Option(help: "Stop after this many rebuilds (for scripts and tests).")
    var exitAfter: Int?

    func run() async throws {
        let packPath = pack.hasSuffix("/") ? String(pack.dropLast()) : pack
        let (loaded, references) = try Self.load(suites, pack: packPath)
        var snapshot = try WatchSnapshot(pack: packPath, fixtures: references, fileSystem: .live)
        let registry = try provider.registry()
        try await runFixtures(Set(references.map(\.id)), suites: loaded, registry: registry, label: "all \(references.count) fixtures")
        let folders = Self.folders(pack: packPath, references: references, suites: loaded.map(\.suite.file))
        let events = try FileEvents(folders: folders)
        Terminal.error("watching \(folders.count) folders; save a file to rebuild (Ctrl-C stops)")
        var rebuilds = 0
        var broken = false
        for await _ in events.changes {
            // A burst of file events can arrive as two batches (an editor's temporary file,
            // then its rename); a batch that changes nothing is not a rebuild.
            guard let (next, failed) = try await rebuild(since: snapshot, broken: broken, pack: packPath, registry: registry,
                                                         number: rebuilds + 1) else { continue }
            (snapshot, broken) = (next, failed)
            rebuilds += 1
            if let exitAfter, rebuilds >= exitAfter { break }
        }
    }

    /// After a change: loads everything again, says which layers changed, and runs the
    /// fixtures whose prompt or file changed. Content that no longer loads is reported and
    /// the last good snapshot kept, so fixing it and saving again picks up from there.
    /// Returns the snapshot to keep and whether the content failed to load; nil, printing
    /// nothing, when the content loads as it did before and nothing in it changed.
    private func rebuild(since snapshot: WatchSnapshot, broken: Bool, pack: String, registry: ProviderRegistry,
                         number: Int) async throws -> (WatchSnapshot, Bool)? {
        func unloadable(_ error: CoachLabError, _ what: String) -> (WatchSnapshot, Bool) {
            Terminal.out("\n— change \(number) —")
            Terminal.error(error.description)
            Terminal.out("\(what); fix the problems above and save again")
            return (snapshot, true)
        }
        let loaded: [LoadedSuite], references: [FixtureReference], next: WatchSnapshot
        do { (loaded, references) = try Self.load(suites, pack: pack) } catch let error as CoachLabError {
            return unloadable(error, "the suites do not load")
        }
        do { next = try WatchSnapshot(pack: pack, fixtures: references, fileSystem: .live) } catch let error as CoachLabError {
            return unloadable(error, "the pack does not load")
        }
        let layers = next.layerChanges(since: snapshot)
        let toRun = next.fixturesToRun(since: snapshot)
        guard broken || !layers.isEmpty || !toRun.isEmpty else { return nil }
        Terminal.out("\n— change \(number) —")
        if broken { Terminal.out("everything loads again") }
        if layers.isEmpty { Terminal.out("no layer of any variant changed") }
        for change in layers { Terminal.out("layer \(change)") }
        if toRun.isEmpty {
            Terminal.out("no fixture's prompt or file changed; nothing to run")
        } else {
            try await runFixtures(toRun, suites: loaded, registry: registry, label: "\(toRun.count) of \(references.count) fixtures")
        }
        return (next, false)
    }

    /// Runs the given fixtures' cases and prints one line per case and a total.
    private func runFixtures(_ ids: Set<String>, suites: [LoadedSuite], registry: ProviderRegistry, label: String) async throws {
        let runner = EvalRunner(registry: registry, providerOverride: provider.providers, baseURL: provider.baseURL,
                                apiKeyVariable: provider.apiKeyEnv, fileSystem: .live)
        let results = WatchResults()
        try await runner.run(suites, include: { ids.contains($0.fixture) }) { await results.add($0) }
        let all = await results.all.sorted { $0.id < $1.id }
        for result in all where result.outcome != .pass {
            let detail = result.outcome == .error ? ": \(result.error ?? "")"
                : result.failures.first.map { ": turn \($0.turn) \($0.check.check): \($0.check.reason)" } ?? ""
            Terminal.out("\(result.outcome.rawValue.uppercased()) \(result.id)\(detail)")
        }
        Terminal.out("ran \(label): \(all.filter { $0.outcome == .pass }.count) of \(all.count) cases passed")
    }

    /// The suites, narrowed to the pack's fixtures.
    static func load(_ paths: [String], pack: String) throws -> ([LoadedSuite], [FixtureReference]) {
        let loaded = try EvalContent.load(suites: paths)
        let references = loaded.flatMap(\.fixtures).filter { $0.pack == pack }
        guard !references.isEmpty else {
            throw CoachLabError(usage: "no fixture of the suites uses the pack '\(pack)'", hint: "name the suites that test it")
        }
        return (loaded, references)
    }

    /// The pack's folders (its own and every one below), and those of its fixtures and suites.
    static func folders(pack: String, references: [FixtureReference], suites: [String]) -> [String] {
        var folders: Set<String> = [pack]
        if let walker = FileManager.default.enumerator(atPath: pack) {
            for case let item as String in walker {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: pack + "/" + item, isDirectory: &isDirectory), isDirectory.boolValue {
                    folders.insert(pack + "/" + item)
                }
            }
        }
        for file in references.map(\.file) + suites {
            let folder = (file as NSString).deletingLastPathComponent
            folders.insert(folder.isEmpty ? "." : folder)
        }
        return folders.sorted()
    }
}

/// Results collected from concurrent cases.
actor WatchResults {
    private(set) var all: [CaseResult] = []
    func add(_ result: CaseResult) { all.append(result) }
}
