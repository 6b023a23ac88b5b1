import Foundation
import Synchronization

/// Loads fixtures and suites with located diagnostics, and finds a suite's fixtures.
public struct EvalLoader: Sendable {
    public var fileSystem: FileSystem {
        didSet { folders = FolderMemo() }
    }
    /// Which pack folders exist: the fixtures of a suite name a handful among them.
    private var folders = FolderMemo()

    public init(fileSystem: FileSystem) { self.fileSystem = fileSystem }

    /// Loads a fixture file.
    /// - Returns: The fixture (nil when unusable) and every diagnostic.
    public func fixture(at path: String) -> (Fixture?, [Diagnostic]) {
        let root: Parsed
        switch parse(path, spec: Fixture.fileSpec) {
        case .success(let parsed): root = parsed
        case .failure(let failure): return (nil, failure.diagnostics)
        }
        var diagnostics = root.diagnostics
        let value = root.value
        guard let header = value["fixture"], header.entries != nil else { return (nil, diagnostics) }
        var turns: [Fixture.Turn] = []
        for item in value["turns"]?.items ?? [] {
            guard let user = item["user"]?.text else { continue }
            var expect: [Check] = []
            for check in item["expect"]?.items ?? [] {
                if let parsed = CheckParser.parse(check, into: &diagnostics) { expect.append(resolveMetric(parsed, item: check, into: &diagnostics)) }
            }
            diagnostics += Self.repeatedIds(expect)
            turns.append(Fixture.Turn(user: user, reply: item["reply"]?.text, mock: item["mock"]?.text, expect: expect,
                                      location: item.location))
        }
        let inputs = CompileInputs(variant: nil, coach: header.located("coach")?.value, topic: header.located("topic")?.value,
                                   intent: header.located("intent")?.value, profile: header.located("profile")?.value,
                                   memory: header.located("memory")?.value, context: header.located("context")?.value,
                                   now: header.date("now"))
        var fixture = Fixture(id: header.located("id")?.value ?? Paths.lastComponent(path), pack: header.located("pack")?.value ?? "",
                              description: header.located("description")?.value,
                              tags: header.locatedList("tags").map(\.value), inputs: inputs, turns: turns, file: path,
                              location: header.location)
        if let generate = value["generate"], let kind = generate["kind"]?.text.flatMap(Fixture.Generation.Kind.init(rawValue:)) {
            fixture.generate = Fixture.Generation(kind: kind, describe: generate["describe"]?.text, name: generate["name"]?.text,
                                                  mock: generate["mock"]?.text, location: generate.location)
        }
        for field in ["coach", "topic", "intent", "profile", "memory", "context", "now"] {
            if let value = header[field] { fixture.inputLocations[field] = value.location }
        }
        if let user = value["user"] { fixture.simulatedUser = SimulatedUser.parse(user, into: &diagnostics) }

        if let pack = header.located("pack"), !folders.isDirectory(pack.value, in: fileSystem) {
            diagnostics.append(.error("pack '\(pack.value)' does not exist", at: pack.location,
                                      hint: "name a pack folder relative to the project root, such as personas/betterone"))
        }
        return (diagnostics.contains { $0.severity == .error } && turns.isEmpty && fixture.simulatedUser == nil ? nil : fixture, diagnostics)
    }

    /// Where named metrics live: `evals/rubrics/NAME.yaml`, from the project root.
    public static let rubricFolder = "evals/rubrics"

    /// A judge check that names a metric, with the metric's rubric filled in; what the check
    /// itself sets (rubric text, criteria, scale, threshold, scope) wins.
    public func resolveMetric(_ check: Check, item: YAMLValue, into diagnostics: inout [Diagnostic]) -> Check {
        guard let judge = check.kind.as(CheckKinds.Judge.self), let metric = judge.rubric.metric else { return check }
        let (given, provider) = (judge.rubric, judge.provider)
        let path = "\(Self.rubricFolder)/\(metric).yaml"
        let location = item["metric"]?.location ?? item.location
        guard fileSystem.exists(path) else {
            let known = ((try? fileSystem.list(Self.rubricFolder)) ?? []).filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }
            diagnostics.append(.error("no metric '\(metric)' (looked for \(path))", at: location,
                                      hint: Suggestions.hint(for: metric, in: known, noun: "metric")))
            return check
        }
        let root: Parsed
        switch parse(path, spec: Check.rubricFileSpec) {
        case .success(let parsed): root = parsed
        case .failure(let failure):
            diagnostics += failure.diagnostics
            return check
        }
        diagnostics += root.diagnostics
        guard let node = root.value["rubric"], var rubric = CheckParser.parseRubric(node, metric: metric, into: &diagnostics) else { return check }
        if item["rubric"] != nil { rubric.text = given.text }
        if item["criteria"] != nil { rubric.criteria = given.criteria }
        if item["scale"] != nil { rubric.scale = given.scale }
        if item["threshold"] != nil || item["scale"] != nil { rubric.threshold = given.threshold }
        if item["scope"] != nil { rubric.scope = given.scope }
        var resolved = check
        resolved.kind = .judge(rubric, provider: provider)
        if item["id"] == nil { resolved.id = metric }
        return resolved
    }

    /// Loads a suite file.
    public func suite(at path: String) -> (Suite?, [Diagnostic]) {
        let root: Parsed
        switch parse(path, spec: Suite.fileSpec) {
        case .success(let parsed): root = parsed
        case .failure(let failure): return (nil, failure.diagnostics)
        }
        var diagnostics = root.diagnostics
        let value = root.value
        var checks: [Check] = []
        for check in value["checks"]?.items ?? [] {
            if let parsed = CheckParser.parse(check, into: &diagnostics) { checks.append(resolveMetric(parsed, item: check, into: &diagnostics)) }
        }
        diagnostics += Self.repeatedIds(checks)
        let threshold = value.number("threshold") ?? 1
        if let node = value["threshold"], !(0...1).contains(threshold) {
            diagnostics.append(.error("threshold must be between 0 and 1", at: node.location))
        }
        // Named twice, a provider would run every case twice under the same case ids.
        let named = value.locatedList("providers")
        for (index, provider) in named.enumerated() where named[..<index].contains(where: { $0.value == provider.value }) {
            diagnostics.append(.error("provider '\(provider.value)' is named more than once", at: provider.location))
        }
        var suite = Suite(id: value["suite"]?.located("id")?.value ?? Paths.lastComponent(path),
                          description: value["suite"]?.located("description")?.value,
                          fixturePatterns: value.locatedList("fixtures"), tags: value.locatedList("tags").map(\.value),
                          providers: value.locatedList("providers").map(\.value), judge: value.located("judge")?.value,
                          mode: Suite.Mode(rawValue: value.located("mode")?.value ?? "final") ?? .final, checks: checks,
                          threshold: threshold, repeats: max(1, value.integer("repeats") ?? 1),
                          concurrency: max(1, value.integer("concurrency") ?? 8), file: path, location: value.location)
        suite.datasets = value.locatedList("datasets")
        suite.caseTables = value.locatedList("cases")
        suite.simulator = value.located("simulator")?.value
        suite.tagLocations = value.locatedList("tags")
        if suite.fixturePatterns.isEmpty, suite.datasets.isEmpty, suite.caseTables.isEmpty {
            diagnostics.append(.error("the suite names no fixtures, no datasets and no cases", at: value.location,
                                      hint: "add 'fixtures: [fixtures/<app>/*.yaml]', 'datasets: [fixtures/guardrails/<app>.yaml]' or 'cases: [fixtures/<app>/cases.csv]'"))
        }
        for table in suite.caseTables where !fileSystem.exists(table.value) || fileSystem.isDirectory(table.value) {
            diagnostics.append(.error("no case table at '\(table.value)'", at: table.location, hint: "a .csv or .jsonl file, relative to the project root"))
        }
        for dataset in suite.datasets where !fileSystem.exists(dataset.value) || fileSystem.isDirectory(dataset.value) {
            diagnostics.append(.error("no dataset file at '\(dataset.value)'", at: dataset.location,
                                      hint: "the shipped datasets are in fixtures/guardrails/"))
        }
        for pattern in suite.fixturePatterns where !matchesFixtureFiles(pattern.value) {
            diagnostics.append(.error("'\(pattern.value)' matches no fixture files", at: pattern.location))
        }
        return (diagnostics.contains { $0.severity == .error } ? nil : suite, diagnostics)
    }

    /// The fixture files a suite names, sorted, without repeats.
    public func fixtureFiles(of suite: Suite) -> [String] {
        var seen = Set<String>()
        return suite.fixturePatterns.flatMap { fixtureFiles(matching: $0.value) }.filter { seen.insert($0).inserted }
    }

    /// The fixture files `pattern` names.
    func fixtureFiles(matching pattern: String) -> [String] {
        guard Paths.isGlob(pattern) else {
            return fileSystem.exists(pattern) && !fileSystem.isDirectory(pattern) ? [Paths.normalize(pattern)] : []
        }
        return Glob.expand(pattern, fileSystem: fileSystem, where: Self.isFixtureFile)
    }

    /// Whether `pattern` names any fixture file.
    func matchesFixtureFiles(_ pattern: String) -> Bool {
        guard Paths.isGlob(pattern) else { return fileSystem.exists(pattern) && !fileSystem.isDirectory(pattern) }
        return Glob.matchesAny(pattern, fileSystem: fileSystem, where: Self.isFixtureFile)
    }

    private static func isFixtureFile(_ path: String) -> Bool { path.hasSuffix(".yaml") || path.hasSuffix(".yml") }

    struct Parsed {
        var value: YAMLValue
        var diagnostics: [Diagnostic]
    }

    /// Checks of one list that share an id. Results, reports and `compare` tell checks apart by
    /// their ids, and `rescore` carries judge verdicts over by id: two judge checks with one id
    /// each got both sets of verdicts (an error), and two other checks are named alike in every
    /// report (a warning: content written before this check still runs).
    static func repeatedIds(_ checks: [Check]) -> [Diagnostic] {
        var first: [String: SourceLocation?] = [:]
        var diagnostics: [Diagnostic] = []
        for check in checks {
            guard let earlier = first[check.id] else {
                first[check.id] = check.location
                continue
            }
            let at = earlier.map { " (first at \($0))" } ?? ""
            let location = check.location ?? SourceLocation(file: "", line: 1, column: 1)
            let hint = "give one an id that tells it apart: {check: \(check.id), id: \(check.id)-2, …}"
            if check.isJudge {
                diagnostics.append(.error("two judge checks in this list have the id '\(check.id)'\(at), so a rescore would give each both sets of verdicts",
                                          at: location, hint: hint))
            } else {
                diagnostics.append(.warning("two checks in this list have the id '\(check.id)'\(at), so reports name both alike",
                                            at: location, hint: hint))
            }
        }
        return diagnostics
    }

    func parse(_ path: String, spec: ObjectSpec) -> Result<Parsed, CoachLabError> {
        do {
            let value = try YAMLDocument.parse(try fileSystem.read(path), file: path)
            return .success(Parsed(value: value, diagnostics: ContentValidator.validate(value, spec: spec)))
        } catch let error as CoachLabError {
            return .failure(error)
        } catch {
            return .failure(CoachLabError(.io, "cannot read file: \(error.localizedDescription)",
                                          at: SourceLocation(file: path, line: 1, column: 1)))
        }
    }
}

/// Whether each folder asked about is one, looked up once per path.
private final class FolderMemo: Sendable {
    private let known = Mutex<[String: Bool]>([:])

    func isDirectory(_ path: String, in fileSystem: FileSystem) -> Bool {
        if let answer = known.withLock({ $0[path] }) { return answer }
        let answer = fileSystem.isDirectory(path)
        known.withLock { $0[path] = answer }
        return answer
    }
}
