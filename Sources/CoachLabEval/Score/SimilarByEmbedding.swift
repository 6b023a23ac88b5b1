import CoachLab
import CoachLabProviders

extension CheckKinds.Similar: CallingCheck {
    /// By embedding: the cosine of the reply's and the gold reply's embeddings, asked of the
    /// check's provider within its limit (and from its response cache). Otherwise, as scored
    /// anywhere, from the words alone.
    public func score(as check: Check, in context: CalloutContext) async throws -> [CheckResult] {
        guard let slot = context.model, let reply = context.reply else { return [evaluate(context.subject, as: check)] }
        guard let embedder = slot.provider as? any EmbeddingProvider else {
            throw ProviderError(.configuration, provider: slot.configuration.id,
                                message: "\(slot.configuration.id) serves no embeddings, so similar by embedding cannot use it")
        }
        let vectors = try await slot.run { try await embedder.embed([reply, gold]) }
        return [result(cosine: cosineSimilarity(vectors[0], vectors[1]), as: check)]
    }
}
