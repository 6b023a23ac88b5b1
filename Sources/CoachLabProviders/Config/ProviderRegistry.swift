import CoachLab
import Foundation

/// The configured providers, and how `--provider` names them: an id from `providers.yaml`,
/// `mock`, or `kind:model` inline (with `--base-url` and `--api-key-env`). Keys come from the
/// environment only.
public struct ProviderRegistry: Sendable {
    /// The configured providers, in file order.
    public private(set) var configurations: [ProviderConfiguration]
    /// Where they came from, if a file.
    public var file: String?
    /// Settings applied to every configuration this registry hands out, fallback links included.
    public var overrides = ProviderOverrides()
    /// How many requests each HTTP provider is sent at once, adapted to the rate limits it meets;
    /// shared by every provider this registry (and its copies) makes.
    public let limits = AdaptiveLimits()
    /// Where keys, packs, requests, waits and jitter come from.
    public let system: SystemEnvironment

    /// The built-in mock, always available as `mock`.
    public static let mockConfiguration = ProviderConfiguration(id: "mock", kind: .mock, model: MockProvider.modelName,
                                                                concurrency: 64)

    /// Creates a registry from configurations, with the environment its providers will use.
    public init(configurations: [ProviderConfiguration] = [], file: String? = nil, system: SystemEnvironment) {
        self.configurations = configurations
        self.file = file
        self.system = system
    }

    /// Loads `providers.yaml` through the environment's file system.
    /// - Throws: ``CoachLabError`` with located diagnostics for invalid content.
    public static func load(_ path: String, system: SystemEnvironment) throws -> ProviderRegistry {
        let data: Data
        do { data = try system.fileSystem.read(path) } catch {
            throw CoachLabError(.io, "cannot read providers file: \(error.localizedDescription)",
                                at: SourceLocation(file: path, line: 1, column: 1))
        }
        let root = try YAMLDocument.parse(data, file: path)
        var diagnostics = ContentValidator.validate(root, spec: ProviderConfiguration.fileSpec)
        var configurations: [ProviderConfiguration] = []
        var seen: [String: SourceLocation] = [:]
        for item in root["providers"]?.items ?? [] {
            guard let id = item["id"]?.text, let kind = item["kind"]?.text.flatMap(ProviderKind.init(rawValue:)) else { continue }
            if let first = seen[id] {
                diagnostics.append(.error("duplicate provider id '\(id)' (first at \(first))", at: item["id"]!.location))
            }
            seen[id] = item["id"]!.location
            var configuration = ProviderConfiguration(id: id, kind: kind, model: item["model"]?.text ?? "", location: item.location)
            configuration.baseURL = item["baseURL"]?.text
            configuration.apiKeyVariable = item["apiKeyEnv"]?.text
            configuration.temperature = item["temperature"]?.text.flatMap(Double.init)
            configuration.maxTokens = item["maxTokens"]?.text.flatMap { Int($0) }
            configuration.timeout = item["timeoutSeconds"]?.text.flatMap(Double.init) ?? 60
            configuration.concurrency = max(1, item["concurrency"]?.text.flatMap { Int($0) } ?? 4)
            configuration.maxRetries = max(0, item["maxRetries"]?.text.flatMap { Int($0) } ?? 3)
            configuration.timeoutRetries = max(0, item["timeoutRetries"]?.text.flatMap { Int($0) } ?? 1)
            configuration.rateLimitRetries = max(0, item["rateLimitRetries"]?.text.flatMap { Int($0) } ?? 8)
            if let limit = item["maxResponseBytes"]?.text.flatMap({ Int($0) }) { configuration.maxResponseBytes = max(1024, limit) }
            if let input = item["prices"]?["input"]?.text.flatMap(Double.init),
               let output = item["prices"]?["output"]?.text.flatMap(Double.init) {
                configuration.prices = .init(input: input, output: output)
            }
            configuration.chain = (item["chain"]?.items ?? []).compactMap(\.text)
            configuration.replies = (item["replies"]?.items ?? []).compactMap(\.text)
            configuration.pack = item["pack"]?.text
            configuration.systemAsUser = item["systemRole"]?.text == "user"
            configuration.structuredOutput = item["structuredOutput"]?.text.flatMap { Bool($0.lowercased()) }
            configuration.latency = Double(item["latencyMs"]?.text.flatMap { Int($0) } ?? 0) / 1000
            configuration.embeddingModel = item["embeddingModel"]?.text
            if kind == .http {
                let (target, problems) = HTTPTarget.parse(item, id: id)
                configuration.target = target
                if configuration.model.isEmpty { configuration.model = "app" }
                diagnostics += problems
            }
            diagnostics += problems(configuration, item: item)
            configurations.append(configuration)
        }
        let ids = Set((root["providers"]?.items ?? []).compactMap { $0["id"]?.text })
        for configuration in configurations where configuration.kind == .fallback {
            for (index, link) in configuration.chain.enumerated() where !ids.contains(link) && link != "mock" {
                let location = root["providers"]?.items?.first { $0["id"]?.text == configuration.id }?["chain"]?.items?[index].location
                diagnostics.append(.error("fallback '\(configuration.id)' names provider '\(link)', which is not configured",
                                          at: location ?? SourceLocation(file: path, line: 1, column: 1),
                                          hint: ContentValidator.suggestion(for: link, in: Array(ids), noun: "provider")))
            }
        }
        for text in root.texts where SecretDetector.kind(of: text.value) != nil {
            diagnostics.append(.error("this looks like an API key committed in YAML", at: text.location,
                                      hint: "put the key in an environment variable and name it with apiKeyEnv"))
        }
        if diagnostics.contains(where: { $0.severity == .error }) { throw CoachLabError(.content, diagnostics.sorted()) }
        return ProviderRegistry(configurations: configurations, file: path, system: system)
    }

    private static func problems(_ configuration: ProviderConfiguration, item: YAMLValue) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        let location = item.location
        if configuration.kind.isRemote, configuration.model.isEmpty {
            problems.append(.error("provider '\(configuration.id)' needs a model", at: location))
        }
        if [.openaiCompatible, .proxy].contains(configuration.kind), configuration.baseURL == nil {
            problems.append(.error("provider '\(configuration.id)' of kind \(configuration.kind.rawValue) needs a baseURL", at: location))
        }
        if configuration.kind == .fallback, configuration.chain.isEmpty {
            problems.append(.error("fallback '\(configuration.id)' needs a chain of provider ids", at: location))
        }
        if configuration.kind == .canned, configuration.replies.isEmpty, configuration.pack == nil {
            problems.append(.error("canned provider '\(configuration.id)' needs replies", at: location))
        }
        // Values no request could honour. Several were clamped where they were read (a
        // concurrency of 0 ran as 1), which the author did not write.
        func number(_ key: String) -> (value: Double, at: SourceLocation)? {
            guard let node = item[key], let value = node.text.flatMap(Double.init) else { return nil }
            return (value, node.location)
        }
        let floors: [(key: String, least: Double, above: Bool)] = [
            ("concurrency", 1, false), ("maxTokens", 1, false), ("maxRetries", 0, false), ("timeoutRetries", 0, false), ("rateLimitRetries", 0, false),
            ("maxResponseBytes", 1024, false), ("latencyMs", 0, false), ("timeoutSeconds", 0, true),
        ]
        for floor in floors {
            guard let (value, at) = number(floor.key), floor.above ? value <= floor.least : value < floor.least else { continue }
            problems.append(.error("\(floor.key) must be \(floor.above ? "above" : "at least") \(String(format: "%g", floor.least)), not \(String(format: "%g", value))",
                                   at: at))
        }
        if let (value, at) = number("temperature"), !(0...2).contains(value) {
            problems.append(.error("temperature must be from 0 to 2, not \(String(format: "%g", value))", at: at,
                                   hint: "providers sample between 0 (most deterministic) and 1 or 2"))
        }
        for key in ["input", "output"] {
            if let node = item["prices"]?[key], let value = node.text.flatMap(Double.init), value < 0 {
                problems.append(.error("a price is never below zero, and \(key) is \(String(format: "%g", value))", at: node.location))
            }
        }
        if let node = item["baseURL"], let url = node.text, !hasHTTPScheme(url) {
            problems.append(.error("baseURL '\(url)' does not start with http:// or https://", at: node.location,
                                   hint: "for example http://127.0.0.1:8080/v1"))
        }
        return problems
    }

    /// Whether `url` starts with http:// or https://, as a provider's address must.
    private static func hasHTTPScheme(_ url: String) -> Bool {
        let lower = url.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The configuration `--provider` names.
    /// - Parameters:
    ///   - spec: An id, `mock`, or `kind:model`.
    ///   - baseURL: `--base-url`, for an inline spec.
    ///   - apiKeyVariable: `--api-key-env`, for an inline spec.
    /// - Throws: ``CoachLabError`` (usage) for an unknown id or kind.
    public func configuration(for spec: String, baseURL: String? = nil, apiKeyVariable: String? = nil) throws -> ProviderConfiguration {
        // Without its scheme the address fails every request only once the run reaches it.
        if let baseURL, !Self.hasHTTPScheme(baseURL) {
            throw CoachLabError(usage: "--base-url '\(baseURL)' does not start with http:// or https://", hint: "for example http://127.0.0.1:8080/v1")
        }
        return try configured(spec, baseURL: baseURL, apiKeyVariable: apiKeyVariable).applying(overrides)
    }

    private func configured(_ spec: String, baseURL: String?, apiKeyVariable: String?) throws -> ProviderConfiguration {
        if var configuration = configurations.first(where: { $0.id == spec }) {
            if let baseURL { configuration.baseURL = baseURL }
            if let apiKeyVariable { configuration.apiKeyVariable = apiKeyVariable }
            return configuration
        }
        if spec == "mock" { return Self.mockConfiguration }
        guard let colon = spec.firstIndex(of: ":") else {
            let known = configurations.map(\.id) + ["mock"]
            throw CoachLabError(usage: "no provider '\(spec)'",
                                hint: ContentValidator.suggestion(for: spec, in: known, noun: "provider") + "; or name one inline as kind:model, such as openai:gpt-4o-mini")
        }
        let kindName = String(spec[..<colon])
        let model = String(spec[spec.index(after: colon)...])
        guard let kind = ProviderKind(rawValue: kindName) else {
            throw CoachLabError(usage: "unknown provider kind '\(kindName)'",
                                hint: "kinds: " + ProviderKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard !model.isEmpty || !kind.isRemote else { throw CoachLabError(usage: "'\(spec)' names no model") }
        if [.openaiCompatible, .proxy].contains(kind), baseURL == nil {
            throw CoachLabError(usage: "'\(spec)' needs --base-url", hint: "for example --base-url http://127.0.0.1:8088/v1")
        }
        if [.fallback, .canned, .http].contains(kind) {
            throw CoachLabError(usage: "\(kind.rawValue) providers are configured in providers.yaml, not inline")
        }
        return ProviderConfiguration(id: spec, kind: kind, model: kind == .mock && model.isEmpty ? MockProvider.modelName : model,
                                     baseURL: baseURL, apiKeyVariable: apiKeyVariable, concurrency: kind == .mock ? 64 : 4)
    }

    /// A line for each remote provider among `ids` (each link of a fallback, under its name)
    /// with its timeout, retries, token limit and temperature: what a live run prints first,
    /// so a slow run can be understood before it is waited out. Local kinds get no line.
    public func settingsLines(_ ids: [String], baseURL: String?, apiKeyVariable: String?) -> [String] {
        ids.flatMap { id -> [String] in
            guard let configuration = try? configuration(for: id, baseURL: baseURL, apiKeyVariable: apiKeyVariable) else { return [] }
            if configuration.kind == .fallback {
                return settingsLines(configuration.chain, baseURL: nil, apiKeyVariable: nil).map { "\(id) → \($0)" }
            }
            guard configuration.kind.isRemote else { return [] }
            var parts = [String(format: "timeout %g s", configuration.timeout), configuration.retryPolicy.summary]
            if let maxTokens = configuration.maxTokens { parts.append("max tokens \(maxTokens)") }
            if let temperature = configuration.temperature { parts.append(String(format: "temperature %g", temperature)) }
            return ["\(id): " + parts.joined(separator: "; ")]
        }
    }

    /// Whether the key a configuration needs is present (never the key itself). A fallback
    /// chain needs its links' keys: it is usable while one link is.
    public func keyStatus(_ configuration: ProviderConfiguration, depth: Int = 0) -> KeyStatus {
        if configuration.kind == .http {
            let missing = (configuration.target?.variables ?? []).filter { system.variables[$0]?.isEmpty != false }
            guard let first = missing.first else {
                return configuration.target?.variables.first.map { .present($0) } ?? .notNeeded
            }
            return .missing(first)
        }
        if configuration.kind == .fallback, depth < 4 {
            let links = configuration.chain.compactMap { try? self.configuration(for: $0) }.map { keyStatus($0, depth: depth + 1) }
            let missing = links.flatMap(\.missingVariables)
            guard !missing.isEmpty else { return links.contains { if case .present = $0 { true } else { false } } ? .linksReady : .notNeeded }
            return .links(missing: missing, usable: links.filter(\.missingVariables.isEmpty).count, of: links.count)
        }
        guard let variable = configuration.keyVariable else { return .notNeeded }
        return (system.variables[variable]?.isEmpty == false) ? .present(variable) : .missing(variable)
    }

    /// Whether a key is present.
    public enum KeyStatus: Sendable, Hashable, CustomStringConvertible {
        case notNeeded
        case present(String)
        case missing(String)
        /// A fallback chain whose links have every key they need.
        case linksReady
        /// A fallback chain some of whose links lack a key.
        case links(missing: [String], usable: Int, of: Int)

        /// The variables that must be set before it (or every link of it) can be used.
        var missingVariables: [String] {
            switch self {
            case .missing(let variable): [variable]
            case .links(let missing, let usable, _): usable == 0 ? missing : []
            case .notNeeded, .present, .linksReady: []
            }
        }

        public var description: String {
            switch self {
            case .notNeeded: "no key needed"
            case .present(let variable): "key present ($\(variable))"
            case .missing(let variable): "key missing: set $\(variable)"
            case .linksReady: "every link's key is present"
            case .links(let missing, let usable, let count):
                usable == 0 ? "no link usable: set " + missing.map { "$\($0)" }.joined(separator: " or ")
                    : "\(usable) of \(count) links usable; missing " + missing.map { "$\($0)" }.joined(separator: ", ")
            }
        }
    }

    /// Builds the provider a configuration describes.
    /// - Parameters:
    ///   - transport: The HTTP transport, when not the environment's (a cassette).
    ///   - retry: Overrides the configured retry policy (tests shorten delays).
    ///   - sleep: How to wait between retries, when not the environment's.
    ///   - cache: Where HTTP providers keep and find answers already paid for.
    /// - Throws: ``ProviderError`` (`configuration`) for a missing key or an unusable chain.
    public func provider(_ configuration: ProviderConfiguration, transport: (any HTTPTransport)? = nil,
                         retry: RetryPolicy? = nil, sleep: (@Sendable (Double) async throws -> Void)? = nil,
                         cache: ResponseCache? = nil, depth: Int = 0) throws -> any ChatProvider {
        var system = self.system
        if let transport { system.transport = transport }
        if let sleep { system.sleep = sleep }
        switch configuration.kind {
        case .mock:
            return MockProvider(id: configuration.id, model: configuration.model.isEmpty ? MockProvider.modelName : configuration.model,
                                latency: configuration.latency)
        case .canned:
            var replies = configuration.replies
            if replies.isEmpty, let pack = configuration.pack {
                do { replies = try PackLoader(fileSystem: system.fileSystem).load(pack).get().defaults.cannedReplies } catch {
                    throw ProviderError(.configuration, provider: configuration.id, message: "cannot load pack '\(pack)': \(error)")
                }
            }
            return try CannedProvider(id: configuration.id, replies: replies)
        case .fallback:
            guard depth < 4 else {
                throw ProviderError(.configuration, provider: configuration.id, message: "fallback chains nest too deeply (a cycle?)")
            }
            // A link that cannot be built (a missing key) is a link that fails: the chain moves on,
            // as an app falls back when its first provider is unavailable.
            let links: [any ChatProvider] = try configuration.chain.map { id in
                let link = try self.configuration(for: id)
                do {
                    return try provider(link, transport: transport, retry: retry, sleep: sleep, cache: cache, depth: depth + 1)
                } catch let error as ProviderError where error.code == .configuration && link.kind != .fallback {
                    return UnavailableProvider(id: link.id, model: link.model, error: error)
                }
            }
            return try FallbackProvider(id: configuration.id, links: links)
        case .http:
            guard let target = configuration.target else {
                throw ProviderError(.configuration, provider: configuration.id, message: "no url and reply configured")
            }
            // Replaying cassettes sends nothing, so it needs no header values.
            let replaying = (system.transport as? CassetteTransport)?.mode == .replay
            var values: [String: String] = [:]
            for variable in target.variables {
                guard let value = system.variables[variable], !value.isEmpty else {
                    if replaying { continue }
                    throw ProviderError(.configuration, provider: configuration.id,
                                        message: "the environment variable \(variable) is not set; export it (its headers send it)")
                }
                values[variable] = value
            }
            let wire = try HTTPTargetWire(target: target, variables: values, provider: configuration.id)
            let defaults = GenerationSettings(model: configuration.model, temperature: configuration.temperature,
                                              maxTokens: configuration.maxTokens, timeout: configuration.timeout)
            var provider = HTTPProvider(id: configuration.id, wire: wire, baseURL: target.url, apiKey: nil, defaults: defaults,
                                        system: system, retry: retry ?? configuration.retryPolicy,
                                        redactor: SecretRedactor.environment(system.variables, adding: Array(values.values)),
                                        maximumResponseBytes: configuration.maxResponseBytes)
            provider.cache = cache
            provider.maxTokensCap = configuration.maxTokensCap
            provider.limit = limits.limit(for: configuration.id, ceiling: configuration.concurrency)
            return provider
        case .openai, .openaiCompatible, .anthropic, .gemini, .proxy:
            guard let wire = configuration.kind.wire(systemAsUser: configuration.systemAsUser),
                  let baseURL = configuration.baseURL ?? configuration.kind.defaultBaseURL else {
                throw ProviderError(.configuration, provider: configuration.id, message: "no base URL configured")
            }
            var key: String?
            if let variable = configuration.keyVariable {
                key = system.variables[variable].flatMap { $0.isEmpty ? nil : $0 }
                // Replaying cassettes sends nothing, so it needs no key: that is how CI runs
                // live-provider suites without secrets.
                let replaying = (system.transport as? CassetteTransport)?.mode == .replay
                if key == nil, !replaying, configuration.apiKeyVariable != nil || configuration.kind.defaultKeyVariable != nil,
                   configuration.kind != .openaiCompatible || configuration.apiKeyVariable != nil {
                    throw ProviderError(.configuration, provider: configuration.id,
                                        message: "the environment variable \(variable) is not set; export it with the API key")
                }
            }
            let defaults = GenerationSettings(model: configuration.model, temperature: configuration.temperature,
                                              maxTokens: configuration.maxTokens, timeout: configuration.timeout)
            let policy = retry ?? configuration.retryPolicy
            var provider = HTTPProvider(id: configuration.id, wire: wire, baseURL: baseURL, apiKey: key, defaults: defaults,
                                        system: system, retry: policy,
                                        redactor: SecretRedactor.environment(system.variables, adding: [key]),
                                        maximumResponseBytes: configuration.maxResponseBytes)
            provider.cache = cache
            provider.maxTokensCap = configuration.maxTokensCap
            provider.limit = limits.limit(for: configuration.id, ceiling: configuration.concurrency)
            provider.embeddingModel = configuration.embeddingModel
            return provider
        }
    }
}

/// A provider that cannot be used (its key is missing): every call fails with the reason.
struct UnavailableProvider: ChatProvider {
    let id: String
    let model: String
    let error: ProviderError

    func complete(_ request: ChatRequest) async throws -> ProviderReply { throw error }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { $0.finish(throwing: error) }
    }
}
