import CoachLab

/// Loads suites with their fixtures and datasets, ready to run, collecting every content
/// problem as lint would.
public struct SuiteCatalog: Sendable {
    /// Where files come from.
    public var fileSystem: FileSystem

    /// The default of ``load(_:heldFixtures:)``: about 9 MB of parsed fixtures at most
    /// (a few hundred bytes each on a generated suite), enough to hold
    /// every fixture of a 10,000-case run and so parse each file once.
    public static let heldFixtureLimit = 16_384

    public init(fileSystem: FileSystem) {
        self.fileSystem = fileSystem
    }

    /// The suite files in `directory` (`evals/` by default), sorted.
    public func suiteFiles(in directory: String = "evals") -> [String] {
        var directory = directory
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        let names = (try? fileSystem.list(directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "\(directory)/\($0)" }
    }

    /// The suite files `paths` name: a file as given, a folder as the suites in it.
    /// - Throws: A usage error for a folder that holds no suite.
    public func suiteFiles(named paths: [String]) throws -> [String] {
        try paths.flatMap { path -> [String] in
            guard fileSystem.isDirectory(path) else { return [path] }
            let found = suiteFiles(in: path)
            guard !found.isEmpty else {
                throw CoachLabError(usage: "no suites in \(path)", hint: "a suite is a .yaml file; name one, or a folder that holds some")
            }
            return found
        }
    }

    /// Loads `paths`: each suite with its fixtures and its datasets' messages as fixtures.
    /// Fixture ids must be unique across suites' files.
    /// - Parameter heldFixtures: How many fixtures, over all suites, are kept as parsed here,
    ///   so their cases never parse them again. Fixtures past the limit are read again when
    ///   their cases run, so memory stays flat however many a generated suite has. Runs that
    ///   repeat the suites (mutation testing) pass `.max`.
    public func load(_ paths: [String], heldFixtures: Int = SuiteCatalog.heldFixtureLimit)
        -> (suites: [LoadedSuite], diagnostics: [Diagnostic]) {
        let loader = EvalLoader(fileSystem: fileSystem)
        var diagnostics: [Diagnostic] = []
        var loaded: [LoadedSuite] = []
        var fixtureIds: [String: String] = [:]
        var budget = heldFixtures
        // Checks on the earlier turns of each fixture, and the suites that run it.
        var earlierChecks: [String: (locations: [SourceLocation], suites: [(mode: Suite.Mode, file: String)])] = [:]
        for file in paths {
            let (suite, problems) = loader.suite(at: file)
            diagnostics += problems
            guard let suite else { continue }
            var fixtures: [FixtureReference] = []
            var summary = EvalLinter.FixtureSummary()
            // Parsing is most of loading and each file stands alone: parse on every core, a
            // slice at a time, so fixtures that are not held never all live at once.
            let files = loader.fixtureFiles(of: suite)
            let parsed = stride(from: 0, to: files.count, by: 256).lazy.flatMap { start in
                let slice = Array(files[start..<min(start + 256, files.count)])
                return zip(slice, slice.concurrentMap(loader.fixture(at:)))
            }
            for (path, (fixture, problems)) in parsed {
                diagnostics += problems
                guard let fixture else { continue }
                if let other = fixtureIds[fixture.id], other != path {
                    diagnostics.append(.error("fixture id '\(fixture.id)' is also used by \(other)", at: fixture.location))
                }
                fixtureIds[fixture.id] = path
                let selected = suite.selects(fixture)
                summary.add(fixture, selected: selected)
                guard selected else { continue }
                let earlier = fixture.turns.dropLast().filter { !$0.expect.isEmpty }.map { $0.expect.first?.location ?? $0.location }
                if fixture.generate == nil, !earlier.isEmpty { earlierChecks[path, default: (earlier, [])].suites.append((suite.mode, suite.file)) }
                fixtures.append(FixtureReference(fixture, holding: budget > 0))
                budget -= 1
            }
            for path in suite.datasets {
                do {
                    let dataset = try GuardrailDataset.load(path.value, fileSystem: fileSystem)
                    guard let pack = dataset.pack else {
                        diagnostics.append(.error("dataset '\(dataset.id)' names no pack", at: SourceLocation(file: dataset.file, line: 1, column: 1),
                                                  hint: "add 'pack: personas/<app>' under dataset:"))
                        continue
                    }
                    for (index, item) in dataset.items.enumerated() {
                        let fixture = Fixture(item: item, index: index + 1, of: dataset, pack: pack)
                        fixtures.append(FixtureReference(fixture, holding: true))
                    }
                } catch let error as CoachLabError {
                    diagnostics += error.diagnostics
                } catch {
                    diagnostics.append(.error("\(error)", at: path.location))
                }
            }
            for path in suite.caseTables {
                let (table, problems) = CaseTable.load(path.value, fileSystem: fileSystem)
                diagnostics += problems
                for fixture in table {
                    if let other = fixtureIds[fixture.id], other != path.value {
                        diagnostics.append(.error("case id '\(fixture.id)' is also used by \(other)", at: fixture.location))
                        continue
                    }
                    fixtureIds[fixture.id] = path.value
                    guard suite.selects(fixture) else { continue }
                    fixtures.append(FixtureReference(fixture, holding: true))
                }
            }
            // A missing script would fail every case it scores; say so once, before any runs.
            // The same for a judge check no provider can grade, and tags that select nothing.
            diagnostics += EvalLinter(fileSystem: fileSystem).scriptProblems(suite, checks: summary.selectedChecks)
            diagnostics += EvalLinter.lint(suite, summary: summary)
            loaded.append(LoadedSuite(suite: suite, references: fixtures))
        }
        // Checks on earlier turns that no suite of this run scores, as every one that runs the
        // fixture scores only the last reply: said before the run, so a run that passes is not
        // taken to have checked them. Lint makes it an error.
        for (_, checks) in earlierChecks where checks.suites.allSatisfy({ $0.mode == .final }) {
            let files = Array(Set(checks.suites.map(\.file))).sorted().joined(separator: ", ")
            diagnostics += checks.locations.map {
                .warning("this turn's 'expect' is not scored: the suites of this run that use the fixture (\(files)) have mode final, which scores only the last reply",
                         at: $0, hint: "move the checks to the last turn, or run the fixture in a suite with 'mode: rollout'")
            }
        }
        return (loaded, Array(Set(diagnostics)).sorted())
    }
}
