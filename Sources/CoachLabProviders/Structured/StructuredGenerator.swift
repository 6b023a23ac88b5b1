import CoachLab
import Foundation

/// Runs a ``StructuredTask`` on any provider and checks what comes back.
///
/// Providers whose API takes a JSON Schema get it (OpenAI `response_format`, Gemini
/// `responseJsonSchema`); the others get the task's strict-JSON instructions alone. Either
/// way the reply is parsed (with the repairs ``StructuredReply`` names) and validated. A
/// reply that cannot be used is sent back once with its field-level problems and a request
/// for the corrected object; if the second reply is no better, the outcome carries both
/// attempts and every problem, and the caller reports them.
public struct StructuredGenerator: Sendable {
    /// The provider.
    public var provider: any ChatProvider
    /// Whether to send the schema.
    public var sendsSchema: Bool
    /// Sampling temperature; the provider's default when nil.
    public var temperature: Double?
    /// Output token limit; structured replies are longer than chat turns.
    public var maxTokens: Int
    /// A reply the mock must give (tests and fixtures); other providers ignore it.
    public var scriptedReply: String?
    /// How many corrections to ask for after a reply that cannot be used.
    public var retries: Int

    public init(provider: any ChatProvider, sendsSchema: Bool, temperature: Double? = nil, maxTokens: Int = 2048,
                scriptedReply: String? = nil, retries: Int = 1) {
        self.provider = provider
        self.sendsSchema = sendsSchema
        self.temperature = temperature
        self.maxTokens = maxTokens
        self.scriptedReply = scriptedReply
        self.retries = retries
    }

    /// Generates, validates and, once, asks for a correction.
    /// - Throws: ``ProviderError`` when the provider fails (after its own retries);
    ///   `CancellationError` when cancelled. An unusable reply is not thrown: it is the
    ///   outcome's ``StructuredOutcome/problems``.
    public func generate(_ task: StructuredTask) async throws -> StructuredOutcome {
        var settings = GenerationSettings(model: "", temperature: temperature, maxTokens: maxTokens)
        if sendsSchema { settings.responseSchema = task.schema }
        var messages = [ChatMessage(.user, task.message)]
        var attempts: [StructuredOutcome.Attempt] = []
        for round in 0...max(0, retries) {
            let request = ChatRequest(system: task.system, messages: messages, settings: settings)
            // Its own cue, or none: a generation never answers from a conversation's.
            let reply = try await MockCue.$current.withValue(scriptedReply.map { MockCue(scriptedReply: $0) }) {
                try await provider.complete(request)
            }
            var parsed = StructuredReply(reply.text, task: task)
            if reply.finishReason == .length {
                // The provider may have capped the request below what was asked (--max-tokens):
                // name what the reply actually got.
                let limit = reply.usage.estimated || reply.usage.outputTokens >= maxTokens ? maxTokens : reply.usage.outputTokens
                parsed.problems.insert("$: the reply was cut off at the \(limit)-token limit", at: 0)
            }
            attempts.append(.init(reply: reply, parsed: parsed))
            if parsed.problems.isEmpty || round == retries { break }
            messages += [ChatMessage(.assistant, Self.echoed(reply.text)), ChatMessage(.user, Self.correction(parsed.problems))]
        }
        return StructuredOutcome(task: task.kind, sentSchema: sendsSchema, attempts: attempts)
    }

    /// The most characters of an unusable reply sent back with the request for a correction:
    /// a runaway reply (a judge that answers 10 MB) would otherwise be paid for again as input,
    /// or overflow the context window.
    public static let echoLimit = 8_000

    /// The unusable reply as the correction round shows it to the model: whole when short, else
    /// its beginning and a note of how long it ran.
    static func echoed(_ text: String) -> String {
        guard text.count > echoLimit else { return text }
        return String(text.prefix(echoLimit)) + "\n… [cut here: the reply ran to \(text.count) characters]"
    }

    /// The message asking for a corrected reply; each problem at most 300 characters.
    public static func correction(_ problems: [String]) -> String {
        "That reply cannot be used:\n" + problems.prefix(20).map { "- \($0.count > 300 ? $0.prefix(299) + "…" : Substring($0))" }.joined(separator: "\n")
            + "\nReply again with the corrected JSON object only: no other text, no code fence."
    }
}

/// What a structured generation produced.
public struct StructuredOutcome: Sendable {
    /// One request and its reply.
    public struct Attempt: Sendable {
        /// The provider's reply.
        public var reply: ProviderReply
        /// The reply, parsed and validated.
        public var parsed: StructuredReply
    }

    /// The task's kind.
    public var task: StructuredTask.Kind
    /// Whether the schema was sent.
    public var sentSchema: Bool
    /// The attempts, in order (two when a correction was asked for).
    public var attempts: [Attempt]

    /// The last attempt's parse.
    public var final: StructuredReply { attempts.last?.parsed ?? StructuredReply("", task: .summary("")) }
    /// The value, when the last attempt is valid.
    public var value: JSONValue? { final.problems.isEmpty ? final.value : nil }
    /// Whether the generation can be used.
    public var isValid: Bool { value != nil }
    /// The last attempt's problems, field by field.
    public var problems: [String] { final.problems }
    /// Tokens over every attempt.
    public var usage: Usage {
        attempts.reduce(Usage(inputTokens: 0, outputTokens: 0, estimated: false)) {
            Usage(inputTokens: $0.inputTokens + $1.reply.usage.inputTokens, outputTokens: $0.outputTokens + $1.reply.usage.outputTokens,
                  estimated: $0.estimated || $1.reply.usage.estimated)
        }
    }
    /// Seconds over every attempt.
    public var latency: Double { attempts.reduce(0) { $0 + $1.reply.latency } }

    /// A one-paragraph account: valid or not, attempts, repairs, and each problem on its own line.
    public var report: String {
        var lines: [String] = []
        let how = sentSchema ? "with its JSON Schema" : "as strict JSON"
        if isValid {
            lines.append("\(task.rawValue): valid on attempt \(attempts.count) of \(attempts.count) (asked \(how))")
        } else {
            lines.append("\(task.rawValue): invalid after \(attempts.count) attempt\(attempts.count == 1 ? "" : "s") (asked \(how))")
        }
        for (index, attempt) in attempts.enumerated() {
            let repairs = attempt.parsed.repairs.isEmpty ? "" : " (repaired: \(attempt.parsed.repairs.joined(separator: ", ")))"
            lines.append("  attempt \(index + 1)\(repairs): " + (attempt.parsed.problems.isEmpty ? "valid" : "\(attempt.parsed.problems.count) problem\(attempt.parsed.problems.count == 1 ? "" : "s")"))
            lines += attempt.parsed.problems.map { "    \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
