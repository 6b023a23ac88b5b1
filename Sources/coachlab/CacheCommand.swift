import ArgumentParser
import CoachLabEval
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
            Terminal.out(Reporters.cacheStatistics(cache.entries(), directory: cache.directory), terminator: "")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every entry, oldest first, with its model and last user message.",
                                                        usage: "coachlab cache list [--provider <provider>] [options]")
        @OptionGroup var location: CacheLocation
        @Option(help: "Only this provider's entries.")
        var provider: String?

        func run() throws {
            Terminal.out(Reporters.cacheEntries(location.cache.entries().filter { provider == nil || $0.provider == provider }), terminator: "")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Remove cached answers (only files the cache wrote).",
            usage: "coachlab cache clear [--provider <provider>] [--expired] [options]")
        @OptionGroup var location: CacheLocation
        @Option(help: "Only this provider's entries.")
        var provider: String?
        @Flag(help: "Only entries older than the time to live.")
        var expired = false

        func run() throws {
            let cache = location.cache
            let removed = try cache.clear(provider: provider, expiredOnly: expired)
            Terminal.out("removed \(removed.count) entr\(removed.count == 1 ? "y" : "ies") (\(Reporters.size(removed.reduce(0) { $0 + $1.bytes }))) from \(cache.directory)")
        }
    }
}
