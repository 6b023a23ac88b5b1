import CoachLab
import CoachLabProviders
import Foundation

/// The prices a run's costs were computed with: US dollars per million tokens, by provider,
/// from the editable `prices:` of `providers.yaml`. Kept with the run, so every report can
/// say which prices it used even after the file changes.
public struct PriceSheet: Sendable, Codable, Hashable {
    /// The providers file the prices came from, if any.
    public var file: String?
    /// Prices by provider id.
    public var providers: [String: ProviderConfiguration.Prices]
    /// Providers in the run with no price (their costs are not reported).
    public var unpriced: [String]

    public init(file: String?, providers: [String: ProviderConfiguration.Prices], unpriced: [String]) {
        self.file = file
        self.providers = providers
        self.unpriced = unpriced.sorted()
    }

    /// The prices of `ids` in `registry`; a fallback chain's links are listed under their own ids.
    public init(registry: ProviderRegistry, ids: [String]) {
        var prices: [String: ProviderConfiguration.Prices] = [:]
        var unpriced: [String] = []
        var pending = ids
        var seen = Set<String>()
        while let id = pending.popLast() {
            guard seen.insert(id).inserted, let configuration = try? registry.configuration(for: id) else { continue }
            if configuration.kind == .fallback {
                pending += configuration.chain
            } else if let price = configuration.prices {
                prices[id] = price
            } else {
                unpriced.append(id)
            }
        }
        self.init(file: registry.file, providers: prices, unpriced: unpriced)
    }

    init?(json: String) {
        guard let sheet = try? JSONDecoder().decode(PriceSheet.self, from: Data(json.utf8)) else { return nil }
        self = sheet
    }

    /// The sheet as `JSONEncoder.sorted()` encodes it, written directly as the run's other
    /// JSON columns are: through the encoder it cost a cold start 0.4% of its CPU.
    var json: String {
        var object: [String: JSONValue] = [
            "providers": .object(providers.mapValues { .object(["input": .number($0.input), "output": .number($0.output)]) }),
            "unpriced": .array(unpriced.map(JSONValue.string)),
        ]
        if let file { object["file"] = .string(file) }
        return JSONValue.object(object).text
    }

    /// One line for people: "prices (USD per 1M tokens in/out) from providers.yaml: a 0.15/0.60; no price: mock".
    public var summary: String {
        var parts = providers.keys.sorted().map { id in
            String(format: "%@ %.2f/%.2f", id, providers[id]!.input, providers[id]!.output)
        }
        if parts.isEmpty { parts = ["none"] }
        var out = "prices (USD per 1M tokens, in/out) from \(file ?? "no providers file"): " + parts.joined(separator: ", ")
        if !unpriced.isEmpty { out += "; no price: " + unpriced.joined(separator: ", ") }
        return out
    }
}
