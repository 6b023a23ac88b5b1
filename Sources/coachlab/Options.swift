import ArgumentParser
import CoachLab
import CoachLabProviders
import Foundation

/// The compile inputs, shared by `compile` and `chat`.
struct CompileInputOptions: ParsableArguments {
    @Option(help: "A variant the pack declares; its inputs are used, and flags override them.")
    var variant: String?
    @Option(help: "Coach id.")
    var coach: String?
    @Option(help: "Topic slug.")
    var topic: String?
    @Option(help: "Intent id of the topic.")
    var intent: String?
    @Option(help: "Profile id in the pack, or a path to a profile file.")
    var profile: String?
    @Option(help: "Memory id in the pack, or a path to a memory file.")
    var memory: String?
    @Option(help: "Context id in the pack, or a path to a context file.")
    var context: String?
    @Option(help: "The local date and time, ISO 8601 (e.g. 2026-03-01T02:40:00-05:00).")
    var now: String?

    func validate() throws {
        if let now, LocalDateTime(parsing: now) == nil {
            throw ValidationError("--now '\(now)' is not an ISO 8601 date-time such as 2026-03-01T02:40:00-05:00")
        }
    }

    /// The inputs for `pack`: a declared variant's, overridden by flags.
    func inputs(for pack: Pack) throws -> CompileInputs {
        var inputs = CompileInputs()
        if let variant {
            guard let declared = pack.variants.first(where: { $0.id == variant }) else {
                throw CoachLabError(usage: "pack '\(pack.id)' declares no variant '\(variant)'",
                                    hint: "declared: " + pack.variants.map(\.id).joined(separator: ", "))
            }
            inputs = CompileInputs(declared)
        }
        inputs.coach = coach ?? inputs.coach
        inputs.topic = topic ?? inputs.topic
        inputs.intent = intent ?? inputs.intent
        inputs.profile = profile ?? inputs.profile
        inputs.memory = memory ?? inputs.memory
        inputs.context = context ?? inputs.context
        inputs.now = now.flatMap(LocalDateTime.init(parsing:)) ?? inputs.now
        return inputs
    }
}

/// How a command names providers, shared by `chat`, `providers` and (later) `eval`.
struct ProviderOptions: ParsableArguments {
    @Option(name: .customLong("provider"),
            help: "A provider id from providers.yaml, 'mock', or kind:model (openai:gpt-4o-mini, anthropic:…, gemini:…, openai-compatible:…, proxy:…).")
    var providers: [String] = []
    @Option(help: "The server for an inline provider, e.g. http://127.0.0.1:8088/v1.")
    var baseURL: String?
    @Option(help: "The environment variable holding the key for an inline provider.")
    var apiKeyEnv: String?
    @Option(name: .customLong("providers-file"), help: "The providers configuration. Default: ./providers.yaml when present.")
    var providersFile: String?

    /// The registry: the named file, ./providers.yaml when present, or none.
    func registry() throws -> ProviderRegistry {
        if let providersFile { return try ProviderRegistry.load(providersFile) }
        if FileManager.default.fileExists(atPath: "providers.yaml") { return try ProviderRegistry.load("providers.yaml") }
        return ProviderRegistry()
    }

    /// The configurations the flags name (mock when none is named).
    func configurations(in registry: ProviderRegistry) throws -> [ProviderConfiguration] {
        try (providers.isEmpty ? ["mock"] : providers).map {
            try registry.configuration(for: $0, baseURL: baseURL, apiKeyVariable: apiKeyEnv)
        }
    }
}
