import ArgumentParser
import CoachLabProviders
import Foundation

/// `coachlab providers`: what is configured, and whether each key is present (never the key).
struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List configured providers and whether each one's key is present.",
        discussion: "Reads ./providers.yaml (or --providers-file). Keys are read from environment variables only and never printed."
    )

    @Option(name: .customLong("providers-file"), help: "The providers configuration. Default: ./providers.yaml.")
    var providersFile: String?

    func run() throws {
        let options = try ProviderOptions.parse(providersFile.map { ["--providers-file", $0] } ?? [])
        let registry = try options.registry()
        let rows = [ProviderRegistry.mockConfiguration] + registry.configurations
        var table = [["ID", "KIND", "MODEL", "ENDPOINT", "CONCURRENCY", "PRICE IN/OUT", "KEY"]]
        for configuration in rows {
            let endpoint: String
            switch configuration.kind {
            case .fallback: endpoint = "→ " + configuration.chain.joined(separator: " → ")
            case .canned: endpoint = configuration.pack.map { "replies from \($0)" } ?? "\(configuration.replies.count) replies"
            case .mock: endpoint = "in-process"
            default: endpoint = configuration.baseURL ?? configuration.kind.defaultBaseURL ?? "-"
            }
            let price = configuration.prices.map { String(format: "$%.2f/$%.2f", $0.input, $0.output) } ?? "-"
            table.append([configuration.id, configuration.kind.rawValue, configuration.model.isEmpty ? "-" : configuration.model,
                          endpoint, String(configuration.concurrency), price, registry.keyStatus(configuration).description])
        }
        for line in Terminal.table(table) { Terminal.out(line) }
        if let file = registry.file { Terminal.error("from \(file)") } else { Terminal.error("no providers.yaml; only mock and inline kind:model providers") }
    }
}
