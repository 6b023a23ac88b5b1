import ArgumentParser
import CoachLab
import Foundation

/// `coachlab coach export|import`: share a coach as one portable file.
struct CoachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coach",
        abstract: "Export a coach to one portable file, or import one into a pack.",
        subcommands: [CoachExport.self, CoachImport.self]
    )
}

/// `coachlab coach export`.
struct CoachExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a coach as a portable JSON file (format coachlab.coach, version 1).",
        discussion: """
        The file holds every field of the coach except the user's memory state, so an import \
        compiles to the same prompt, byte for byte.

        Example:
          coachlab coach export personas/kindred --coach calm-mind \\
            --out calm-mind.coach.json
        """
    )

    @Argument(help: "The pack folder.")
    var pack: String
    @Option(help: "The coach's id.")
    var coach: String
    @Option(help: "Write here (replacing only an earlier export); default standard output.")
    var out: String?

    func run() throws {
        let pack = try PackLoader(fileSystem: .invocation).load(self.pack).get()
        guard let coach = pack.coach(coach) else {
            throw CoachLabError(usage: "pack '\(pack.id)' has no coach '\(self.coach)'",
                                hint: "its coaches: " + pack.coaches.map(\.id).joined(separator: ", "))
        }
        let text = CoachDocuments.export(coach, from: pack)
        if let out {
            try FileSystem.invocation.write(text, to: out, replacing: .coachExport)
            Terminal.error("exported coach '\(coach.id)' to \(out)")
        } else {
            Terminal.out(text, terminator: "")
        }
    }
}

/// `coachlab coach import`.
struct CoachImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Read a portable coach file into a pack, checked as lint checks it.",
        usage: "coachlab coach import <file> --pack <pack> [options]",
        discussion: """
        The coach is written to PACK/coaches/ID.yaml (the pack must include coaches/*.yaml). \
        An id is lowercase letters, digits and hyphens. A file already there is replaced only \
        when an earlier import wrote it and --replace is given; a hand-written coach is never \
        touched. The pack is checked with the coach in it before anything is written, and the \
        write is atomic, so a refused import leaves the pack byte for byte as it was. \
        Files over 256 KiB, other kinds or versions, unknown fields, template syntax ({{…}}), \
        text that opens a prompt section, control characters and placeholders the pack does \
        not declare are refused with their file:line:col, and nothing is written.

        Example:
          coachlab coach import calm-mind.coach.json --pack personas/kindred \\
            --id calm-mind-shared
        """
    )

    @Argument(help: "The portable coach file.")
    var file: String
    @Option(help: "The pack to import into.")
    var pack: String
    @Option(help: "A new id for the coach (when the pack already has one with its id).")
    var id: String?
    @Flag(help: "Replace a coach this command imported before under the same id (never a hand-written one).")
    var replace = false
    @Flag(help: "Check the file and print the coach YAML without writing it.")
    var dryRun = false

    func run() throws {
        let pack = try PackLoader(fileSystem: .invocation).load(self.pack).get()
        let imported = try CoachDocuments.importCoach(try FileSystem.invocation.data(at: file), file: file, into: pack, id: id, replace: replace)
        if dryRun {
            Terminal.out(imported.packFile, terminator: "")
            return
        }
        try CoachDocuments.install(imported, packPath: self.pack, replace: replace, fileSystem: .invocation)
        Terminal.error("imported coach '\(imported.coach.id)' into \(imported.path)")
    }
}

/// `coachlab tips`.
struct TipsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tips",
        abstract: "Show BetterOne's daily coaching tip for a date (day-seeded, deterministic).",
        usage: "coachlab tips [<pack>] [options]",
        discussion: """
        Candidates are the pack's knowledge (each core idea and heuristic) and, with \
        --sessions, the takeaways of past sessions. seed = year × 1000 + day of year; on three \
        days in ten (seed % 10 < 3) the tip comes from the takeaways when there are any, else \
        from the knowledge; the tip is pool[seed % pool size].

        Examples:
          coachlab tips personas/betterone --date 2026-03-02
          coachlab tips personas/betterone --date 2026-03-01 --days 7 \\
            --sessions fixtures/betterone/history/sessions.yaml
        """
    )

    @Argument(help: "The pack folder.")
    var pack = "personas/betterone"
    @Option(help: "The date, YYYY-MM-DD; default today (UTC).")
    var date: String?
    @Option(help: "Show this many days from the date.")
    var days = 1
    @Option(help: "A sessions file whose takeaways join the candidates (generate wrapup --sessions-file writes one).")
    var sessions: String?

    func validate() throws {
        if let date, LocalDateTime(parsing: date) == nil { throw ValidationError("--date '\(date)' is not a date such as 2026-03-02") }
        if !(1...366).contains(days) { throw ValidationError("--days must be 1-366") }
    }

    func run() throws {
        let pack = try PackLoader(fileSystem: .invocation).load(self.pack).get()
        let knowledge = DailyTip.knowledgeTips(pack)
        let takeaways = try sessions.map { try DailyTip.takeaways(FileSystem.invocation.data(at: $0), file: $0) } ?? []
        guard !knowledge.isEmpty || !takeaways.isEmpty else {
            throw CoachLabError(usage: "pack '\(pack.id)' has no knowledge and no sessions file was given, so there is no tip to pick",
                                hint: "BetterOne's tips come from its topics' knowledge objects")
        }
        let start = LocalDateTime(parsing: date ?? String(MemoryFile.timestamp(Invocation.current.now()).prefix(10)))!
        for (day, pick) in DailyTip.picks(from: start, days: days, knowledge: knowledge, takeaways: takeaways) {
            Terminal.out(DailyTip.text(day, pick), terminator: "")
        }
    }
}
