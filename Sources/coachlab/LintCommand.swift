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
        allowed), 2 when there are.
        """
    )

    @Argument(help: "Packs, files in packs, folders of packs, fixtures or suites. Default: personas/, fixtures/, evals/.")
    var paths: [String] = []

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let defaults = paths.isEmpty
        let requested = defaults ? ["personas", "fixtures", "evals"].filter { FileManager.default.fileExists(atPath: $0) } : paths
        var packPaths: [String] = [], fixtures: [String] = [], suites: [String] = [], datasets: [String] = []
        var records: [(file: String, spec: ObjectSpec)] = []  // sessions files beside the fixtures
        var judgements: [String] = []  // labelled transcripts for judge calibration
        for path in requested {
            let kind = LintTargets.kind(of: path)
            switch kind {
            case .fixtures:
                for file in LintTargets.yamlFiles(in: path) {
                    switch LintTargets.topLevelKey(of: file) {
                    case "dataset": datasets.append(file)
                    case "sessions": records.append((file, DailyTip.sessionsSpec))
                    case "judgement": judgements.append(file)
                    default: fixtures.append(file)
                    }
                }
            case .suites:
                for file in LintTargets.yamlFiles(in: path) {
                    // Named metrics (evals/rubrics/) are rubric files, checked against their own spec.
                    if LintTargets.topLevelKey(of: file) == "rubric" { records.append((file, Check.rubricFileSpec)) } else { suites.append(file) }
                }
            case .packs: packPaths.append(path)
            }
        }
        let targets = packPaths.isEmpty ? [] : try LintTargets.packs(in: packPaths)
        var diagnostics: [Diagnostic] = []
        var files = fixtures.count + suites.count + records.count
        for record in records {
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: record.file))
                diagnostics += ContentValidator.validate(try YAMLDocument.parse(data, file: record.file), spec: record.spec)
            } catch let error as CoachLabError {
                diagnostics += error.diagnostics
            } catch {
                diagnostics.append(.error("cannot read file: \(error.localizedDescription)", at: SourceLocation(file: record.file, line: 1, column: 1)))
            }
        }
        for pack in targets {
            let result = PackLoader().load(pack)
            files += result.pack?.files.count ?? 1
            diagnostics += result.diagnostics
        }
        diagnostics += EvalLinter().lint(fixtures: fixtures, suites: suites)
        for path in datasets {
            do {
                let dataset = try GuardrailDataset.load(path)
                guard let pack = dataset.pack else { continue }
                let loaded = PackLoader().load(pack)
                if let found = loaded.pack {
                    diagnostics += dataset.problems(for: found)
                } else {
                    diagnostics.append(.error("pack '\(pack)' cannot be loaded", at: SourceLocation(file: path, line: 1, column: 1),
                                              hint: "coachlab lint \(pack) shows why"))
                }
            } catch let error as CoachLabError {
                diagnostics += error.diagnostics
            }
        }
        files += datasets.count + judgements.count
        for path in judgements { diagnostics += EvalLoader().judgement(at: path).1 }
        let colour = Terminal.stdoutIsTerminal
        for diagnostic in diagnostics { Terminal.out(Terminal.styled(diagnostic.description, colour: colour)) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        Terminal.error("linted \(targets.count) pack\(targets.count == 1 ? "" : "s"), \(fixtures.count) fixtures, \(suites.count) suites and \(datasets.count) guardrail datasets "
            + "(\(files) files): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(Exit.usage) }
    }
}

/// Finds the packs, fixtures and suites that lint paths name.
enum LintTargets {
    enum Kind { case packs, fixtures, suites }

    /// Fixtures live under fixtures/, suites (and named rubrics) under evals/; a file elsewhere that is not in a
    /// pack is a fixture or a suite when its top-level `fixture:` or `suite:` key says so;
    /// everything else is a pack.
    static func kind(of path: String) -> Kind {
        let components = (path as NSString).standardizingPath.split(separator: "/")
        if components.contains("fixtures") { return .fixtures }
        if components.contains("evals") { return .suites }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue, enclosingPack(of: path) == nil {
            switch topLevelKey(of: path) {
            case "fixture", "dataset": return .fixtures
            case "suite": return .suites
            default: break
            }
        }
        return .packs
    }

    /// The first top-level key of a YAML file ("fixture", "suite", "dataset"…), if any.
    static func topLevelKey(of path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix(" ") && !line.hasPrefix("-") {
            if let colon = line.firstIndex(of: ":") { return String(line[..<colon]) }
        }
        return nil
    }

    /// The YAML files at a path: the file itself, or every one below a folder.
    static func yamlFiles(in path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [path] }
        guard isDirectory.boolValue else { return [path] }
        let enumerator = FileManager.default.enumerator(atPath: path)
        var files: [String] = []
        while let next = enumerator?.nextObject() as? String {
            if next.hasSuffix(".yaml") || next.hasSuffix(".yml") { files.append(path + "/" + next) }
        }
        return files.sorted()
    }

    static func packs(in paths: [String]) throws -> [String] {
        let fileManager = FileManager.default
        var packs: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CoachLabError(usage: "no such file or folder: \(path)")
            }
            if !isDirectory.boolValue {
                packs.append(enclosingPack(of: path) ?? path)
                continue
            }
            if fileManager.fileExists(atPath: path + "/pack.yaml") {
                packs.append(path)
                continue
            }
            let children = ((try? fileManager.contentsOfDirectory(atPath: path)) ?? []).sorted()
            let found = children.map { path + "/" + $0 }.filter { fileManager.fileExists(atPath: $0 + "/pack.yaml") }
            if found.isEmpty {
                throw CoachLabError(usage: "no packs in \(path)", hint: "a pack is a folder with a pack.yaml")
            }
            packs += found
        }
        var seen = Set<String>()
        return packs.filter { seen.insert($0).inserted }
    }

    /// The pack folder a file belongs to: the nearest folder above it with a pack.yaml.
    private static func enclosingPack(of file: String) -> String? {
        var directory = (file as NSString).deletingLastPathComponent
        for _ in 0..<6 {
            if directory.isEmpty { directory = "." }
            if FileManager.default.fileExists(atPath: directory + "/pack.yaml") { return directory }
            if directory == "." || directory == "/" { return nil }
            directory = (directory as NSString).deletingLastPathComponent
        }
        return nil
    }
}
