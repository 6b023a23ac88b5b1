@testable import CoachLab
import Foundation
import Testing

@Suite struct RegexCacheTests {
    /// One pattern asked for with and without case sensitivity is compiled twice, each time
    /// with its own options, whichever is asked for first.
    @Test func caseSensitivityIsPartOfWhatIsCached() throws {
        for (first, second) in [(true, false), (false, true)] {
            let pattern = "\\bcache-\(first)-probe\\b"
            let text = "CACHE-\(first)-PROBE"
            let a = try #require(RegexCache.shared.pattern(pattern, caseSensitive: first))
            let b = try #require(RegexCache.shared.pattern(pattern, caseSensitive: second))
            let matches = [(a, first), (b, second)].map { compiled, sensitive in
                (sensitive, compiled.firstMatch(in: text, lowered: nil) != nil)
            }
            #expect(matches.allSatisfy { sensitive, matched in matched == !sensitive }, "\(matches)")
        }
        #expect(RegexCache.shared.pattern("(unclosed", caseSensitive: false) == nil)
    }
}
