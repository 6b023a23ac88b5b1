import ArgumentParser
import CoachLabProviders
import Foundation

/// `coachlab cache`: what the response cache holds, and clearing it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or clear the response cache of live providers' answers.",
        discussion: """
        eval and compare keep each live provider's answer under .coachlab/cache, keyed by the provider \
        and the exact request (keys scrubbed), and reuse it while it is fresh. Repeated cases never read it.

        Examples:
          coachlab cache stats
          coachlab cache list --provider openai-gpt-4o-mini
          coachlab cache clear --expired
        """,
        subcommands: [Stats.self, List.self, Clear.self],
        defaultSubcommand: Stats.self
    )

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stats", abstract: "Entries, size and age per provider.")
        @OptionGroup var location: CacheLocation

        func run() throws {
            let cache = location.cache
            let entries = cache.entries()
            guard !entries.isEmpty else {
                Terminal.out("the response cache at \(cache.directory) is empty")
                return
            }
            var rows = [["PROVIDER", "ENTRIES", "EXPIRED", "SIZE", "OLDEST", "NEWEST"]]
            for (provider, group) in Dictionary(grouping: entries, by: \.provider).sorted(by: { $0.key < $1.key }) {
                rows.append([provider, "\(group.count)", "\(group.filter(\.expired).count)", CacheCommand.size(group.reduce(0) { $0 + $1.bytes }),
                             CacheCommand.stamp(group.map(\.savedAt).min()), CacheCommand.stamp(group.map(\.savedAt).max())])
            }
            for line in Terminal.table(rows) { Terminal.out(line) }
            Terminal.out("\(entries.count) entries, \(CacheCommand.size(entries.reduce(0) { $0 + $1.bytes })) in \(cache.directory)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every entry, oldest first, with its model and last user message.")
        @OptionGroup var location: CacheLocation
        @Option(help: "Only this provider's entries.")
        var provider: String?

        func run() throws {
            let entries = location.cache.entries().filter { provider == nil || $0.provider == provider }
            var rows = [["SAVED", "PROVIDER", "MODEL", "KEY", "", "LAST USER MESSAGE"]]
            for entry in entries {
                let message = (entry.lastUserMessage ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
                rows.append([CacheCommand.stamp(entry.savedAt), entry.provider, entry.model ?? "–", String(entry.key.prefix(12)),
                             entry.expired ? "expired" : "", message.count > 60 ? message.prefix(59) + "…" : message])
            }
            for line in Terminal.table(rows) { Terminal.out(line) }
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Remove cached answers (only files the cache wrote).")
        @OptionGroup var location: CacheLocation
        @Option(help: "Only this provider's entries.")
        var provider: String?
        @Flag(help: "Only entries older than the time to live.")
        var expired = false

        func run() throws {
            let cache = location.cache
            let removed = try cache.clear(provider: provider, expiredOnly: expired)
            Terminal.out("removed \(removed.count) entr\(removed.count == 1 ? "y" : "ies") (\(CacheCommand.size(removed.reduce(0) { $0 + $1.bytes }))) from \(cache.directory)")
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : bytes < 1024 * 1024 ? String(format: "%.1f KB", Double(bytes) / 1024)
            : String(format: "%.1f MB", Double(bytes) / 1024 / 1024)
    }

    static func stamp(_ date: Date?) -> String {
        guard let date else { return "–" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate, .withSpaceBetweenDateAndTime]
        return formatter.string(from: date)
    }
}
