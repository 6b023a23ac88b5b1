import ArgumentParser
import CoachLabMockServer
import Foundation

/// `coachlab serve-mock`: the mock coach behind every provider's wire protocol.
struct ServeMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve-mock",
        abstract: "Serve the mock coach over the OpenAI, Anthropic, Gemini and proxy protocols.",
        usage: "coachlab serve-mock [--port <port>] [options]",
        discussion: """
        Point an app or an official SDK at it by changing only the base URL:
          OpenAI / compatible  http://127.0.0.1:PORT/v1      (POST /v1/chat/completions, /v1/embeddings)
          Anthropic            http://127.0.0.1:PORT         (POST /v1/messages)
          Gemini               http://127.0.0.1:PORT         (POST /v1beta/models/{model}:generateContent, :streamGenerateContent)
          TicBuddy proxy       http://127.0.0.1:PORT         (POST /api/chat)
          An app backend       http://127.0.0.1:PORT/app/PACK/api/v1/chat, with --app (an http target's server; see docs/providers.md)
        Batch APIs (for eval --batch): OpenAI's /v1/files and /v1/batches, Anthropic's /v1/messages/batches, \
        Gemini's :batchGenerateContent and /v1beta/batches/{id}; a batch ends --batch-seconds after it is \
        submitted, completed (or expired with half its requests answered, --batch-expire), and \
        --batch-fail-every N fails every Nth request of a batch.
        Replies are the mock coach's (deterministic; see docs/providers.md); streaming follows each protocol.

        Faults: --fault KIND[:TIMES] (repeatable, applied in order) or the request header \
        'x-coachlab-fault: KIND'. Kinds: 429, 500, 529, 401, quota, context, cut, malformed, slow, stream-error. \
        The header 'x-coachlab-mock-reply: TEXT' scripts the reply.
        """
    )

    @Option(help: "The port; 0 picks a free one.")
    var port = 8080
    @Option(help: "The address to bind.")
    var host = "127.0.0.1"
    @Option(help: "Milliseconds from a request's arrival to its response; the server's own work happens within them.")
    var latencyMs = 0
    @Option(help: "Milliseconds between stream events.")
    var chunkDelayMs = 0
    @Option(help: "Milliseconds a 'slow' fault waits before the first byte.")
    var slowMs = 2000
    @Option(help: "Milliseconds a 429 asks clients to wait (retry-after-ms).")
    var retryAfterMs = 100
    @Option(help: "A fault to inject: KIND or KIND:TIMES (then normal answers).")
    var fault: [String] = []
    @Option(help: ArgumentHelp("Also imitate an app's own backend for this pack folder, at /app/PACK-ID/api/v1/chat: it builds the prompt on the server from the session data it is sent (repeatable).",
                               valueName: "pack"))
    var app: [String] = []
    @Option(help: ArgumentHelp("The environment variable whose value the app backends require as a bearer token.", valueName: "variable"))
    var appTokenEnv: String?
    @Option(help: "Admit this many requests per second (a one-second burst, then the rate); answer the rest 429 with retry-after-ms and rate-limit headers.")
    var rps: Double?
    @Option(help: "Admit this many prompt and output tokens a minute (each request draws its prompt and max_tokens); answer the rest 429 with retry-after-ms and token rate-limit headers.")
    var tpm: Double?
    @Option(help: "Seconds from a batch's submission until it ends.")
    var batchSeconds: Double = 2
    @Option(help: "Fail every Nth request of each batch (partial failure).")
    var batchFailEvery: Int?
    @Flag(help: "End every batch expired, with only its first half answered.")
    var batchExpire = false

    func validate() throws {
        for text in fault where MockFaultRule(parsing: text) == nil {
            throw ValidationError("unknown fault '\(text)'; kinds: " + MockFault.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0-65535") }
        if let rps, !(rps > 0) { throw ValidationError("--rps takes a rate above 0, e.g. 50 or 0.5") }
        if let tpm, !(tpm >= 1) { throw ValidationError("--tpm takes a number of tokens a minute, e.g. 40000") }
        if !(batchSeconds >= 0) { throw ValidationError("--batch-seconds takes seconds, 0 or more") }
        if let batchFailEvery, batchFailEvery < 1 { throw ValidationError("--batch-fail-every takes a count of 1 or more") }
    }

    func run() async throws {
        let token = try appToken()
        let apps = try app.map { try MockApp(folder: $0, token: token, fileSystem: Invocation.current.fileSystem) }
        let host = self.host
        let tokenNote = token == nil ? "" : " (bearer token from $\(appTokenEnv ?? ""))"
        try await MockServer(configuration: configuration(apps: apps)).run { port in
            Terminal.error("serve-mock listening on http://\(host):\(port) (OpenAI-compatible base URL: http://\(host):\(port)/v1)")
            for app in apps {
                Terminal.error("app '\(app.id)' at http://\(host):\(port)\(MockApp.path(app.id))" + tokenNote)
            }
        }
    }

    /// The bearer token `--app-token-env` names, which must be set; nil without the option.
    private func appToken() throws -> String? {
        guard let appTokenEnv else { return nil }
        guard let value = Invocation.current.variables[appTokenEnv], !value.isEmpty else {
            throw ValidationError("--app-token-env names \(appTokenEnv), which is not set")
        }
        return value
    }

    /// The server the options describe, serving `apps`.
    private func configuration(apps: [MockApp]) -> MockServerConfiguration {
        var configuration = MockServerConfiguration(host: host, port: port, latency: Double(latencyMs) / 1000,
                                                    chunkDelay: Double(chunkDelayMs) / 1000, slowDelay: Double(slowMs) / 1000,
                                                    retryAfterMilliseconds: retryAfterMs,
                                                    faults: fault.compactMap(MockFaultRule.init(parsing:)), requestsPerSecond: rps,
                                                    clock: Invocation.current.now)
        configuration.apps = apps
        configuration.tokensPerMinute = tpm
        configuration.batches = MockBatchSettings(seconds: batchSeconds, failEvery: batchFailEvery, expire: batchExpire)
        return configuration
    }
}
