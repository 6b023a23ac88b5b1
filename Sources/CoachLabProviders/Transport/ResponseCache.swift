import CoachLab
import Foundation
import Synchronization

/// A transparent cache of live providers' answers, so an author who re-runs an eval after
/// editing one fixture pays only for the requests that changed.
///
/// An entry is keyed, as a cassette is, by the provider id and the exact wire request
/// (method, URL and body, which carry the model, every setting and the whole conversation),
/// with keys scrubbed. It holds the response body exactly as received, and is written only
/// after that body decoded into a reply, so a truncated or malformed answer is never
/// replayed. Entries older than the time to live are ignored and replaced.
///
/// A cache must never fake statistics: a case run more than once (`--repeat N`) reads
/// nothing from it (``withoutReads(_:)``), so every repeat is a fresh sample.
public struct ResponseCache: Sendable {
    /// The folder: `<directory>/<provider>/<key>.json`.
    public let directory: String
    /// Seconds an entry stays fresh.
    public let timeToLive: Double
    /// Where the entries are read and written.
    private let fileSystem: FileSystem
    private let now: @Sendable () -> Date
    private let counters = Counters()

    /// The default folder, beside the default result store.
    public static let defaultDirectory = ".coachlab/cache"
    /// The default time to live: a week.
    public static let defaultTimeToLive = 7 * 24 * 3600.0

    /// A cache in `directory` of `fileSystem`, whose entries are fresh for `timeToLive` seconds
    /// counted on the clock `now`.
    public init(directory: String = ResponseCache.defaultDirectory, timeToLive: Double = ResponseCache.defaultTimeToLive,
                fileSystem: FileSystem, now: @escaping @Sendable () -> Date) {
        self.directory = directory
        self.timeToLive = timeToLive
        self.fileSystem = fileSystem
        self.now = now
    }

    /// A cache on `system`'s file system and clock.
    public init(directory: String = ResponseCache.defaultDirectory, timeToLive: Double = ResponseCache.defaultTimeToLive,
                system: SystemEnvironment) {
        self.init(directory: directory, timeToLive: timeToLive, fileSystem: system.fileSystem, now: system.now)
    }

    @TaskLocal static var readsBypassed = false

    /// Runs `body` with cache reads turned off for its requests (they are still stored):
    /// how the runner keeps repeats honest.
    public static func withoutReads<T>(_ body: () async throws -> T) async rethrows -> T {
        try await $readsBypassed.withValue(true, operation: body)
    }

    /// What a run did with the cache.
    public struct Statistics: Sendable, Hashable {
        /// Answers read from the cache.
        public var hits = 0
        /// Requests sent because no fresh entry existed.
        public var misses = 0
        /// Requests sent without looking, because the case is repeated.
        public var bypassed = 0
        /// Entries written.
        public var stored = 0
        /// Answers not written because they repeat a key (``SecretRedactor/isExposed(in:)``).
        public var withheld = 0
        /// Entries that no longer decoded into a reply, removed and asked again.
        public var unreadable = 0

        /// The line a run prints about the cache in `directory`, or nil when the run used none.
        public func line(directory: String) -> String? {
            guard hits + misses + bypassed > 0 else { return nil }
            return "response cache (\(directory)): \(hits) answers read, \(misses + bypassed) requests sent"
                + (bypassed > 0 ? " (\(bypassed) by repeated cases, which never read it)" : "")
                + (unreadable > 0 ? "; \(unreadable) stored \(unreadable == 1 ? "answer" : "answers") no longer decoded, so \(unreadable == 1 ? "it was" : "they were") removed and asked again" : "")
                + (withheld > 0 ? "; \(withheld) \(withheld == 1 ? "answer repeats" : "answers repeat") a key and \(withheld == 1 ? "was" : "were") not stored" : "")
        }
    }

    /// The counts so far.
    public var statistics: Statistics { counters.value }

    /// The file a request's entry lives in.
    public func path(for spec: HTTPRequestSpec, provider: String) -> String {
        "\(directory)/\(CassetteTransport.safeName(provider))/\(CassetteTransport.key(for: spec, provider: provider)).json"
    }

    /// The fresh stored body for a request, or nil (counted as a miss or a bypass).
    func lookup(_ spec: HTTPRequestSpec, provider: String) -> (status: Int, headers: [HTTPHeader], body: [UInt8])? {
        if Self.readsBypassed {
            counters.update { $0.bypassed += 1 }
            return nil
        }
        guard let data = try? fileSystem.read(path(for: spec, provider: provider)),
              let entry = try? JSONDecoder().decode(Cassette.self, from: data),
              let saved = entry.savedAt.flatMap(Self.date), now().timeIntervalSince(saved) < timeToLive,
              entry.key == CassetteTransport.key(for: spec, provider: provider) else {
            counters.update { $0.misses += 1 }
            return nil
        }
        counters.update { $0.hits += 1 }
        return (entry.response.status, entry.response.headers.map { HTTPHeader($0.key, $0.value) }, Array(entry.response.body.utf8))
    }

    /// Stores an answer that decoded. A cache that cannot be written costs money, not
    /// correctness, so a failure here never fails the request. The request's keys and
    /// `redactor`'s secrets are scrubbed from the entry, and an answer that still spells one out
    /// (across a stream's events: ``SecretRedactor/isExposed(in:)``) is not stored at all.
    func store(_ spec: HTTPRequestSpec, provider: String, status: Int, headers: [HTTPHeader], body: [UInt8],
               redactor: SecretRedactor = SecretRedactor(secrets: [])) {
        var entry = Cassette(spec: spec, provider: provider, status: status, headers: headers, body: body, secrets: redactor.secrets)
        guard !entry.exposes(redactor.secrets + CassetteTransport.secretValues(spec)) else {
            counters.update { $0.withheld += 1 }
            return
        }
        entry.savedAt = Self.stamp(now())
        let file = path(for: spec, provider: provider)
        do {
            try fileSystem.write(JSONEncoder.sorted(pretty: true).encode(entry) + Data("\n".utf8), to: file)
            counters.update { $0.stored += 1 }
        } catch {
            return
        }
    }

    /// Removes a request's entry, which was read but no longer decodes into a reply (a
    /// stricter decoder after an upgrade, a hand edit), so the request is asked again.
    func discard(_ spec: HTTPRequestSpec, provider: String) {
        try? fileSystem.remove(path(for: spec, provider: provider))
        counters.update { $0.unreadable += 1 }
    }

    // MARK: Inspecting and clearing

    /// One stored answer, as `coachlab cache list` shows it.
    public struct Entry: Sendable, Hashable {
        public var provider: String
        public var key: String
        public var path: String
        public var savedAt: Date
        public var bytes: Int
        public var model: String?
        /// The last user message of the request, for recognising it.
        public var lastUserMessage: String?
        public var expired: Bool

        public init(provider: String, key: String, path: String, savedAt: Date, bytes: Int, model: String? = nil,
                    lastUserMessage: String? = nil, expired: Bool = false) {
            self.provider = provider
            self.key = key
            self.path = path
            self.savedAt = savedAt
            self.bytes = bytes
            self.model = model
            self.lastUserMessage = lastUserMessage
            self.expired = expired
        }
    }

    /// Every entry, oldest first. Files in the folder that are not cache entries are left out
    /// (and never cleared).
    public func entries() -> [Entry] {
        guard let providers = try? fileSystem.list(directory) else { return [] }
        var entries: [Entry] = []
        for folder in providers.sorted() {
            let folderPath = "\(directory)/\(folder)"
            for name in ((try? fileSystem.list(folderPath)) ?? []).sorted() where name.hasSuffix(".json") {
                let file = "\(folderPath)/\(name)"
                guard let data = try? fileSystem.read(file), let entry = try? JSONDecoder().decode(Cassette.self, from: data),
                      let saved = entry.savedAt.flatMap(Self.date), name == "\(entry.key).json" else { continue }
                entries.append(Entry(provider: entry.provider, key: entry.key, path: file, savedAt: saved, bytes: data.count,
                                     model: entry.request.body["model"]?.string, lastUserMessage: Self.lastUserMessage(entry.request.body),
                                     expired: now().timeIntervalSince(saved) >= timeToLive))
            }
        }
        return entries.sorted { ($0.savedAt, $0.path) < ($1.savedAt, $1.path) }
    }

    /// Removes entries (all, one provider's, or only expired ones) and returns them. Only
    /// files this cache wrote are removed; folders left empty go too.
    @discardableResult
    public func clear(provider: String? = nil, expiredOnly: Bool = false) throws -> [Entry] {
        let doomed = entries().filter { (provider == nil || $0.provider == provider) && (!expiredOnly || $0.expired) }
        for entry in doomed { try fileSystem.remove(entry.path) }
        for folder in Set(doomed.map { ($0.path as NSString).deletingLastPathComponent }) where (try? fileSystem.list(folder))?.isEmpty == true {
            try? fileSystem.remove(folder)
        }
        return doomed
    }

    static func lastUserMessage(_ body: JSONValue) -> String? {
        // OpenAI and Anthropic: messages[].content; Gemini: contents[].parts[].text.
        if let messages = body["messages"]?.array {
            let user = messages.last { $0["role"]?.string == "user" }
            if let text = user?["content"]?.string { return text }
            if let parts = user?["content"]?.array { return parts.compactMap { $0["text"]?.string }.joined(separator: " ") }
        }
        if let contents = body["contents"]?.array, let user = contents.last(where: { $0["role"]?.string == "user" }) {
            return user["parts"]?.array?.compactMap { $0["text"]?.string }.joined(separator: " ")
        }
        return nil
    }

    static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// Parses a time to live such as `90s`, `30m`, `12h`, `7d` or a number of seconds.
    public static func duration(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("d", 86400), ("h", 3600), ("m", 60), ("s", 1)]
        for (suffix, scale) in units where trimmed.hasSuffix(suffix) {
            guard let value = Double(trimmed.dropLast(suffix.count)), value >= 0 else { return nil }
            return value * scale
        }
        return Double(trimmed).flatMap { $0 >= 0 ? $0 : nil }
    }

    private final class Counters: Sendable {
        private let statistics = Mutex(Statistics())
        var value: Statistics { statistics.withLock { $0 } }
        func update(_ change: (inout Statistics) -> Void) { statistics.withLock { change(&$0) } }
    }
}
