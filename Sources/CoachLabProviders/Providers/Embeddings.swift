import CoachLab
import Foundation

/// A provider that serves embeddings: OpenAI's and compatible servers' `/embeddings`
/// (llama.cpp with `--embedding`), Gemini's `batchEmbedContents`, and the mock's own.
public protocol EmbeddingProvider: Sendable {
    var id: String { get }
    /// One vector per text, in order.
    /// - Throws: ``ProviderError`` as a chat request does; `configuration` when the provider
    ///   serves no embeddings.
    func embed(_ texts: [String]) async throws -> [[Double]]
}

/// The cosine similarity of two vectors; 0 when either is all zeros or their lengths differ.
public func cosineSimilarity(_ a: [Double], _ b: [Double]) -> Double {
    guard a.count == b.count, !a.isEmpty else { return 0 }
    var dot = 0.0, left = 0.0, right = 0.0
    for index in a.indices {
        dot += a[index] * b[index]
        left += a[index] * a[index]
        right += b[index] * b[index]
    }
    return left > 0 && right > 0 ? dot / (left.squareRoot() * right.squareRoot()) : 0
}

extension MockProvider: EmbeddingProvider {
    public func embed(_ texts: [String]) async throws -> [[Double]] { texts.map(MockEmbedding.vector) }
}

extension FallbackProvider: EmbeddingProvider {
    /// Embeddings from the chain's first link that serves them and answers. Both texts of a
    /// comparison come from one call, so they always share a model.
    public func embed(_ texts: [String]) async throws -> [[Double]] {
        var failures: [ProviderError] = []
        for case let link as any EmbeddingProvider in links {
            do {
                return try await link.embed(texts)
            } catch let error as ProviderError {
                failures.append(error)
            }
        }
        guard let last = failures.last else {
            throw ProviderError(.configuration, provider: id, message: "no link of \(id) serves embeddings")
        }
        let summary = failures.map { "\($0.provider): \($0.message)" }.joined(separator: "; ")
        throw ProviderError(last.code, provider: id, status: last.status, message: "no link of \(id) gave embeddings (\(summary))")
    }
}

extension HTTPProvider: EmbeddingProvider {
    /// Embeddings through the wire's embeddings endpoint, with the same retries, cache,
    /// redaction and limits as chat requests.
    public func embed(_ texts: [String]) async throws -> [[Double]] {
        guard let spec = wire.embeddingRequest(texts, model: embeddingModel ?? model, baseURL: baseURL, apiKey: apiKey) else {
            throw ProviderError(.configuration, provider: id, message: "\(id) serves no embeddings (OpenAI, OpenAI-compatible and Gemini providers do)")
        }
        return try await retrying { _ in
            try await answering(spec, timeout: defaults.timeout ?? Self.defaultTimeout) { response, cached in
                let body = try await Self.collect(response.body, provider: id, limit: maximumResponseBytes)
                try Self.refuseRedirect(response, provider: id)
                guard (200..<300).contains(response.status) else {
                    throw wire.error(status: response.status, headers: response.headers, body: body, provider: id, now: now())
                }
                let vectors = try wire.decodeEmbeddings(body, provider: id)
                guard vectors.count == texts.count else {
                    throw ProviderError(.malformedResponse, provider: id, message: "asked for \(texts.count) embeddings, got \(vectors.count)")
                }
                if !cached { cache?.store(spec, provider: id, status: response.status, headers: response.headers, body: Array(body), redactor: redactor) }
                return vectors
            }
        }
    }
}
