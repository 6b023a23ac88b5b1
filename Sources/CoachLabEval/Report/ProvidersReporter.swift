import CoachLab
import CoachLabProviders
import Foundation

extension Reporters {
    /// `coachlab providers`: the mock, then every configured provider, with its kind, model,
    /// endpoint, concurrency, prices and whether its key is present (never the key).
    public static func providers(_ registry: ProviderRegistry) -> String {
        var rows = [["ID", "KIND", "MODEL", "ENDPOINT", "CONCURRENCY", "PRICE IN/OUT", "KEY"]]
        for configuration in [ProviderRegistry.mockConfiguration] + registry.configurations {
            let endpoint: String
            switch configuration.kind {
            case .fallback: endpoint = "→ " + configuration.chain.joined(separator: " → ")
            case .canned: endpoint = configuration.pack.map { "replies from \($0)" } ?? "\(configuration.replies.count) replies"
            case .mock: endpoint = "in-process"
            case .http: endpoint = configuration.target?.url ?? "-"
            default: endpoint = configuration.baseURL ?? configuration.kind.defaultBaseURL ?? "-"
            }
            let price = configuration.prices.map { String(format: "$%.2f/$%.2f", $0.input, $0.output) } ?? "-"
            rows.append([configuration.id, configuration.kind.rawValue, configuration.model.isEmpty ? "-" : configuration.model,
                         endpoint, String(configuration.concurrency), price, registry.keyStatus(configuration).description])
        }
        return TextTable.text(rows)
    }

    /// `coachlab cache stats`: per provider, entries, how many expired, size, and the oldest
    /// and newest save; then the totals.
    public static func cacheStatistics(_ entries: [ResponseCache.Entry], directory: String) -> String {
        guard !entries.isEmpty else { return "the response cache at \(directory) is empty\n" }
        var rows = [["PROVIDER", "ENTRIES", "EXPIRED", "SIZE", "OLDEST", "NEWEST"]]
        for (provider, group) in Dictionary(grouping: entries, by: \.provider).sorted(by: { $0.key < $1.key }) {
            rows.append([provider, "\(group.count)", "\(group.filter(\.expired).count)", size(group.reduce(0) { $0 + $1.bytes }),
                         stamp(group.map(\.savedAt).min()), stamp(group.map(\.savedAt).max())])
        }
        return TextTable.text(rows) + "\(entries.count) entries, \(size(entries.reduce(0) { $0 + $1.bytes })) in \(directory)\n"
    }

    /// `coachlab cache list`: every entry as given, with its model, key prefix, whether it
    /// expired, and its last user message on one line, cut at 60 characters.
    public static func cacheEntries(_ entries: [ResponseCache.Entry]) -> String {
        var rows = [["SAVED", "PROVIDER", "MODEL", "KEY", "", "LAST USER MESSAGE"]]
        for entry in entries {
            let message = (entry.lastUserMessage ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
            rows.append([stamp(entry.savedAt), entry.provider, entry.model ?? "–", String(entry.key.prefix(12)),
                         entry.expired ? "expired" : "", message.count > 60 ? message.prefix(59) + "…" : message])
        }
        return TextTable.text(rows)
    }

    /// A byte count in B, KB or MB.
    public static func size(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : bytes < 1024 * 1024 ? String(format: "%.1f KB", Double(bytes) / 1024)
            : String(format: "%.1f MB", Double(bytes) / 1024 / 1024)
    }

    /// A date as `2026-03-01 09:30:00`, in UTC, or a dash.
    static func stamp(_ date: Date?) -> String {
        guard let date else { return "–" }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate, .withSpaceBetweenDateAndTime]
        return formatter.string(from: date)
    }
}
