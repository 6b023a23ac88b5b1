import ArgumentParser
import CoachLab
import Foundation

/// `coachlab import-transcripts`: production conversations as fixtures, user data neutralised.
struct ImportTranscriptsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-transcripts",
        abstract: "Turn an exported production transcript (JSONL) into fixtures, with user data neutralised.",
        usage: "coachlab import-transcripts <file> --pack <pack> --out <folder> [options]",
        discussion: """
        The export has one JSON object a line: a message ({"conversation": "c1", "role": "user", \
        "content": "…"}) or a whole conversation ({"id": "c1", "messages": [{"role": …, "content": …}]}). \
        Each conversation becomes a fixture: its earlier exchanges are the recorded history, and its \
        last user message is the one the provider answers in eval. System messages are left out (the \
        pack compiles its own). E-mail addresses, links and phone or other numbers of seven digits or \
        more become [email], [link] and [phone]; each --name becomes [name]. Review the files before \
        committing them: names the export does not mark are not found.

        Examples:
          coachlab import-transcripts logs/luna-week12.jsonl --pack personas/luna --out fixtures/luna/imported
          coachlab import-transcripts export.jsonl --pack personas/betterone --out fixtures/betterone/prod --name Priya --name Dan
        """
    )

    @Argument(help: "The export: JSONL, one message or one conversation a line.")
    var file: String
    @Option(help: "The pack the fixtures run against.")
    var pack: String
    @Option(help: "The folder to write the fixtures into (never over a file).")
    var out: String
    @Option(help: "The start of each fixture's id. Default: the pack's folder name and 'prod'.")
    var prefix: String?
    @Option(help: "A name to replace with [name]; repeatable.")
    var name: [String] = []

    func run() throws {
        let fileSystem = FileSystem.invocation
        let data: Data
        do { data = try fileSystem.read(file) } catch {
            throw CoachLabError(.io, "cannot read the transcript: \(error.localizedDescription)", at: SourceLocation(file: file, line: 1, column: 1))
        }
        _ = try PackLoader(fileSystem: fileSystem).load(pack).get()
        let imported = TranscriptImport(jsonl: String(decoding: data, as: UTF8.self), file: file, names: name)
        if imported.diagnostics.contains(where: { $0.severity == .error }) { throw CoachLabError(.content, imported.diagnostics) }
        guard !imported.conversations.isEmpty else { throw CoachLabError(usage: "\(file) holds no conversation with a user message") }
        let folder = out.hasSuffix("/") ? String(out.dropLast()) : out
        let packName = pack.split(separator: "/").last.map(String.init) ?? "app"
        let files = imported.fixtures(pack: pack, prefix: prefix ?? packName + "-prod").map { (folder + "/" + $0.name, $0.yaml) }
        for (path, _) in files where fileSystem.exists(path) {
            throw CoachLabError(usage: "\(path) exists; import-transcripts never writes over a file", hint: "write into a new folder, or give --prefix")
        }
        for (path, text) in files { try fileSystem.write(text, to: path, mode: .createNew) }
        let counts = imported.neutralised.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        Terminal.out("imported \(files.count) conversations into \(folder); neutralised " + (counts.isEmpty ? "nothing" : counts.joined(separator: ", ")))
        Terminal.out("run them from a suite: fixtures: [\(folder)/*.yaml]")
    }
}
