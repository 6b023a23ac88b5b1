import CoachLab
import Foundation

/// `coachlab watch` without its file events: the suites' fixtures that use one pack are run
/// once, then each rebuild reloads the suites and the pack, names every layer whose text
/// changed, and runs only the fixtures whose compiled prompt or file changed. A save that does
/// not load is reported, and the session carries on from the last state that did.
///
/// The file system is given at every step, so a test (or an app) can change files between
/// rebuilds without a disk or a watcher.
public struct WatchSession: Sendable {
    /// Runs the cases of `fixtures` (by id) in `suites` and returns their results.
    public typealias Run = @Sendable (_ suites: [LoadedSuite], _ fixtures: Set<String>) async throws -> [CaseResult]

    /// What one step printed: `text` for standard output, and `diagnostics` for standard
    /// error (the warnings found loading, or the errors when something does not load), shown
    /// before the text that refers to them.
    public struct Update: Sendable, Hashable {
        public var text: String
        public var diagnostics: [String] = []
    }

    /// The pack folder, without a trailing slash.
    public let pack: String
    /// The suite files (empty: every suite in `evals/`).
    public let suites: [String]
    private let run: Run
    private var snapshot: WatchSnapshot
    /// Whether the last rebuild could not load.
    private var broken = false
    /// How many rebuilds changed something or failed to load.
    public private(set) var rebuilds = 0
    /// The suite files and fixture files the pack's fixtures live in, as of the last load.
    public private(set) var files: [String]

    /// Loads the suites and the pack and runs every fixture that uses the pack.
    /// - Throws: ``CoachLabError`` when they do not load, or no fixture uses the pack.
    public static func start(pack: String, suites: [String], fileSystem: FileSystem, run: @escaping Run) async throws -> (WatchSession, Update) {
        let pack = pack.hasSuffix("/") ? String(pack.dropLast()) : pack
        let (loaded, references, warnings) = try load(suites, pack: pack, fileSystem: fileSystem)
        let snapshot = try WatchSnapshot(pack: pack, fixtures: references, fileSystem: fileSystem)
        let session = WatchSession(pack: pack, suites: suites, run: run, snapshot: snapshot,
                                   files: references.map(\.file) + loaded.map(\.suite.file))
        let text = try await session.runFixtures(Set(references.map(\.id)), suites: loaded, label: "all \(references.count) fixtures")
        return (session, Update(text: text, diagnostics: warnings.map(\.description)))
    }

    private init(pack: String, suites: [String], run: @escaping Run, snapshot: WatchSnapshot, files: [String]) {
        (self.pack, self.suites, self.run, self.snapshot, self.files) = (pack, suites, run, snapshot, files)
    }

    /// Reloads and compares with the last state that loaded.
    /// - Returns: What changed and what ran, or nil when nothing did (an editor's save can
    ///   arrive as two bursts of events; the second changes nothing).
    /// - Throws: When running the fixtures fails (a provider error); content errors are an update.
    public mutating func rebuild(fileSystem: FileSystem) async throws -> Update? {
        let number = rebuilds + 1
        func unloadable(_ error: CoachLabError, _ what: String) -> Update {
            broken = true
            rebuilds = number
            return Update(text: "\n— change \(number) —\n\(what); fix the problems above and save again\n", diagnostics: [error.description])
        }
        let loaded: [LoadedSuite], references: [FixtureReference], warnings: [Diagnostic], next: WatchSnapshot
        do { (loaded, references, warnings) = try Self.load(suites, pack: pack, fileSystem: fileSystem) } catch let error as CoachLabError {
            return unloadable(error, "the suites do not load")
        }
        do { next = try WatchSnapshot(pack: pack, fixtures: references, fileSystem: fileSystem) } catch let error as CoachLabError {
            return unloadable(error, "the pack does not load")
        }
        let layers = next.layerChanges(since: snapshot)
        let toRun = next.fixturesToRun(since: snapshot)
        guard broken || !layers.isEmpty || !toRun.isEmpty else { return nil }
        var text = "\n— change \(number) —\n"
        if broken { text += "everything loads again\n" }
        if layers.isEmpty { text += "no layer of any variant changed\n" }
        for change in layers { text += "layer \(change)\n" }
        if toRun.isEmpty {
            text += "no fixture's prompt or file changed; nothing to run\n"
        } else {
            do {
                text += try await runFixtures(toRun, suites: loaded, label: "\(toRun.count) of \(references.count) fixtures")
            } catch let error as CoachLabError {
                // A save that lands while the fixtures run (they read their files as they go)
                // is a broken save like any other: said, and the next save rebuilds.
                return unloadable(error, "a file changed while the fixtures ran and no longer loads")
            }
        }
        (snapshot, broken, rebuilds) = (next, false, number)
        files = references.map(\.file) + loaded.map(\.suite.file)
        return Update(text: text, diagnostics: warnings.map(\.description))
    }

    /// The folders to watch: the pack's and every folder under it, the folders of the suites
    /// and fixtures as of the last load, and every folder above them up to the project's, so
    /// a folder replaced whole (a `git checkout` of another branch, a `git stash`) is seen
    /// coming back and watched again.
    public func folders(fileSystem: FileSystem) -> [String] {
        var folders = Set(watched(fileSystem: fileSystem))
        for folder in folders {
            var parts = folder.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            while !parts.isEmpty, parts.last != "..", !(parts.count == 1 && parts[0].isEmpty) {
                folders.insert(parts.joined(separator: "/"))
                parts = parts.dropLast()
            }
            if !folder.hasPrefix("/") { folders.insert(".") }
        }
        return folders.sorted()
    }

    /// The pack's folders and the suites' and fixtures', without the folders above them.
    func watched(fileSystem: FileSystem) -> [String] {
        var folders: Set<String> = [], visited: Set<String> = []
        var pending = [pack]
        while let folder = pending.popLast() {
            // A link back up the tree is followed once.
            guard visited.insert(fileSystem.realPath(folder)).inserted else { continue }
            folders.insert(folder)
            pending += ((try? fileSystem.entries(folder)) ?? []).filter(\.isDirectory).map { folder + "/" + $0.name }
        }
        for file in files {
            let folder = file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            folders.insert(folder.isEmpty ? "." : folder)
        }
        return folders.sorted()
    }

    /// Runs fixtures and says how they did: a line for each case that did not pass, then the count.
    private func runFixtures(_ ids: Set<String>, suites: [LoadedSuite], label: String) async throws -> String {
        let results = try await run(suites, ids).sorted { $0.id < $1.id }
        var text = ""
        for result in results where result.outcome != .pass {
            let detail = result.outcome == .error ? ": \(result.error ?? "")"
                : result.failures.first.map { ": turn \($0.turn) \($0.check.check): \($0.check.reason)" } ?? ""
            text += "\(result.outcome.rawValue.uppercased()) \(result.id)\(detail)\n"
        }
        return text + "ran \(label): \(results.filter { $0.outcome == .pass }.count) of \(results.count) cases passed\n"
    }

    /// The suites, their fixtures that use `pack`, and the warnings found loading them.
    private static func load(_ paths: [String], pack: String, fileSystem: FileSystem) throws
        -> ([LoadedSuite], [FixtureReference], [Diagnostic]) {
        let (loaded, warnings) = try EvalPlan.load(paths, catalog: SuiteCatalog(fileSystem: fileSystem))
        let references = loaded.flatMap(\.fixtures).filter { $0.pack == pack }
        guard !references.isEmpty else {
            throw CoachLabError(usage: "no fixture of the suites uses the pack '\(pack)'", hint: "name the suites that test it")
        }
        return (loaded, references, warnings)
    }
}
