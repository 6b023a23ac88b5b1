import CoachLab
import Foundation

/// The in-process, deterministic simulated coach (``MockCoach``): a scripted reply wins;
/// otherwise a RISK ALERT in the prompt gets an acknowledgement, a referral to a qualified
/// professional and a question, and anything else gets a reflection and one question.
/// Usage is estimated and labelled so. `latency` simulates a model's delay.
public struct MockProvider: ChatProvider {
    public let id: String
    public let model: String
    /// Seconds to wait before answering.
    public var latency: Double

    /// The model name the mock reports.
    public static let modelName = "coachlab-mock-1"

    public init(id: String = "mock", model: String = MockProvider.modelName, latency: Double = 0) {
        self.id = id
        self.model = model
        self.latency = latency
    }

    public var isComputeBound: Bool { latency <= 0 }

    /// The reply text and finish reason for a request, without waiting: the cue's scripted
    /// reply, or the mock coach's, read from the cue's structure and alert first.
    public static func answer(_ request: ChatRequest, cue: MockCue? = MockCue.current) -> (text: String, finish: FinishReason) {
        var text = cue?.scriptedReply
            ?? MockCoach.reply(system: request.system, userMessages: request.messages.filter { $0.role == .user }.map(\.content), alert: cue?.alert,
                               structure: cue?.structure, quotable: cue?.quotable ?? [])
        var finish = FinishReason.stop
        if let limit = request.settings.maxTokens, TokenEstimator.estimate(text) > limit {
            var words: [Substring] = []
            for word in text.split(separator: " ") {
                if TokenEstimator.estimate((words + [word]).joined(separator: " ")) > limit { break }
                words.append(word)
            }
            text = words.joined(separator: " ")
            finish = .length
        }
        return (text, finish)
    }

    public func complete(_ request: ChatRequest) async throws -> ProviderReply {
        let clock = ContinuousClock()
        let start = clock.now
        if latency > 0 { try await Task.sleep(nanoseconds: UInt64(latency * 1e9)) }
        try Task.checkCancellation()
        let (text, finish) = Self.answer(request)
        return ProviderReply(text: text, usage: .estimate(request, reply: text), finishReason: finish,
                             rawFinishReason: finish.rawValue, model: request.settings.model.isEmpty ? model : request.settings.model,
                             provider: id, latency: (clock.now - start).seconds)
    }

    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let clock = ContinuousClock()
                    let start = clock.now
                    if latency > 0 { try await Task.sleep(nanoseconds: UInt64(latency * 1e9)) }
                    let (text, finish) = Self.answer(request)
                    let firstToken = (clock.now - start).seconds
                    for piece in Self.pieces(of: text) {
                        try Task.checkCancellation()
                        continuation.yield(.delta(piece))
                    }
                    continuation.yield(.finished(ProviderReply(
                        text: text, usage: .estimate(request, reply: text), finishReason: finish, rawFinishReason: finish.rawValue,
                        model: request.settings.model.isEmpty ? model : request.settings.model, provider: id,
                        latency: (clock.now - start).seconds, timeToFirstToken: firstToken)))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Word-sized pieces of a text, spaces kept, as a model would stream them.
    public static func pieces(of text: String) -> [String] {
        var pieces: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character == " " {
                pieces.append(current)
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }
}

/// Fixed replies for when no model is available (Luna's `fallbackResponses`). The reply is
/// chosen by a stable hash of the latest user message, so a conversation is reproducible.
public struct CannedProvider: ChatProvider {
    public let id: String
    public let model = "canned"
    /// The replies to choose from.
    public let replies: [String]

    /// Creates a canned provider.
    /// - Throws: ``ProviderError`` (`configuration`) when `replies` is empty.
    public init(id: String = "canned", replies: [String]) throws {
        guard !replies.isEmpty else {
            throw ProviderError(.configuration, provider: id, message: "a canned provider needs at least one reply")
        }
        self.id = id
        self.replies = replies
    }

    public var isComputeBound: Bool { true }

    /// The reply for a request.
    public func text(for request: ChatRequest) -> String {
        let latest = request.messages.last { $0.role == .user }?.content ?? ""
        let hash = UInt64(StableHash.hex(latest), radix: 16) ?? 0
        return replies[Int(hash % UInt64(replies.count))]
    }

    public func complete(_ request: ChatRequest) async throws -> ProviderReply {
        let text = text(for: request)
        return ProviderReply(text: text, usage: Usage(inputTokens: 0, outputTokens: 0, estimated: true), finishReason: .stop,
                             rawFinishReason: "canned", model: model, provider: id)
    }

    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { continuation in
            let text = text(for: request)
            for piece in MockProvider.pieces(of: text) { continuation.yield(.delta(piece)) }
            continuation.yield(.finished(ProviderReply(text: text, usage: Usage(inputTokens: 0, outputTokens: 0, estimated: true),
                                                       finishReason: .stop, rawFinishReason: "canned", model: model,
                                                       provider: id, timeToFirstToken: 0)))
            continuation.finish()
        }
    }
}

/// A chain: the first provider that answers wins (HealthWallet: OpenRouter, then Gemini;
/// Luna: Gemini, then canned replies). Each link keeps its own retries; the reply names the
/// links that failed first.
public struct FallbackProvider: ChatProvider {
    public let id: String
    public var model: String { links.first?.model ?? "" }
    public var isApp: Bool { links.contains { $0.isApp } }
    /// The providers, in order.
    public let links: [any ChatProvider]

    /// Creates a chain.
    /// - Throws: ``ProviderError`` (`configuration`) when `links` is empty.
    public init(id: String, links: [any ChatProvider]) throws {
        guard !links.isEmpty else {
            throw ProviderError(.configuration, provider: id, message: "a fallback chain needs at least one provider")
        }
        self.id = id
        self.links = links
    }

    public var isComputeBound: Bool { links.allSatisfy(\.isComputeBound) }

    public func complete(_ request: ChatRequest) async throws -> ProviderReply {
        var failures: [ProviderError] = []
        for link in links {
            do {
                var reply = try await link.complete(linkRequest(request, for: link))
                reply.fellBackFrom = failures.map(\.provider)
                return reply
            } catch let error as ProviderError {
                failures.append(error)
            }
        }
        throw combined(failures)
    }

    public func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var failures: [ProviderError] = []
                for link in links {
                    var yielded = false
                    do {
                        for try await event in link.stream(linkRequest(request, for: link)) {
                            switch event {
                            case .finished(var reply):
                                reply.fellBackFrom = failures.map(\.provider)
                                continuation.yield(.finished(reply))
                                continuation.finish()
                                return
                            case .delta:
                                yielded = true
                                continuation.yield(event)
                            case .restarted:
                                continuation.yield(event)
                            }
                        }
                    } catch let error as ProviderError {
                        failures.append(error)
                        if yielded { continuation.yield(.restarted(reason: error)) }
                    } catch {
                        continuation.finish(throwing: error)
                        return
                    }
                }
                continuation.finish(throwing: combined(failures))
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A link uses its own model unless the request names one for the chain's first link.
    private func linkRequest(_ request: ChatRequest, for link: any ChatProvider) -> ChatRequest {
        var request = request
        if link.id != links.first?.id { request.settings.model = "" }
        return request
    }

    private func combined(_ failures: [ProviderError]) -> ProviderError {
        let last = failures.last ?? ProviderError(.configuration, provider: id, message: "no provider answered")
        let summary = failures.map { "\($0.provider): \($0.code)" }.joined(separator: "; ")
        return ProviderError(last.code, provider: id, status: last.status, message: "every provider failed (\(summary)); last: \(last.message)")
    }
}
