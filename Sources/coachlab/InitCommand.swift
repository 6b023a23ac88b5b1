import ArgumentParser
import CoachLab
import Foundation

/// `coachlab init`: a new app's pack, fixtures, suites and guardrail set, ready to eval.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Scaffold a new app: a pack, six fixtures, a suite, a labelled guardrail set and a providers entry.",
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
          coachlab init --app night-owl --from luna
            (a copy of personas/luna's shape)
        """
    )

    @Argument(help: "The project folder (created if missing); . is the current folder.")
    var directory = "."
    @Option(help: "The app's id: lower-case letters, digits and single hyphens.")
    var app: String
    @Option(help: "The persona's name. Default: the app id in title case (with --from, the pack's name).")
    var name: String?
    @Option(help: "Start from an existing pack's shape instead: a pack folder, or the name of one under personas/ (betterone, kindred, ticbuddy, healthwallet, luna).")
    var from: String?

    func run() throws {
        let installation = try PackScaffold.install(try scaffold(), into: directory, fileSystem: .invocation)
        for path in installation.written { Terminal.out("wrote \(path)") }
        for path in installation.leftAlone {
            let shown = (directory == "." ? "" : directory + "/") + path
            Terminal.out(path == ".gitignore" ? "\(shown) exists and was left as it is; add .coachlab/ to it (CoachLab's local store and cache)"
                                              : "\(shown) exists and was left as it is")
        }
        if let entry = installation.providersEntry {
            Terminal.out("\(directory == "." ? "" : directory + "/")providers.yaml exists and was left as it is; to try \(app) on OpenAI, add:")
            Terminal.out(entry)
        }
        Terminal.out(nextSteps())
    }

    /// The new pack's files: the starter, or a copy of another pack under the new name.
    private func scaffold() throws -> [(path: String, text: String)] {
        guard let from else { return try PackScaffold.files(app: app, name: name) }
        let folder = FileSystem.invocation.exists(from) ? from : "personas/\(from)"
        guard FileSystem.invocation.exists(folder) else {
            throw CoachLabError(usage: "no pack '\(from)' (looked for \(from) and personas/\(from))",
                                hint: "name a pack folder, or run from a project whose personas/ holds it")
        }
        return try PackScaffold.files(app: app, name: name, from: PackLoader(fileSystem: .invocation).load(folder).get(), fileSystem: .invocation)
    }

    private func nextSteps() -> String {
        let cd = directory == "." ? "" : "cd \(directory) && "
        return """

            Next:
              \(cd)coachlab lint
              \(cd)coachlab compile personas/\(app)\(from == nil ? " --variant first-step" : "")
              \(cd)coachlab eval evals/\(app).yaml evals/\(app)-guardrails.yaml
            In CI: set the uses: line of .github/workflows/coachlab.yml to CoachLab's repository (docs/ci.md).
            """
    }
}
