import ArgumentParser
import CoachLab
import Foundation

/// `coachlab lint`: validates packs and reports every problem as `path:line:col: …`.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Validate packs; print every problem as path:line:col: error|warning: message.",
        discussion: """
        With no paths, lints every pack under personas/. A path may be a pack folder, a file \
        inside one, or a folder of packs. Exits 0 when there are no errors (warnings allowed), \
        2 when there are.
        """
    )

    @Argument(help: "Packs, files in packs, or folders of packs. Default: personas/.")
    var paths: [String] = []

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    func run() throws {
        let targets = try LintTargets.packs(in: paths.isEmpty ? ["personas"] : paths)
        var errors = 0, warnings = 0, files = 0
        let colour = Terminal.stdoutIsTerminal
        for pack in targets {
            let result = PackLoader().load(pack)
            files += result.pack?.files.count ?? 1
            for diagnostic in result.diagnostics {
                Terminal.out(Terminal.styled(diagnostic.description, colour: colour))
                if diagnostic.severity == .error { errors += 1 } else { warnings += 1 }
            }
        }
        Terminal.error("linted \(targets.count) pack\(targets.count == 1 ? "" : "s") (\(files) files): "
            + "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        if errors > 0 || (strict && warnings > 0) { throw ExitCode(Exit.usage) }
    }
}

/// Finds the packs that lint paths name.
enum LintTargets {
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
