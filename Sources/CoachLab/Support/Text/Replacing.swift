import Foundation

extension String {
    /// Every occurrence of `target` replaced by `replacement`, left to right and without
    /// overlaps, as Foundation's `replacingOccurrences(of:with:)` gives it. When this text and
    /// `target` are both ASCII, a byte search finds exactly what Foundation's search does (no
    /// ASCII text holds a sequence that canonical equivalence joins), so it is done here,
    /// without copying the text into an `NSMutableString`: the mock replaced a phrase in each
    /// prompt line it read for lengths, at some 10 µs a call. Any other text goes to
    /// Foundation, which matches the Kelvin sign to "K" and composed letters to decomposed ones.
    func replacingText(_ target: String, with replacement: String) -> String {
        var text = self, target = target
        let isASCII = text.withUTF8 { $0.allSatisfy { $0 < 0x80 } } && target.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
        guard isASCII else { return replacingOccurrences(of: target, with: replacement) }
        guard !target.isEmpty else { return self }
        return text.withUTF8 { bytes in
            target.withUTF8 { needle in
                guard var offset = FoldedText.firstOffset(of: needle, in: bytes) else { return self }
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count)
                var start = 0
                while true {
                    out.append(contentsOf: bytes[start..<offset])
                    out.append(contentsOf: replacement.utf8)
                    start = offset + needle.count
                    let rest = UnsafeBufferPointer(rebasing: bytes[start...])
                    guard let next = FoldedText.firstOffset(of: needle, in: rest) else { break }
                    offset = start + next
                }
                out.append(contentsOf: bytes[start...])
                return String(decoding: out, as: UTF8.self)
            }
        }
    }
}
