/// Lint for fixtures and suites beyond their shape: a fixture's inputs must exist in its
/// pack, the rules its checks name must be the pack's, and fixture ids must be unique.
public struct EvalLinter: Sendable {
    public var fileSystem: FileSystem

    public init(fileSystem: FileSystem) { self.fileSystem = fileSystem }

    /// Every problem in the given fixture and suite files.
    public func lint(fixtures: [String], suites: [String]) -> [Diagnostic] {
        lint(fixtures: fixtures, suites: suites, packs: PackShelf(fileSystem: fileSystem))
    }

    /// ``lint(fixtures:suites:)`` with packs from `packs`, which a caller linting the packs
    /// themselves has already loaded. Files are parsed on every core, each once.
    package func lint(fixtures: [String], suites: [String], packs shelf: PackShelf) -> [Diagnostic] {
        let loader = EvalLoader(fileSystem: fileSystem)
        var diagnostics: [Diagnostic] = []
        var ids: [String: SourceLocation] = [:]
        let loaded = fixtures.concurrentMap { loader.fixture(at: $0) }
        let fileSystem = fileSystem
        let packFolders = Set(loaded.compactMap(\.0?.pack).filter { fileSystem.isDirectory($0) })
        shelf.preload(packFolders)
        var parsed: [String: Fixture?] = [:]
        for (path, (fixture, problems)) in zip(fixtures, loaded) {
            parsed[path] = fixture
            diagnostics += problems
            guard let fixture else { continue }
            if let first = ids[fixture.id] {
                diagnostics.append(.error("duplicate fixture id '\(fixture.id)' (first at \(first))", at: fixture.location))
            }
            ids[fixture.id] = fixture.location
            guard packFolders.contains(fixture.pack), let pack = try? shelf.load(fixture.pack).get() else { continue }
            diagnostics += Self.inputProblems(of: fixture, pack: pack, fileSystem: fileSystem)
            diagnostics += Self.quotableProblems(fixture.turns.flatMap(\.expect)) { [pack] }
            for turn in fixture.turns {
                for check in turn.expect {
                    if let rule = check.kind.as(CheckKinds.Flagged.self)?.rule, pack.rule(rule) == nil {
                        diagnostics.append(.error("rule '\(rule)' does not exist in pack '\(pack.id)'", at: check.location ?? turn.location,
                                                  hint: Suggestions.hint(for: rule, in: pack.rules.map(\.id), noun: "rule")))
                    }
                }
            }
            if fixture.turns.isEmpty, fixture.simulatedUser == nil {
                diagnostics.append(.error("a fixture needs at least one turn, or a simulated user", at: fixture.location))
            }
            if let generate = fixture.generate { diagnostics += Self.lint(generate, in: fixture) }
        }
        let parsedSuites = suites.concurrentMap { path in
            let (suite, problems) = loader.suite(at: path)
            return (suite, problems, suite.map(loader.fixtureFiles(of:)) ?? [])
        }
        // Fixtures a suite runs from outside the linted folders, each parsed once.
        var outside = Set<String>()
        let more = parsedSuites.flatMap(\.2).filter { parsed[$0] == nil && outside.insert($0).inserted }
        for (file, fixture) in zip(more, more.concurrentMap { loader.fixture(at: $0).0 }) { parsed[file] = fixture }
        var modes: [String: [(mode: Suite.Mode, file: String)]] = [:]
        for (suite, problems, files) in parsedSuites {
            diagnostics += problems
            guard let suite else { continue }
            var fixtures = files.compactMap { parsed[$0] ?? nil }
            // The rows of its case tables, checked against their packs as fixtures are.
            for table in suite.caseTables where fileSystem.exists(table.value) {
                let (rows, problems) = CaseTable.load(table.value, fileSystem: fileSystem)
                diagnostics += problems
                for fixture in rows {
                    guard let pack = try? shelf.load(fixture.pack).get() else {
                        diagnostics.append(.error("pack '\(fixture.pack)' cannot be loaded", at: fixture.location,
                                                  hint: "name a pack folder relative to the project root; coachlab lint \(fixture.pack) shows why"))
                        continue
                    }
                    diagnostics += Self.inputProblems(of: fixture, pack: pack, fileSystem: fileSystem)
                    for check in fixture.turns.flatMap(\.expect) {
                        if let rule = check.kind.as(CheckKinds.Flagged.self)?.rule, pack.rule(rule) == nil {
                            diagnostics.append(.error("rule '\(rule)' does not exist in pack '\(pack.id)'", at: check.location ?? fixture.location,
                                                      hint: Suggestions.hint(for: rule, in: pack.rules.map(\.id), noun: "rule")))
                        }
                    }
                }
                fixtures += rows
            }
            diagnostics += Self.lint(suite, fixtures: fixtures)
            diagnostics += scriptProblems(suite, fixtures: fixtures)
            diagnostics += Self.quotableProblems(suite.checks) {
                Set(fixtures.filter(suite.selects).map(\.pack)).sorted().compactMap { try? shelf.load($0).get() }
            }
            for fixture in fixtures where suite.selects(fixture) {
                modes[fixture.location.file, default: []].append((suite.mode, suite.file))
            }
        }
        for (file, uses) in modes {
            guard let fixture = parsed[file] ?? nil, fixture.generate == nil else { continue }
            diagnostics += Self.ignoredParts(of: fixture, uses: uses)
        }
        return Array(Set(diagnostics)).sorted()
    }

    /// Parts of a fixture that every suite running it ignores: `expect:` on an earlier turn when
    /// all score only the last reply (`final`), and a recorded `reply:` when all have the
    /// provider write every turn (`rollout`).
    static func ignoredParts(of fixture: Fixture, uses: [(mode: Suite.Mode, file: String)]) -> [Diagnostic] {
        let files = Array(Set(uses.map(\.file))).sorted().joined(separator: ", ")
        var diagnostics: [Diagnostic] = []
        if uses.allSatisfy({ $0.mode == .final }) {
            for turn in fixture.turns.dropLast() where !turn.expect.isEmpty {
                diagnostics.append(.error("this turn's 'expect' is never scored: the suites that run this fixture (\(files)) use mode final, which scores only the last reply",
                                          at: turn.expect.first?.location ?? turn.location,
                                          hint: "move the checks to the last turn, or run the fixture in a suite with 'mode: rollout'"))
            }
        }
        if uses.allSatisfy({ $0.mode == .rollout }) {
            for turn in fixture.turns where turn.reply != nil {
                diagnostics.append(.error("this turn's 'reply' is never used: the suites that run this fixture (\(files)) use mode rollout, where the provider writes every reply",
                                          at: turn.location, hint: "remove the reply, or run the fixture in a suite with 'mode: final'"))
            }
        }
        return diagnostics
    }

    /// What a suite asks for that its fixtures cannot give: tags no fixture has, and judge
    /// checks with no provider to grade them.
    public static func lint(_ suite: Suite, fixtures: [Fixture]) -> [Diagnostic] {
        lint(suite, summary: FixtureSummary(fixtures, of: suite))
    }

    /// ``lint(_:fixtures:)`` from a summary, for loaders that do not keep every fixture.
    public static func lint(_ suite: Suite, summary: FixtureSummary) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for tag in suite.tagLocations where !summary.tags.contains(tag.value) {
            diagnostics.append(.error("tag '\(tag.value)' matches none of the suite's \(summary.count) fixtures, so it selects nothing",
                                      at: tag.location, hint: Suggestions.hint(for: tag.value, in: summary.tags.sorted(), noun: "tag")))
        }
        // A rescore carries each judge check's verdicts over by its id, over the suite's checks
        // and the turn's together: two with one id would each get both sets.
        var suiteJudges: [String: SourceLocation?] = [:]
        for check in suite.checks where check.isJudge && suiteJudges[check.id] == nil { suiteJudges[check.id] = check.location }
        for check in summary.selectedChecks where check.isJudge {
            guard let first = suiteJudges[check.id] else { continue }
            diagnostics.append(.error("this judge check has the id '\(check.id)', as one of the suite's does\(first.map { " (\($0))" } ?? ""), so a rescore could not tell their verdicts apart",
                                      at: check.location ?? suite.location, hint: "give one an id of its own"))
        }
        guard suite.judge == nil else { return diagnostics }
        for check in suite.checks + summary.selectedChecks {
            guard let judge = check.kind.as(CheckKinds.Judge.self), judge.provider == nil else { continue }
            diagnostics.append(.error("a judge check needs a model to grade it, but neither the check nor the suite names one",
                                      at: check.location ?? suite.location,
                                      hint: "add 'judge: PROVIDER' to \(suite.file), or 'provider:' to the check"))
        }
        return diagnostics
    }

    /// Layer ids in `leaked-prompt`'s or `follows-contract`'s `quotable` that no layer of `packs` has: a misspelt id
    /// would set nothing apart, and a reply that quotes the layer would fail as a leak.
    /// `packs` is asked for only when some check names a quotable layer.
    public static func quotableProblems(_ checks: [Check], packs: () -> [Pack]) -> [Diagnostic] {
        let named = checks.compactMap { $0.kind.as(CheckKinds.LeakedPrompt.self)?.quotable ?? $0.kind.as(CheckKinds.FollowsContract.self)?.quotable }
            .filter { !$0.isEmpty }
        guard !named.isEmpty else { return [] }
        let packs = packs()
        guard !packs.isEmpty else { return [] }
        let layers = packs.flatMap { $0.stack.layers.map(\.id) }
        return named.flatMap { quotable in
            quotable.filter { !layers.contains($0.value) }.map { id in
                Diagnostic.error("no layer '\(id.value)' in \(packs.count == 1 ? "pack" : "the packs") \(packs.map { "'\($0.id)'" }.sorted().joined(separator: ", "))",
                                 at: id.location, hint: Suggestions.hint(for: id.value, in: Array(Set(layers)), noun: "layer"))
            }
        }
    }

    /// Script checks whose executable is not there: an error at the check, before anything runs.
    public func scriptProblems(_ suite: Suite, fixtures: [Fixture]) -> [Diagnostic] {
        scriptProblems(suite, checks: fixtures.flatMap { $0.turns.flatMap(\.expect) })
    }

    /// ``scriptProblems(_:fixtures:)`` for the suite's checks and `checks` of its fixtures; and
    /// a warning for a script in the project whose path leads out of it through a link
    /// (`checks/sh → /bin/sh`), which a review of the suite does not show.
    public func scriptProblems(_ suite: Suite, checks: [Check]) -> [Diagnostic] {
        let root = fileSystem.realPath(".")
        return (suite.checks + checks).compactMap { check -> Diagnostic? in
            guard let path = check.kind.as(CheckKinds.Script.self)?.path else { return nil }
            guard fileSystem.exists(path), !fileSystem.isDirectory(path) else {
                return .error("the script '\(path)' does not exist", at: check.location ?? suite.location,
                              hint: "script paths are relative to the directory coachlab runs in (the project root)")
            }
            // A path that leaves the project as written is warned about where it is read.
            guard !CheckKinds.Script.leavesProject(path) else { return nil }
            let real = fileSystem.realPath(path)
            guard real.hasPrefix("/"), root.hasPrefix("/"), !real.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
            return .warning("the script '\(path)' leads out of the project through a link, to \(real): it runs with your permissions on every eval, and a review of the suite does not see what it does",
                            at: check.location ?? suite.location, hint: "keep the check script itself in the project (checks/…), not a link to a program elsewhere")
        }
    }

    /// What the suite-level checks need to know of a suite's fixtures, gathered one fixture
    /// at a time, so a loader need not keep them all in memory.
    public struct FixtureSummary: Sendable {
        /// How many fixtures the suite's patterns found.
        public private(set) var count = 0
        /// Every tag they carry.
        public private(set) var tags: Set<String> = []
        /// The judge and script checks of the fixtures the suite's tags select.
        public private(set) var selectedChecks: [Check] = []

        public init() {}

        init(_ fixtures: [Fixture], of suite: Suite) {
            for fixture in fixtures { add(fixture, selected: suite.selects(fixture)) }
        }

        public mutating func add(_ fixture: Fixture, selected: Bool) {
            count += 1
            tags.formUnion(fixture.tags)
            guard selected else { return }
            for turn in fixture.turns {
                selectedChecks += turn.expect.filter { $0.isJudge || $0.isScript }
            }
        }
    }

    /// A structured generation's own needs.
    static func lint(_ generate: Fixture.Generation, in fixture: Fixture) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        switch generate.kind {
        case .coach:
            if generate.describe?.trimmingCharacters(in: .whitespaces).isEmpty ?? true {
                diagnostics.append(.error("a coach generation needs 'describe': what the user wants the coach to do", at: generate.location))
            }
            if let coach = fixture.inputs.coach {
                diagnostics.append(.error("a coach generation makes its own coach; remove 'coach: \(coach)' from the fixture",
                                          at: fixture.inputLocations["coach"] ?? fixture.location))
            }
        case .exportImport:
            if fixture.inputs.coach == nil {
                diagnostics.append(.error("export-import needs the fixture's 'coach': the coach to export and import", at: generate.location))
            }
        case .insight, .quickReflection, .wrapup:
            for turn in fixture.turns where turn.reply == nil {
                diagnostics.append(.error("a \(generate.kind.rawValue) reads the turns as a transcript; this turn needs its 'reply'",
                                          at: turn.location))
            }
            let messages = fixture.turns.count * 2
            if generate.kind == .quickReflection && messages < StructuredTask.quickReflectionMinimumMessages {
                diagnostics.append(.error("a quick reflection needs at least \(StructuredTask.quickReflectionMinimumMessages) messages; the turns hold \(messages)",
                                          at: generate.location))
            }
        }
        return diagnostics
    }

    /// Where an input error belongs: at the input whose quoted value the message names, else
    /// at the fixture mapping.
    /// The fixture's inputs that its pack cannot resolve (a profile, coach, topic, memory or
    /// context that does not exist), each at the fixture field that names it.
    public static func inputProblems(of fixture: Fixture, pack: Pack, fileSystem: FileSystem) -> [Diagnostic] {
        inputProblems(of: fixture.inputs, locations: fixture.inputLocations, fallback: fixture.location, pack: pack, fileSystem: fileSystem)
    }

    /// The same, from a fixture's inputs and their locations alone.
    public static func inputProblems(of inputs: CompileInputs, locations: [String: SourceLocation], fallback: SourceLocation,
                                     pack: Pack, fileSystem: FileSystem) -> [Diagnostic] {
        do {
            _ = try ResolvedInputs(inputs, pack: pack, fileSystem: fileSystem)
            return []
        } catch let error as CoachLabError {
            return [.error(error.message ?? error.description, at: location(of: error, inputs: inputs, locations: locations, fallback: fallback),
                           hint: error.hint)]
        } catch {
            return [.error("\(error)", at: fallback)]
        }
    }

    static func location(of error: CoachLabError, inputs: CompileInputs, locations: [String: SourceLocation],
                         fallback: SourceLocation) -> SourceLocation {
        let message = error.message ?? error.description
        let values: [(String, String?)] = [("intent", inputs.intent), ("topic", inputs.topic), ("coach", inputs.coach),
                                           ("profile", inputs.profile), ("memory", inputs.memory), ("context", inputs.context)]
        for (field, value) in values {
            if let value, message.contains("'\(value)'"), let location = locations[field] { return location }
        }
        return fallback
    }
}
