import ArgumentParser
import CoachLab
import CoachLabEval
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
    @Option(help: "Maximum output tokens for every provider, over providers.yaml (a base model otherwise rambles to its context limit).")
    var maxTokens: Int?
    @Option(help: "Sampling temperature for every provider, over providers.yaml.")
    var temperature: Double?
    @Option(help: "Seconds each request may take, over providers.yaml (default 60).")
    var timeout: Double?
    @Option(help: "How many times a request that timed out is retried (default 1; 0 for never).")
    var timeoutRetries: Int?

    func validate() throws {
        if let maxTokens, maxTokens < 1 { throw ValidationError("--max-tokens must be at least 1") }
        if let temperature, !(0...2).contains(temperature) { throw ValidationError("--temperature takes 0 to 2") }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout takes a number of seconds above 0") }
        if let timeoutRetries, timeoutRetries < 0 { throw ValidationError("--timeout-retries cannot be negative") }
        // Named twice, a provider ran every case twice under the same case ids.
        if let twice = providers.enumerated().first(where: { providers[..<$0.offset].contains($0.element) })?.element {
            throw ValidationError("--provider names '\(twice)' more than once")
        }
    }

    /// The command-line settings every provider of the run gets.
    var overrides: ProviderOverrides {
        ProviderOverrides(maxTokens: maxTokens, temperature: temperature, timeout: timeout, timeoutRetries: timeoutRetries)
    }

    /// The registry: the named file, ./providers.yaml when present, or none; with the
    /// command line's settings over every provider.
    func registry() throws -> ProviderRegistry {
        var registry: ProviderRegistry
        if let providersFile {
            registry = try ProviderRegistry.load(providersFile, system: Invocation.current.system)
        } else if FileSystem.invocation.exists("providers.yaml") {
            registry = try ProviderRegistry.load("providers.yaml", system: Invocation.current.system)
        } else {
            registry = ProviderRegistry(system: Invocation.current.system)
        }
        registry.overrides = overrides
        return registry
    }

    /// An eval request for `suites` on the providers and settings the flags name.
    func request(suites: [String], repeats: Int?, concurrency: Int?, filter: String?) -> EvalRequest {
        var request = EvalRequest()
        request.suites = suites
        request.providers = providers
        request.repeats = repeats
        request.concurrency = concurrency
        request.baseURL = baseURL
        request.apiKeyVariable = apiKeyEnv
        request.settings = overrides
        request.filter = filter
        return request
    }

    /// The configurations the flags name (mock when none is named).
    func configurations(in registry: ProviderRegistry) throws -> [ProviderConfiguration] {
        try (providers.isEmpty ? ["mock"] : providers).map {
            try registry.configuration(for: $0, baseURL: baseURL, apiKeyVariable: apiKeyEnv)
        }
    }
}

/// Where the response cache lives and how long its answers stay fresh, shared by the
/// commands that use it and by `coachlab cache`.
struct CacheLocation: ParsableArguments {
    @Option(help: "The response cache's folder. Default: $COACHLAB_CACHE, or .coachlab/cache.")
    var cacheDir: String?
    @Option(help: "How long a cached answer stays fresh: 90s, 30m, 12h or 7d (the default).")
    var cacheTtl: String?

    func validate() throws {
        if let cacheTtl, ResponseCache.duration(cacheTtl) == nil {
            throw ValidationError("--cache-ttl takes a duration such as 90s, 30m, 12h or 7d; got '\(cacheTtl)'")
        }
    }

    var cache: ResponseCache {
        ResponseCache(directory: Terminal.cachePath(cacheDir),
                      timeToLive: cacheTtl.flatMap(ResponseCache.duration) ?? ResponseCache.defaultTimeToLive, system: Invocation.current.system)
    }
}

/// The response cache's flags, shared by `eval`, `compare`, `guard` and `judge calibrate`.
struct CacheOptions: ParsableArguments {
    @Flag(help: "Ask live providers again instead of reading answers from the response cache.")
    var noCache = false
    @OptionGroup var location: CacheLocation

    /// The cache, or nil with --no-cache.
    func cache() -> ResponseCache? { noCache ? nil : location.cache }
}
