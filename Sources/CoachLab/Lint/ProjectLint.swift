import Foundation

/// `coachlab lint` as a library: finds the packs, fixtures, suites, guardrail datasets,
/// session records, rubrics and labelled judgements that paths name, and checks each, all
/// through a ``FileSystem``.
public struct ProjectLint: Sendable {
    /// Where files come from.
    public var fileSystem: FileSystem

    public init(fileSystem: FileSystem) {
        self.fileSystem = fileSystem
    }

    /// What a lint found.
    public struct Result: Sendable {
        /// Every problem, sorted by location.
        public var diagnostics: [Diagnostic] = []
        public var packs = 0
        public var fixtures = 0
        public var suites = 0
        public var datasets = 0
        /// Files read, pack files included.
        public var files = 0
        /// How much of each pack's instructions the mock reads, by pack folder, in lint order.
        public var coverage: [(pack: String, coverage: ReadingCoverage)] = []

        public var errors: Int { diagnostics.filter { $0.severity == .error }.count }
        public var warnings: Int { diagnostics.count - errors }

        /// Whether lint fails: any error, or with `strict` (as CI runs it) any warning.
        public func fails(strict: Bool) -> Bool { errors > 0 || (strict && warnings > 0) }

        /// "linted 5 packs, 80 fixtures, … (N files): E errors, W warnings".
        public var summary: String {
            func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
            let lines = coverage.flatMap(\.coverage.lines)
            let reading = lines.isEmpty ? "" : "; the mock reads " + ReadingCoverage(lines: lines).summary
            return "linted \(counted(packs, "pack")), \(fixtures) fixtures, \(suites) suites and \(datasets) guardrail datasets "
                + "(\(files) files): \(counted(errors, "error")), \(counted(warnings, "warning"))" + reading
        }
    }

    /// The folders linted when no path is named.
    public static let defaultPaths = ["personas", "fixtures", "evals"]

    /// Lints `paths` (the default folders that exist when empty).
    /// - Throws: ``CoachLabError`` (usage) for a path that does not exist, a folder with no
    ///   packs, or no path named where none of the default folders exists.
    public func lint(_ paths: [String]) throws -> Result {
        let requested = paths.isEmpty ? Self.defaultPaths.filter(fileSystem.exists) : paths
        // Run from the wrong folder, lint would otherwise check nothing and pass: a CI job that
        // lints its project must not go green on an empty folder.
        guard !requested.isEmpty else {
            throw CoachLabError(usage: "nothing to lint: there is no personas/, fixtures/ or evals/ folder here",
                                hint: "run from the project root, or name packs, fixtures and suites")
        }
        var packPaths: [String] = [], fixtures: [String] = [], suites: [String] = [], datasets: [String] = []
        var records: [(file: String, spec: ObjectSpec)] = []  // sessions files beside the fixtures, rubrics beside the suites
        var judgements: [String] = []  // labelled transcripts for judge calibration
        for path in requested {
            switch kind(of: path) {
            case .fixtures:
                for file in yamlFiles(in: path) {
                    switch topLevelKey(of: file) {
                    case "dataset": datasets.append(file)
                    case "sessions": records.append((file, DailyTip.sessionsSpec))
                    case "judgement": judgements.append(file)
                    default: fixtures.append(file)
                    }
                }
            case .suites:
                for file in yamlFiles(in: path) {
                    // Named metrics (evals/rubrics/) are rubric files, checked against their own spec.
                    if topLevelKey(of: file) == "rubric" { records.append((file, Check.rubricFileSpec)) } else { suites.append(file) }
                }
            case .packs: packPaths.append(path)
            }
        }
        var packs = packPaths.isEmpty ? [] : try self.packs(in: packPaths)
        // The packs the fixtures name are linted too, wherever they live (an app's bundle
        // resources, say): otherwise a pack outside the linted folders is loaded only to check
        // its fixtures, and its own errors, warnings and coverage are never shown.
        let loader = EvalLoader(fileSystem: fileSystem)
        let linted = Set(packs.map(Paths.normalize))
        let named = fixtures.concurrentMap { loader.fixture(at: $0).0?.pack }.compactMap { $0 }
        var added = Set<String>()
        packs += named.filter { pack in
            !linted.contains(Paths.normalize(pack)) && self.fileSystem.exists(pack + "/pack.yaml") && added.insert(Paths.normalize(pack)).inserted
        }
        var result = Result(packs: packs.count, fixtures: fixtures.count, suites: suites.count, datasets: datasets.count)
        result.files = fixtures.count + suites.count + records.count + datasets.count + judgements.count
        // Packs, datasets and records are read and checked together on every core, packs (the
        // largest) first; a pack that several files name is loaded once.
        let fileSystem = fileSystem
        let shelf = PackShelf(fileSystem: fileSystem)
        let work = packs.map(Work.pack) + datasets.map(Work.dataset) + records.map { Work.record($0.file, $0.spec) }
        let done = work.concurrentMap { item -> Done in
            switch item {
            case .pack(let path):
                _ = shelf.load(path)
                return .pack
            case .dataset(let path):
                return .dataset(Swift.Result { try GuardrailDataset.load(path, fileSystem: fileSystem) })
            case .record(let file, let spec):
                do {
                    return .record(ContentValidator.validate(try YAMLDocument.parse(try fileSystem.read(file), file: file), spec: spec))
                } catch let error as CoachLabError {
                    return .record(error.diagnostics)
                } catch {
                    return .record([.error("cannot read file: \(error.localizedDescription)", at: SourceLocation(file: file, line: 1, column: 1))])
                }
            }
        }
        var diagnostics = done.flatMap { item -> [Diagnostic] in
            if case .record(let found) = item { return found }
            return []
        }
        let loadedDatasets = done.compactMap { item -> Swift.Result<GuardrailDataset, any Error>? in
            if case .dataset(let loaded) = item { return loaded }
            return nil
        }
        shelf.preload(loadedDatasets.compactMap { try? $0.get().pack })
        for pack in packs {
            let loaded = shelf.load(pack)
            result.files += loaded.pack?.files.count ?? 1
            diagnostics += loaded.diagnostics
        }
        // What the mock reads of each pack that loads cleanly, and a warning at each instruction
        // line it cannot read: no check can catch that line's loss.
        let readable = packs.compactMap { path in shelf.load(path).pack.flatMap { pack in (try? Compiler(pack: pack)).map { (path, pack, $0) } } }
        result.coverage = readable.concurrentMap { path, pack, compiler in (path, ReadingCoverage.of(pack, compiler: compiler, fileSystem: fileSystem)) }
        for (_, coverage) in result.coverage {
            for line in coverage.unread {
                guard let location = line.location else { continue }
                diagnostics.append(.warning("the mock reads no instruction in '\(line.text.prefix(70))\(line.text.count > 70 ? "…" : "")', so no check can catch its loss",
                                            at: location,
                                            hint: "a length, question, form, role or secrecy rule belongs in the pack's reply contract (reply:), which the mock obeys whatever the wording; anything else a judge check on a live run can test (coachlab compile --format mock shows what the mock reads)"))
            }
        }
        diagnostics += EvalLinter(fileSystem: fileSystem).lint(fixtures: fixtures, suites: suites, packs: shelf)
        for (path, loaded) in zip(datasets, loadedDatasets) {
            do {
                let dataset = try loaded.get()
                guard let pack = dataset.pack else { continue }
                if let found = shelf.load(pack).pack {
                    diagnostics += dataset.problems(for: found)
                } else {
                    diagnostics.append(.error("pack '\(pack)' cannot be loaded", at: SourceLocation(file: path, line: 1, column: 1),
                                              hint: "coachlab lint \(pack) shows why"))
                }
            } catch let error as CoachLabError {
                diagnostics += error.diagnostics
            } catch {
                diagnostics.append(.error("\(error)", at: SourceLocation(file: path, line: 1, column: 1)))
            }
        }
        diagnostics += judgements.concurrentMap { loader.judgement(at: $0).1 }.flatMap { $0 }
        result.diagnostics = diagnostics
        return result
    }

    /// One file or pack for lint to read and check.
    private enum Work: Sendable {
        case pack(String)
        case dataset(String)
        case record(String, ObjectSpec)
    }

    /// What reading it gave: a pack is kept on the shelf.
    private enum Done: Sendable {
        case pack
        case dataset(Swift.Result<GuardrailDataset, any Error>)
        case record([Diagnostic])
    }

    // MARK: - Finding what paths name

    enum Kind { case packs, fixtures, suites }

    /// Fixtures live under fixtures/, suites (and named rubrics) under evals/; a file elsewhere
    /// that is not in a pack is a fixture or a suite when its top-level `fixture:` or `suite:`
    /// key says so; everything else is a pack.
    func kind(of path: String) -> Kind {
        let components = Paths.normalize(path).split(separator: "/")
        if components.contains("fixtures") { return .fixtures }
        if components.contains("evals") { return .suites }
        if fileSystem.exists(path), !fileSystem.isDirectory(path), enclosingPack(of: path) == nil {
            switch topLevelKey(of: path) {
            case "fixture", "dataset": return .fixtures
            case "suite": return .suites
            default: break
            }
        }
        return .packs
    }

    /// The first top-level key of a YAML file ("fixture", "suite", "dataset"…), if any.
    public func topLevelKey(of path: String) -> String? {
        guard let data = try? fileSystem.read(path) else { return nil }
        // Line by line over the bytes: the key is near the top, and the file may be long.
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) ?? data.endIndex
            let line = data[start..<end]
            if let first = line.first, ![UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "-")].contains(first),
               let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                return String(decoding: data[start..<colon], as: UTF8.self)
            }
            start = end == data.endIndex ? end : end + 1
        }
        return nil
    }

    /// The YAML files at a path: the file itself, or every one below a folder, sorted. A
    /// folder reached twice through links is walked once.
    public func yamlFiles(in path: String) -> [String] {
        guard fileSystem.isDirectory(path) else { return [path] }
        var files: [String] = []
        var visited = Set<String>()
        func walk(_ directory: String) {
            guard visited.insert(fileSystem.realPath(directory)).inserted else { return }
            for name in (try? fileSystem.list(directory)) ?? [] {
                let child = directory + "/" + name
                if fileSystem.isDirectory(child) {
                    walk(child)
                } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                    files.append(child)
                }
            }
        }
        walk(path)
        return files.sorted()
    }

    /// The pack folders that paths name: a pack, a file in one, or a folder of packs.
    func packs(in paths: [String]) throws -> [String] {
        var packs: [String] = []
        for path in paths {
            guard fileSystem.exists(path) else { throw CoachLabError(usage: "no such file or folder: \(path)") }
            if !fileSystem.isDirectory(path) {
                packs.append(enclosingPack(of: path) ?? path)
                continue
            }
            if fileSystem.exists(path + "/pack.yaml") {
                packs.append(path)
                continue
            }
            let children = ((try? fileSystem.list(path)) ?? []).sorted()
            let found = children.map { path + "/" + $0 }.filter { fileSystem.exists($0 + "/pack.yaml") }
            if found.isEmpty { throw CoachLabError(usage: "no packs in \(path)", hint: "a pack is a folder with a pack.yaml") }
            packs += found
        }
        var seen = Set<String>()
        return packs.filter { seen.insert($0).inserted }
    }

    /// The pack folder a file belongs to: the nearest folder above it with a pack.yaml.
    private func enclosingPack(of file: String) -> String? {
        var directory = Paths.directory(of: file)
        for _ in 0..<6 {
            if fileSystem.exists(directory + "/pack.yaml") { return directory }
            if directory == "." || directory == "/" { return nil }
            directory = Paths.directory(of: directory)
        }
        return nil
    }
}
