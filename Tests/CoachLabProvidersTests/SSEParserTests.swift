import CoachLabProviders
import Testing

@Suite struct SSEParserTests {
    static func parse(_ chunks: [[UInt8]]) -> [SSEEvent] {
        var parser = SSEParser()
        var events: [SSEEvent] = []
        for chunk in chunks { events += parser.feed(chunk) }
        return events + parser.finish()
    }

    static let openAIStream = "data: {\"a\":1}\n\n: OPENROUTER PROCESSING\n\ndata: {\"b\":\"é✓\"}\n\ndata: [DONE]\n\n"

    @Test func everySplitPointGivesTheSameEvents() {
        let bytes = Array(Self.openAIStream.utf8)
        let whole = Self.parse([bytes])
        #expect(whole.map(\.data) == ["{\"a\":1}", "{\"b\":\"é✓\"}", "[DONE]"])
        for split in 1..<bytes.count {
            #expect(Self.parse([Array(bytes[..<split]), Array(bytes[split...])]) == whole, "split at \(split)")
        }
        #expect(Self.parse(bytes.map { [$0] }) == whole)  // one byte at a time: multibyte characters split too
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func lineEndings(_ ending: String) {
        let text = "event: message_start\(ending)data: one\(ending)data: two\(ending)\(ending)data: three\(ending)\(ending)"
        let events = Self.parse([Array(text.utf8)])
        #expect(events == [SSEEvent(event: "message_start", data: "one\ntwo"), SSEEvent(data: "three")])
    }

    @Test func crAtTheEndOfAChunkAndLFAtTheStartOfTheNextAreOneBreak() {
        let events = Self.parse([Array("data: x\r".utf8), Array("\n\r".utf8), Array("\ndata: y\r\n\r\n".utf8)])
        #expect(events.map(\.data) == ["x", "y"])
    }

    @Test func commentsIdsAndFieldsWithoutSpace() {
        let events = Self.parse([Array(": keep-alive\nid: 7\ndata:tight\nretry: 100\n\n:\n\n".utf8)])
        #expect(events == [SSEEvent(data: "tight", id: "7")])
    }

    @Test func geminiStyleStreamEndsOnCloseWithCRLFSeparators() {
        let events = Self.parse([Array("data: {\"n\":1}\r\n\r\ndata: {\"n\":2}".utf8)])
        #expect(events.map(\.data) == ["{\"n\":1}", "{\"n\":2}"])
    }

    @Test func blankLinesWithoutDataDispatchNothing() {
        #expect(Self.parse([Array("\n\n\nevent: ping\n\n".utf8)]).isEmpty)
    }
}

@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maxRetries: 3, initialDelay: 0.5, maxDelay: 8, maximumServerDelay: 120, jitter: 0.25)

    func error(_ code: ProviderError.Code, retryAfter: Double? = nil, shouldRetry: Bool? = nil) -> ProviderError {
        ProviderError(code, provider: "p", message: "m", retryAfter: retryAfter, shouldRetry: shouldRetry)
    }

    @Test func exponentialBackoffWithJitterAndALimit() {
        #expect(policy.delay(beforeRetry: 1, after: error(.server), random: 0) == 0.5)
        #expect(policy.delay(beforeRetry: 2, after: error(.server), random: 0) == 1)
        #expect(policy.delay(beforeRetry: 3, after: error(.server), random: 1) == 1.5)  // 2 s less 25 %
        #expect(policy.delay(beforeRetry: 4, after: error(.server), random: 0) == nil)
        let long = RetryPolicy(maxRetries: 10, initialDelay: 0.5, maxDelay: 8, jitter: 0)
        #expect(long.delay(beforeRetry: 9, after: error(.overloaded), random: 0) == 8)
    }

    @Test func serverDirectedDelaysWinAndAreCapped() {
        #expect(policy.delay(beforeRetry: 1, after: error(.rateLimited, retryAfter: 22), random: 0.9) == 22)
        #expect(policy.delay(beforeRetry: 1, after: error(.rateLimited, retryAfter: 600), random: 0) == 120)
        // Rate limits counted apart: the eighth 429 of a request is still retried, the ninth not,
        // and they do not use up the retries of server errors.
        #expect(policy.delay(beforeRetry: 8, after: error(.rateLimited, retryAfter: 1), rateLimits: 8, random: 0) == 1)
        #expect(policy.delay(beforeRetry: 9, after: error(.rateLimited, retryAfter: 1), rateLimits: 9, random: 0) == nil)
        #expect(policy.delay(beforeRetry: 9, after: error(.server), rateLimits: 6, random: 0) != nil)
        #expect(policy.delay(beforeRetry: 10, after: error(.server), rateLimits: 6, random: 0) == nil)
        #expect(RetryPolicy.none.delay(beforeRetry: 1, after: error(.rateLimited), rateLimits: 1, random: 0) == nil)
    }

    @Test func onlyRetryableErrorsAreRetriedUnlessTheServerSaysOtherwise() {
        for code in [ProviderError.Code.authentication, .permission, .invalidRequest, .contextLength, .insufficientQuota, .notFound] {
            #expect(policy.delay(beforeRetry: 1, after: error(code), random: 0) == nil, "\(code)")
        }
        for code in [ProviderError.Code.rateLimited, .overloaded, .server, .timeout, .network, .streamInterrupted] {
            #expect(policy.delay(beforeRetry: 1, after: error(code), random: 0) != nil, "\(code)")
        }
        #expect(policy.delay(beforeRetry: 1, after: error(.server, shouldRetry: false), random: 0) == nil)
        #expect(policy.delay(beforeRetry: 1, after: error(.invalidRequest, shouldRetry: true), random: 0) == 0.5)
    }

    @Test func retryAfterHeaders() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryPolicy.serverDelay(headers: [("Retry-After-Ms", "250"), ("retry-after", "9")], now: now) == 0.25)
        #expect(RetryPolicy.serverDelay(headers: [("retry-after", "3")], now: now) == 3)
        #expect(RetryPolicy.serverDelay(headers: [("retry-after", "Tue, 14 Nov 2023 22:13:50 GMT")], now: now) == 30)
        #expect(RetryPolicy.serverDelay(headers: [("retry-after", "soon")], now: now) == nil)
    }

    @Test func durations() {
        #expect(RetryPolicy.duration("22s") == 22)
        #expect(RetryPolicy.duration("1.5s") == 1.5)
        #expect(RetryPolicy.duration("500ms") == 0.5)
        #expect(RetryPolicy.duration("1m30s") == 90)
        #expect(RetryPolicy.duration("1s") == 1)
        #expect(RetryPolicy.duration("abc") == nil)
    }
}

import Foundation
