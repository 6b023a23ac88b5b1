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
}
