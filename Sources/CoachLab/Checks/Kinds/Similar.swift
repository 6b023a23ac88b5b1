import Foundation

extension CheckKinds {
    /// The reply is at least `minimum` similar to a gold reply, by word-level F1 or ROUGE-L, or
    /// by meaning: the cosine similarity of the two texts' embeddings from a provider that
    /// serves them (`by: embedding`, `provider:`), which the runner asks (``byEmbedding``).
    public struct Similar: CheckKind {
        public var gold: String
        public var minimum: Double
        public var metric: Check.Similarity
        /// The provider whose embeddings are compared, when the check compares meaning.
        public var embeddingProvider: String?

        /// Whether the check compares meaning, through a provider's embeddings.
        public var byEmbedding: Bool { embeddingProvider != nil }

        public static let names = [CheckName("similar", takes: "to (a gold reply), min (0-1), metric (f1 or rouge-l), by (words or embedding), provider", needsParameters: true)]
        public static let fields = [
            FieldSpec("to", .text, "the gold reply."),
            FieldSpec("min", .number, "the least similarity that passes, 0-1."),
            FieldSpec("metric", .string, "f1 (default) or rouge-l, for by: words."),
            FieldSpec("by", .oneOf(["words", "embedding"]), "words (default: F1 or ROUGE-L, no provider) or embedding (the cosine of the two texts' embeddings)."),
            FieldSpec("provider", .string, "for by: embedding, the provider that serves embeddings (its embeddingModel)."),
        ]

        public static func read(_ reading: inout CheckReading) -> Similar? {
            let value = reading.value
            guard let gold = value.located("to")?.value, !gold.consists(of: .whitespacesAndNewlines) else {
                return reading.missing("'to': the gold reply")
            }
            guard let minimum = value.number("min") else { return reading.missing("min: the least similarity that passes, 0-1") }
            guard (0...1).contains(minimum) else {
                return reading.error("min \(minimum) is not a similarity from 0 to 1", at: value["min"]?.location)
            }
            var metric = Check.Similarity.f1
            if let node = value["metric"] {
                guard let given = node.text.flatMap(Check.Similarity.init(rawValue:)) else {
                    return reading.error("similar's metric is f1 or rouge-l", at: node.location)
                }
                metric = given
            }
            var provider: String?
            if let node = value["by"], node.text == "embedding" {
                guard let named = value.located("provider")?.value, !named.isEmpty else {
                    return reading.error("similar by embedding needs provider: the provider that serves embeddings", at: node.location)
                }
                provider = named
                if value["metric"] != nil {
                    return reading.error("metric is for similar by words; by embedding compares meaning", at: value["metric"]?.location)
                }
            } else if let node = value["by"], node.text != "words" {
                return reading.error("similar's by is words or embedding", at: node.location)
            } else if value["provider"] != nil {
                return reading.error("provider is for similar by embedding; add by: embedding", at: value["provider"]?.location)
            }
            return Similar(gold: gold, minimum: minimum, metric: metric, embeddingProvider: provider)
        }

        /// The result for a cosine similarity of the reply's and the gold reply's embeddings.
        public func result(cosine: Double, as check: Check) -> CheckResult {
            check.result(cosine + 1e-9 >= minimum, String(format: "cosine %.2f with the gold reply (%@'s embeddings); wanted at least %.2f",
                                                         cosine, embeddingProvider ?? "", minimum), score: max(0, cosine))
        }

        public func evaluate(_ subject: CheckSubject, as check: Check) -> CheckResult {
            if let embeddingProvider {
                return check.result(false, "similar by embedding is scored by the runner, which asks \(embeddingProvider); nothing asked it here")
            }
            let score = TextSimilarity.score(subject.reply, gold, metric: metric)
            let name = metric == .f1 ? "word F1" : "ROUGE-L"
            return check.result(score + 1e-9 >= minimum, String(format: "%@ %.2f with the gold reply; wanted at least %.2f", name, score, minimum),
                                score: score)
        }

        /// By embedding, the provider that embeds; otherwise scored from the reply alone.
        public var callout: CheckCallout { embeddingProvider.map { .model(provider: $0) } ?? .none }
    }
}

extension Check.Kind {
    /// The reply is at least `minimum` similar to a gold reply.
    public static func similar(to gold: String, minimum: Double, metric: Check.Similarity, embeddingProvider: String? = nil) -> Check.Kind {
        Check.Kind(CheckKinds.Similar(gold: gold, minimum: minimum, metric: metric, embeddingProvider: embeddingProvider))
    }
}
