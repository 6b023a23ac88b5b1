import Synchronization
import CoachLab
@testable import CoachLabProviders
import CoachLabMockServer
import Foundation
import Testing

/// Concurrency adapted to a provider's rate limits: halved by a 429 once per round of requests,
/// grown back by successes, held by what the provider says to wait.
/// Its own connection pool: a server these tests stop must leave no idle connection in a pool
/// another suite's new server, given the same port, would be sent first.
let adaptiveTransport = ClosingTransport(base: .dedicated())

// Serialized: the two runs against rate-limited servers would share the machine's two cores.
@Suite(.serialized) struct AdaptiveLimitTests {
    @Test func aRateLimitHalvesItOnceForTheRequestsAlreadySentAndSuccessesGrowItBack() async throws {
        let limit = AdaptiveLimit(ceiling: 8)
        var started: [ContinuousClock.Instant] = []
        for _ in 0..<8 { started.append(try await limit.acquire()) }
        await limit.release(started: started[0], status: 429)
        #expect(await limit.current == 4)
        // Sent before the cut: these say nothing new.
        for index in 1..<4 { await limit.release(started: started[index], status: 429) }
        let (current, cuts, limited) = (await limit.current, await limit.cuts, await limit.rateLimited)
        #expect(current == 4 && cuts == 1 && limited == 4)
        for index in 4..<8 { await limit.release(started: started[index], status: 200) }
        // Sent after the cut, and limited again: a second cut.
        let late = try await limit.acquire()
        await limit.release(started: late, status: 429)
        let (again, cutTwice) = (await limit.current, await limit.cuts)
        #expect(again == 2 && cutTwice == 2)
        // One more a round of successes, up to the ceiling and no further.
        for _ in 0..<200 { await limit.release(started: try await limit.acquire(), status: 200) }
        #expect(await limit.current == 8)
        let summary = await limit.summary
        #expect(summary == "5 of 209 requests rate-limited or overloaded (2.4%); concurrency cut 2 times, 8 of 8 at the end", "\(summary ?? "")")
    }

    @Test func aRequestWaitsForRoom() async throws {
        let limit = AdaptiveLimit(ceiling: 1)
        let first = try await limit.acquire()
        let second = Task { try await limit.acquire() }
        try await Task.sleep(for: .milliseconds(50))
        #expect(await limit.sent == 1, "the second waits while the first is in flight")
        await limit.release(started: first, status: 200)
        _ = try await second.value
        #expect(await limit.sent == 2)
    }

    @Test func whatTheProviderSaysToWaitIsRead() {
        let now = Date(timeIntervalSince1970: 1_000)
        #expect(AdaptiveLimit.wait(status: 429, headers: [HTTPHeader("retry-after-ms", "250")], now: now) == 0.25)
        #expect(AdaptiveLimit.wait(status: 429, headers: [HTTPHeader("Retry-After", "2")], now: now) == 2)
        #expect(AdaptiveLimit.wait(status: 200, headers: [HTTPHeader("retry-after", "2")], now: now) == nil)
        #expect(AdaptiveLimit.wait(status: 200, headers: [HTTPHeader("x-ratelimit-remaining-requests", "0"),
                                                          HTTPHeader("x-ratelimit-reset-requests", "1m2.5s")], now: now) == 62.5)
        #expect(AdaptiveLimit.wait(status: 200, headers: [HTTPHeader("x-ratelimit-remaining-requests", "3"),
                                                          HTTPHeader("x-ratelimit-reset-requests", "1s")], now: now) == nil)
        #expect(AdaptiveLimit.wait(status: 200, headers: [HTTPHeader("anthropic-ratelimit-requests-remaining", "0"),
                                                          HTTPHeader("anthropic-ratelimit-requests-reset", "1970-01-01T00:16:50Z")], now: now) == 10)
        #expect(AdaptiveLimit.duration("120ms") == 0.12 && AdaptiveLimit.duration("6m0s") == 360 && AdaptiveLimit.duration("1h") == 3600)
        #expect(AdaptiveLimit.duration("soon") == nil && AdaptiveLimit.duration("") == nil && AdaptiveLimit.duration("5") == nil)
    }

    /// Against serve-mock admitting 100 requests a second, then 50 from halfway: 240 requests, 32
    /// at a time, all answered, and few of them refused on the way.
    @Test func againstALimitThatHalvesMidRunNothingErrors() async throws {
        let configuration = MockServerConfiguration(port: 0, latency: 0.05, requestsPerSecond: 100)
        try await RunningMockServer.with(configuration) { server in
            let limit = AdaptiveLimit(ceiling: 32)
            let chat = {
                var chat = provider(.openai, server, retry: RetryPolicy(maxRetries: 3, initialDelay: 0.05, maxDelay: 0.2, jitter: 0),
                                    transport: adaptiveTransport)
                chat.limit = limit
                return chat
            }()
            let rate = try #require(server.server.rateLimit)
            let failures = try await withThrowingTaskGroup(of: Int.self) { group in
                var slots = 0, failures = 0
                for index in 0..<240 {
                    if slots == 32 { failures += try await group.next() ?? 0; slots -= 1 }
                    if index == 120 { rate.set(requestsPerSecond: 50) }
                    group.addTask {
                        do { _ = try await chat.complete(sampleRequest); return 0 } catch { return 1 }
                    }
                    slots += 1
                }
                for try await failed in group { failures += failed }
                return failures
            }
            #expect(failures == 0)
            let refused = await limit.rateLimited, sent = await limit.sent
            // A short run whose rate halves midway: each cut costs a round of refusals, retried, not
            // failed. The 2,000-case benchmark (docs/benchmarks.md) measures the share a long run pays.
            #expect(Double(refused) < 0.2 * Double(sent), "\(refused) of \(sent) refused")
            #expect(rate.counts.admitted == 240)
        }
    }

    @Test func tokensLeftAtNoneHoldNewRequestsUntilTheirReset() {
        let now = Date(timeIntervalSince1970: 1_000)
        #expect(AdaptiveLimit.wait(status: 200, headers: [HTTPHeader("x-ratelimit-remaining-tokens", "0"),
                                                          HTTPHeader("x-ratelimit-reset-tokens", "750ms")], now: now) == 0.75)
        #expect(AdaptiveLimit.wait(status: 200, headers: [HTTPHeader("anthropic-ratelimit-tokens-remaining", "0"),
                                                          HTTPHeader("anthropic-ratelimit-tokens-reset", "1970-01-01T00:16:45Z")], now: now) == 5)
        // Both spent: the later reset.
        #expect(AdaptiveLimit.wait(status: 200, headers: [HTTPHeader("x-ratelimit-remaining-requests", "0"), HTTPHeader("x-ratelimit-reset-requests", "1s"),
                                                          HTTPHeader("x-ratelimit-remaining-tokens", "0"), HTTPHeader("x-ratelimit-reset-tokens", "3s")],
                                   now: now) == 3)
    }

    @Test func againstATokensPerMinuteLimitNothingErrors() async throws {
        let errors = Collected()
        var configuration = MockServerConfiguration(port: 0)
        // 145 requests of about 45 tokens each are some 1,500 tokens over the minute's bucket,
        // which refills at 83 a second: the bucket runs out unless the first requests take more
        // than 18 s, however busy the machine (at 6,000 it was 500 over, and a slow start kept up).
        configuration.tokensPerMinute = 5000
        try await RunningMockServer.with(configuration) { server in
            let limit = AdaptiveLimit(ceiling: 16)
            let chat = {
                // Real waits and jitter, as a run has them. After the first minute's burst the
                // bucket refills about two requests a second while up to 16 wait on it, so one
                // request can be refused more than the default 8 times in a row (about one run
                // in four, with 8): the limit releases waiting requests together, not in the
                // order they were refused. Allowed 30 here, the test holds what it is about:
                // every request is answered in the end, none errors.
                var chat = provider(.openai, server, retry: RetryPolicy(maxRetries: 4, initialDelay: 0.05, maxDelay: 0.2, maxRateLimitRetries: 30),
                                    transport: adaptiveTransport, realTime: true)
                chat.limit = limit
                chat.maxTokensCap = 20
                return chat
            }()
            let failures = try await withThrowingTaskGroup(of: Int.self) { group in
                var slots = 0, failures = 0
                for _ in 0..<145 {
                    if slots == 16 { failures += try await group.next() ?? 0; slots -= 1 }
                    group.addTask {
                        do { _ = try await chat.complete(sampleRequest); return 0 } catch { errors.append("\(error)"); return 1 }
                    }
                    slots += 1
                }
                for try await failed in group { failures += failed }
                return failures
            }
            #expect(failures == 0, "\(errors.all)")
            let rate = try #require(server.server.rateLimit)
            #expect(rate.refusedForTokens > 0, "the bucket ran out")
            #expect(await limit.rateLimited == rate.refusedForTokens)
        }
    }
}

/// Errors collected from concurrent tasks, to say which failed and how.
final class Collected: Sendable {
    private let items = Mutex<[String]>([])
    func append(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
}
