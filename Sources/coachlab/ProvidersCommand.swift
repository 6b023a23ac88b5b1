import ArgumentParser
import CoachLabEval
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
        Terminal.out(Reporters.providers(registry), terminator: "")
        if let file = registry.file { Terminal.error("from \(file)") } else { Terminal.error("no providers.yaml; only mock and inline kind:model providers") }
    }
}
