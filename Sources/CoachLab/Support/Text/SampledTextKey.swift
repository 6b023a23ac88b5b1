import Foundation

/// A dictionary key for a long text, such as a compiled prompt, that hashes the text's length
/// and a fixed sample of its bytes instead of every byte: caches keyed by a 10 KB prompt were
/// spending more time hashing the key than the lookup saved.
///
/// Equality compares the whole texts byte for byte (at once when both share storage, as a
/// cached prompt does), so different texts never share an entry; texts that differ only
/// between samples land in one bucket and are told apart there. It is not `String`'s
/// equality, which reads texts as equal when they are canonically equivalent: two prompts
/// that spell "é" differently are different prompts to a model, and their bytes hash apart,
/// which `Hashable` forbids for equal keys.
struct SampledTextKey: Hashable, Sendable {
    /// Bytes sampled, evenly spaced, besides the length and the last byte.
    static let samples = 256

    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) {
        // A text without contiguous UTF-8 (a bridged one) is read from a contiguous copy, so
        // equal texts hash alike however they are stored.
        var text = text
        text.withUTF8 { bytes in
            hasher.combine(bytes.count)
            guard let last = bytes.last else { return }
            let step = max(1, bytes.count / Self.samples)
            // Gathered, then hashed in one call: a `combine` per sampled byte cost more than
            // the rest of a lookup.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * Self.samples + 1) { sample in
                var count = 0
                for offset in stride(from: 0, to: bytes.count, by: step) {
                    sample[count] = bytes[offset]
                    count += 1
                }
                sample[count] = last
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: sample[...count])))
            }
        }
    }

    static func == (lhs: SampledTextKey, rhs: SampledTextKey) -> Bool {
        var (left, right) = (lhs.text, rhs.text)
        guard left.utf8.count == right.utf8.count else { return false }
        return left.withUTF8 { a in
            right.withUTF8 { b in
                a.baseAddress == b.baseAddress || a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
            }
        }
    }
}
