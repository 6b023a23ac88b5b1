import Foundation

/// Text folded for phrase search as checks read it: case and diacritics ignored, curly
/// apostrophes straight, as UTF-8 bytes. Folding is one pass over the text (ASCII by table,
/// anything else through Foundation once per distinct scalar) and search is a byte scan, so a
/// 10 MB reply is searched in milliseconds where Foundation's case- and diacritic-insensitive
/// `range(of:)` takes seconds.
struct FoldedText {
    let bytes: [UInt8]

    init(_ text: String) { bytes = FoldedText.fold(text) }

    /// Whether the folded text contains the folded `phrase`.
    func contains(_ phrase: String) -> Bool { FoldedText.bytes(bytes, contain: FoldedText.fold(phrase)) }

    static func fold(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x80 {
                out.append(value >= 0x41 && value <= 0x5A ? UInt8(value + 32) : UInt8(value))
            } else if value == 0x2019 || value == 0x2018 {
                out.append(UInt8(ascii: "'"))
            } else {
                out.append(contentsOf: ScalarFolds.folded(scalar))
            }
        }
        return out
    }

    /// Whether the UTF-8 of `haystack` contains that of `needle`, byte for byte: a plain
    /// substring test without Foundation or the generic collection search.
    static func text(_ haystack: String, contains needle: String) -> Bool {
        var haystack = haystack, needle = needle
        return haystack.withUTF8 { haystack in needle.withUTF8 { needle in bytes(haystack, contain: needle) } }
    }

    /// Where `needle` first occurs in `haystack`, byte for byte, as an index of `haystack`.
    static func text(_ haystack: String, firstIndexOf needle: String) -> String.Index? {
        var copy = haystack, needle = needle
        let offset = copy.withUTF8 { bytes in needle.withUTF8 { needle in firstOffset(of: needle, in: bytes) } }
        return offset.map { haystack.utf8.index(haystack.utf8.startIndex, offsetBy: $0) }
    }

    /// Whether `haystack` contains `needle`, byte for byte.
    static func bytes(_ haystack: [UInt8], contain needle: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { haystack in needle.withUnsafeBufferPointer { needle in bytes(haystack, contain: needle) } }
    }

    static func bytes(_ haystack: UnsafeBufferPointer<UInt8>, contain needle: UnsafeBufferPointer<UInt8>) -> Bool {
        firstOffset(of: needle, in: haystack) != nil
    }

    /// The offset at which `needle` first occurs in `haystack`.
    /// The first byte is found with the C library's `memchr`, which scans with vector
    /// instructions, and the rest compared with `memcmp`.
    static func firstOffset(of needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let needleStart = needle.baseAddress, let first = needle.first else { return 0 }
        guard let start = haystack.baseAddress, needle.count <= haystack.count else { return nil }
        let last = haystack.count - needle.count
        var index = 0
        while index <= last {
            guard let found = memchr(start + index, Int32(first), last - index + 1) else { return nil }
            let offset = UnsafeRawPointer(start).distance(to: UnsafeRawPointer(found))
            if memcmp(start + offset + 1, needleStart + 1, needle.count - 1) == 0 { return offset }
            index = offset + 1
        }
        return nil
    }
}

/// What Foundation folds each non-ASCII scalar to, kept for the process: a reply's emoji or
/// accented letter is folded once, not once per reply.
enum ScalarFolds {
    static let shared = BoundedCache<UInt32, [UInt8]>(bound: 4096)

    static func folded(_ scalar: Unicode.Scalar) -> [UInt8] {
        shared.value(for: scalar.value) {
            Array(String(scalar).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8)
        }
    }
}
