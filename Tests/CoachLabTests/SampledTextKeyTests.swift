@testable import CoachLab
import Testing

/// Keys that hash a sample of a long text still tell every text apart and find equal texts.
@Suite struct SampledTextKeyTests {
    @Test func textsThatDifferBetweenSamplesAreSeparateEntries() {
        let base = String(repeating: "You are a warm coach. ", count: 500)  // 11,000 bytes, sampled every 42
        var texts = [base]
        for offset in [1, 2, 41, 5_001, 10_998] {
            var bytes = Array(base.utf8)
            bytes[offset] = bytes[offset] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            texts.append(String(decoding: bytes, as: UTF8.self))
        }
        var cache: [SampledTextKey: Int] = [:]
        for (index, text) in texts.enumerated() { cache[SampledTextKey(text)] = index }
        #expect(cache.count == texts.count)
        for (index, text) in texts.enumerated() {
            // A copy with its own storage finds the entry its equal text made.
            #expect(cache[SampledTextKey(String(decoding: Array(text.utf8), as: UTF8.self))] == index)
        }
    }

    @Test func shortAndEmptyTextsWork() {
        let texts = ["", "a", "ab", "ba", String(repeating: "z", count: 300)]
        let keys = Set(texts.map(SampledTextKey.init))
        #expect(keys.count == texts.count)
        #expect(SampledTextKey("ab").hashValue == SampledTextKey(String("xab".dropFirst())).hashValue)
    }

    /// Keys compare bytes: texts `String` calls equal because they are canonically equivalent
    /// ("é" as one scalar, or "e" and a combining accent) are different prompts, and their
    /// samples hash apart, so one key equal to both would break the dictionary.
    @Test func canonicallyEquivalentTextsAreDifferentKeys() {
        let precomposed = String(repeating: "Be gentle. ", count: 60) + "Caf\u{E9} talk."
        let decomposed = String(repeating: "Be gentle. ", count: 60) + "Cafe\u{301} talk."
        #expect(precomposed == decomposed)
        #expect(SampledTextKey(precomposed) != SampledTextKey(decomposed))
        let keys: [SampledTextKey: Int] = [SampledTextKey(precomposed): 1, SampledTextKey(decomposed): 2]
        #expect(keys[SampledTextKey(String(decoding: Array(precomposed.utf8), as: UTF8.self))] == 1)
        #expect(keys[SampledTextKey(String(decoding: Array(decomposed.utf8), as: UTF8.self))] == 2)
    }

    /// A text that is not ASCII finds its entry from a copy with storage of its own.
    @Test func textsOutsideASCIIFindTheirEntries() {
        let texts = ["Tu es un coach bienveillant. 🙂", String(repeating: "Gr\u{FC}\u{DF}e — ", count: 200), "日本語のコーチ"]
        var cache: [SampledTextKey: Int] = [:]
        for (index, text) in texts.enumerated() { cache[SampledTextKey(text)] = index }
        for (index, text) in texts.enumerated() {
            #expect(cache[SampledTextKey(String(decoding: Array(text.utf8), as: UTF8.self))] == index)
        }
    }
}
