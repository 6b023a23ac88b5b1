import Foundation

/// The mock's embeddings: a deterministic bag of words, each word's first five letters hashed
/// to one of 256 signed dimensions, normalised. Texts that share words point the same way, so
/// a paraphrase that keeps the words scores near 1 and an unrelated reply near 0, with no model.
public enum MockEmbedding {
    public static let dimensions = 256

    public static func vector(_ text: String) -> [Double] {
        var vector = [Double](repeating: 0, count: dimensions)
        for word in TextNormalizer.words(text).map(\.text) where word.count >= 3 && !MockComposer.stopWords.contains(word) {
            let value = StableHash.value(String(word.prefix(5)))
            vector[Int(value % UInt64(dimensions))] += (value >> 32) & 1 == 0 ? 1 : -1
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return norm > 0 ? vector.map { $0 / norm } : vector
    }
}

