import CoachLab
import Foundation

/// Asks a provider for paraphrases of labelled messages (``Paraphrase``), a few requests at a
/// time, for `coachlab redteam --paraphrase N`.
public struct Paraphraser: Sendable {
    /// The model that writes them.
    public var provider: any ChatProvider
    /// Rewrites asked for per message.
    public var count: Int
    /// Requests in flight at once.
    public var concurrency: Int

    public init(provider: any ChatProvider, count: Int, concurrency: Int) {
        self.provider = provider
        self.count = count
        self.concurrency = max(1, concurrency)
    }

    /// Each distinct message's rewrites, as parsed from the provider's answer (possibly fewer
    /// than ``count``, or none).
    /// - Throws: The provider's ``ProviderError`` for a request that fails after its retries.
    public func paraphrases(of messages: [String]) async throws -> [String: [String]] {
        var pending = Array(Set(messages)).sorted()[...]
        var found: [String: [String]] = [:]
        try await withThrowingTaskGroup(of: (String, [String]).self) { group in
            func start() {
                guard let message = pending.popFirst() else { return }
                group.addTask {
                    let request = ChatRequest(system: Paraphrase.system(count: count), messages: [ChatMessage(.user, message)])
                    let reply = try await provider.complete(request)
                    return (message, Paraphrase.parse(reply.text, original: message, count: count))
                }
            }
            for _ in 0..<concurrency { start() }
            while let (message, rewrites) = try await group.next() {
                found[message] = rewrites
                start()
            }
        }
        return found
    }
}
