import CoachLab
import CoachLabProviders
import Foundation
import Synchronization

/// What a run would send and cost, found without sending anything (`eval --dry-run`).
///
/// Every case runs as it would (the same compiled prompts, turns, alerts, context rotation,
/// simulated users and judges), but each request is answered in this process by the embedded
/// mock and counted against the provider it was meant for, with that provider's price. So the
/// requests and input tokens are the run's own; output tokens are the mock's replies, which
/// keep to the pack's reply contract, and an upper bound, each reply at its max-tokens. A live
/// model writes replies of its own length: the expected figure is an estimate, the bound is not.
/// A fallback chain is counted under its own id at its first link's price.
public struct EvalEstimate: Sendable {
    /// One provider's share.
    public struct Row: Sendable, Hashable {
        public var provider: String
        public var requests = 0
        public var inputTokens = 0
        /// Output tokens, as the mock's replies have them.
        public var outputTokens = 0
        /// Output tokens if every reply ran to its max-tokens; nil when a request sets no limit.
        public var outputTokensAtMost: Int? = 0
        /// Its price per million tokens, when the providers file gives one.
        public var prices: ProviderConfiguration.Prices?

        public init(provider: String) { self.provider = provider }

        /// The expected cost in US dollars; nil without a price.
        public var cost: Double? { prices.map { (Double(inputTokens) * $0.input + Double(outputTokens) * $0.output) / 1_000_000 } }
        /// The cost if every reply ran to its max-tokens; nil without a price or a limit.
        public var costAtMost: Double? {
            guard let prices, let most = outputTokensAtMost else { return nil }
            return (Double(inputTokens) * prices.input + Double(most) * prices.output) / 1_000_000
        }
    }

    /// The cases the run would run.
    public var cases: Int
    /// Each provider a request would go to, by id.
    public var rows: [Row]
    /// The prices used.
    public var prices: PriceSheet

    /// Runs `request`'s cases on the mock, counting what each provider would be sent. No key is
    /// needed and nothing leaves the process.
    /// - Throws: ``CoachLabError`` for content or usage errors, as `eval` would.
    public static func make(_ request: EvalRequest, registry: ProviderRegistry, catalog: SuiteCatalog) async throws -> EvalEstimate {
        let (suites, _) = try EvalPlan.load(request.suites, catalog: catalog)
        var registry = registry
        registry.overrides = request.settings
        let tally = Tally()
        var runner = EvalRunner(registry: registry, providerOverride: request.providers, baseURL: request.baseURL,
                                apiKeyVariable: request.apiKeyVariable, repeats: request.repeats, concurrency: request.concurrency,
                                fileSystem: catalog.fileSystem) { configuration, _ in
            // A reply's limit: the request's, else the provider's own (Anthropic's API requires one).
            let limit = configuration.maxTokens ?? (configuration.kind == .anthropic ? AnthropicWire.defaultMaxTokens : nil)
            return Counted(id: configuration.id, model: configuration.model, limit: limit, cap: configuration.maxTokensCap, tally: tally)
        }
        runner.sanitize = request.sanitize
        try runner.preparePacks(of: suites)
        let (filter, shard) = (request.filter, request.shard)
        let cases = Counter()
        try await runner.run(suites, include: { evalCase in
            (filter.map { evalCase.id.contains($0) } ?? true) && (shard?.contains(evalCase.id) ?? true)
        }) { _ in cases.add() }
        let ids = Array(tally.rows.withLock { $0.keys }).sorted()
        let sheet = PriceSheet(registry: registry, ids: ids)
        // A fallback chain is priced as its first link, which answers when nothing fails.
        func prices(of id: String, depth: Int = 0) -> ProviderConfiguration.Prices? {
            if let own = sheet.providers[id] { return own }
            guard depth < 4, let configuration = try? registry.configuration(for: id), configuration.kind == .fallback,
                  let first = configuration.chain.first else { return nil }
            return prices(of: first, depth: depth + 1)
        }
        let rows = tally.rows.withLock { rows in
            ids.map { id in
                var row = rows[id]!
                row.prices = prices(of: id)
                return row
            }
        }
        return EvalEstimate(cases: cases.value, rows: rows, prices: sheet)
    }

    /// The table `eval --dry-run` prints.
    public var table: String {
        func money(_ value: Double?, _ row: Row? = nil) -> String {
            value.map { String(format: "$%.4f", $0) } ?? (row.map { $0.prices == nil ? "no price" : "no limit" } ?? "no price")
        }
        func count(_ value: Int?) -> String { value.map(String.init) ?? "no limit" }
        var lines = [["PROVIDER", "REQUESTS", "INPUT TOKENS", "OUTPUT (EXPECTED)", "OUTPUT (AT MOST)", "COST (EXPECTED)", "COST (AT MOST)"]]
        for row in rows {
            lines.append([row.provider, String(row.requests), String(row.inputTokens), String(row.outputTokens), count(row.outputTokensAtMost),
                          money(row.cost, row), money(row.costAtMost, row)])
        }
        if rows.count > 1 {
            let priced = rows.allSatisfy { $0.prices != nil }
            let most = rows.allSatisfy { $0.costAtMost != nil }
            lines.append(["total", String(rows.map(\.requests).reduce(0, +)), String(rows.map(\.inputTokens).reduce(0, +)),
                          String(rows.map(\.outputTokens).reduce(0, +)),
                          rows.allSatisfy { $0.outputTokensAtMost != nil } ? String(rows.compactMap(\.outputTokensAtMost).reduce(0, +)) : "no limit",
                          priced ? money(rows.compactMap(\.cost).reduce(0, +)) : "partly priced",
                          most ? money(rows.compactMap(\.costAtMost).reduce(0, +)) : priced ? "no limit" : "partly priced"])
        }
        let widths = lines[0].indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        let body = lines.map { line in
            zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return body.joined(separator: "\n") + "\n\n" + "\(cases) cases; nothing was sent. Output tokens are the embedded mock's replies, "
            + "which keep to each pack's reply contract; a live model's may be longer, up to the max-tokens bound.\n" + prices.summary + "\n"
    }

    /// The counts, by provider id, that every request adds to.
    final class Tally: Sendable {
        let rows = Mutex<[String: Row]>([:])

        func add(_ provider: String, limit: Int?, usage: Usage) {
            rows.withLock { rows in
                var row = rows[provider] ?? Row(provider: provider)
                row.requests += 1
                row.inputTokens += usage.inputTokens
                row.outputTokens += usage.outputTokens
                row.outputTokensAtMost = row.outputTokensAtMost.flatMap { most in limit.map { most + $0 } }
                rows[provider] = row
            }
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// A provider that answers from the mock and counts the request against `id`.
    struct Counted: ChatProvider {
        let id: String
        let model: String
        /// The provider's own max-tokens, for a request that sets none, and its cap.
        let limit: Int?
        let cap: Int?
        let tally: Tally
        private let mock = MockProvider()

        init(id: String, model: String, limit: Int?, cap: Int?, tally: Tally) {
            (self.id, self.model, self.limit, self.cap, self.tally) = (id, model, limit, cap, tally)
        }

        var isComputeBound: Bool { true }

        func complete(_ request: ChatRequest) async throws -> ProviderReply {
            var reply = try await mock.complete(request)
            reply.usage = Usage.estimate(request, reply: reply.text)
            reply.provider = id
            let most = (request.settings.maxTokens ?? limit).map { most in cap.map { min(most, $0) } ?? most } ?? cap
            tally.add(id, limit: most, usage: reply.usage)
            return reply
        }

        func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        continuation.yield(.finished(try await complete(request)))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}
