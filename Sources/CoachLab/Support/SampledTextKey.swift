/// A dictionary key for a long text, such as a compiled prompt, that hashes the text's length
/// and a fixed sample of its bytes instead of every byte: caches keyed by a 10 KB prompt were
/// spending more time hashing the key than the lookup saved.
///
/// Equality still compares whole texts (at once when both share storage, as a cached prompt
/// does), so different texts never share an entry; texts that differ only between samples
/// land in one bucket and are told apart there.
struct SampledTextKey: Hashable, Sendable {
    /// Bytes sampled, evenly spaced, besides the length and the last byte.
    static let samples = 256

    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) {
        // Equal texts must hash alike however they are stored, so a text without contiguous
        // UTF-8 (a bridged one) is sampled from a contiguous copy.
        var text = text
        text.makeContiguousUTF8()
        _ = text.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes.count)
            guard let last = bytes.last else { return }
            let step = max(1, bytes.count / Self.samples)
            for offset in stride(from: 0, to: bytes.count, by: step) { hasher.combine(bytes[offset]) }
            hasher.combine(last)
        }
    }
}
