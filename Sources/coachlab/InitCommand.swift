import ArgumentParser
import CoachLab
import Foundation

/// `coachlab init`: a new app's pack, fixtures, suites and guardrail set, ready to eval.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Scaffold a new app: a pack, two fixtures, a suite, a labelled guardrail set and a providers entry.",
        discussion: """
        Writes personas/APP (persona, a guarded crisis rule with its alert, a style rule, a topic \
        with knowledge, and a stack whose last layer carries the RISK ALERT), fixtures/APP, \
        evals/APP.yaml, fixtures/guardrails/APP.yaml with evals/APP-guardrails.yaml, and \
        providers.yaml. As written they lint, compile and pass on the mock. No file that exists \
        is touched: init stops before writing anything if one of its files is already there \
        (an existing providers.yaml is left alone, and the entry to add is printed).

        Examples:
          coachlab init --app sleep-coach
          coachlab init my-project --app focus-buddy --name "Focus Buddy"
          coachlab init --app night-owl --from luna           (a copy of personas/luna's shape)
        """
    )

    @Argument(help: "The project folder (created if missing). Default: the current folder.")
    var directory = "."
    @Option(help: "The app's id: lower-case letters, digits and single hyphens.")
    var app: String
    @Option(help: "The persona's name. Default: the app id in title case (with --from, the pack's name).")
    var name: String?
    @Option(help: "Start from an existing pack's shape instead: a pack folder, or the name of one under personas/ (betterone, kindred, ticbuddy, healthwallet, luna).")
    var from: String?

    func run() throws {
        let files = try scaffold()
        let root = directory == "." ? "" : directory.hasSuffix("/") ? directory : directory + "/"
        let existing = files.filter { FileManager.default.fileExists(atPath: root + $0.path) }
        let clashes = existing.filter { $0.path != "providers.yaml" }
        guard clashes.isEmpty else {
            for clash in clashes { Terminal.error("\(root + clash.path):1:1: error: already exists; init writes only new files") }
            throw CoachLabError(usage: "init would overwrite \(clashes.count) file\(clashes.count == 1 ? "" : "s"); nothing was written",
                                hint: "choose another --app, or another folder")
        }
        for file in files where !existing.contains(where: { $0.path == file.path }) {
            try Self.create(root + file.path, text: file.text)
            Terminal.out("wrote \(root + file.path)")
        }
        if let providers = existing.first(where: { $0.path == "providers.yaml" }) {
            Terminal.out("\(root)providers.yaml exists and was left as it is; to try \(app) on OpenAI, add:")
            Terminal.out(providers.text.split(separator: "\n").drop { !$0.hasPrefix("  - id:") }.joined(separator: "\n"))
        }
        Terminal.out(nextSteps(root: root))
    }

    /// The new pack's files: the starter, or a copy of another pack under the new name.
    private func scaffold() throws -> [(path: String, text: String)] {
        guard let from else { return try PackScaffold.files(app: app, name: name) }
        let folder = FileManager.default.fileExists(atPath: from) ? from : "personas/\(from)"
        guard FileManager.default.fileExists(atPath: folder) else {
            throw CoachLabError(usage: "no pack '\(from)' (looked for \(from) and personas/\(from))",
                                hint: "name a pack folder, or run from a project whose personas/ holds it")
        }
        return try PackScaffold.files(app: app, name: name, from: PackLoader(fileSystem: .live).load(folder).get(), fileSystem: .live)
    }

    /// Writes a new file, creating its folder; a file that appeared since the check for
    /// clashes is never replaced.
    private static func create(_ path: String, text: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .withoutOverwriting)
    }

    private func nextSteps(root: String) -> String {
        let cd = root.isEmpty ? "" : "cd \(directory) && "
        return """

            Next:
              \(cd)coachlab lint
              \(cd)coachlab compile personas/\(app)\(from == nil ? " --variant first-step" : "")
              \(cd)coachlab eval evals/\(app).yaml evals/\(app)-guardrails.yaml
            """
    }
}
