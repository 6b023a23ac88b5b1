import Foundation
import Synchronization

/// serve-mock's rate limit: requests per second, as a token bucket holding one second's worth
/// (so a burst of that many passes, then requests are admitted at the rate), and optionally
/// tokens per minute, as a bucket holding a minute's worth that each request draws its prompt
/// and its `max_tokens` from, as OpenAI counts them. A request over either is answered 429 with
/// how long until it would be admitted, as `retry-after-ms`, and OpenAI's and Anthropic's
/// rate-limit headers for requests or tokens. The rates can change while serving, as a
/// provider's limit does when a tier or a time of day changes.
public final class MockRateLimit: Sendable {
    private let state: Mutex<(rate: Double, tokens: Double, last: ContinuousClock.Instant, admitted: Int, refused: Int)>
    /// Tokens a minute, the tokens left in the bucket, when it was last filled, and requests refused for tokens.
    private let tokenState: Mutex<(perMinute: Double, left: Double, last: ContinuousClock.Instant, refused: Int)?>
    private let clock = ContinuousClock()

    /// - Parameters:
    ///   - requestsPerSecond: The rate; above 0. Nil for no limit on requests.
    ///   - tokensPerMinute: Prompt and output tokens a minute; nil for no limit on tokens.
    public init(requestsPerSecond: Double?, tokensPerMinute: Double? = nil) {
        let rate = requestsPerSecond ?? .infinity
        let now = ContinuousClock.now
        state = Mutex((rate: rate, tokens: rate.isFinite ? max(1, rate) : .infinity, last: now, admitted: 0, refused: 0))
        tokenState = Mutex(tokensPerMinute.map { (perMinute: $0, left: $0, last: now, refused: 0) })
    }

    /// Requests refused for tokens so far.
    public var refusedForTokens: Int { tokenState.withLock { $0?.refused ?? 0 } }

    /// Admits a request of `tokens` prompt and output tokens (nil), or says how many
    /// milliseconds until the bucket holds them. A request larger than a minute's worth waits
    /// for a full bucket.
    func admit(tokens: Int) -> Int? {
        let now = clock.now
        return tokenState.withLock { state -> Int? in
            guard var bucket = state else { return nil }
            let elapsed = now - bucket.last
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.left = min(bucket.perMinute, bucket.left + seconds * bucket.perMinute / 60)
            bucket.last = now
            let needed = min(Double(tokens), bucket.perMinute)
            defer { state = bucket }
            if bucket.left >= needed {
                bucket.left -= needed
                return nil
            }
            bucket.refused += 1
            return max(1, Int(((needed - bucket.left) / (bucket.perMinute / 60) * 1000).rounded(.up)))
        }
    }

    /// The headers a request refused for tokens carries, besides `retry-after` and `retry-after-ms`.
    func tokenHeaders(waitMilliseconds wait: Int) -> [(String, String)] {
        let limit = tokenState.withLock { $0?.perMinute ?? 0 }
        let reset = Date().addingTimeInterval(Double(wait) / 1000)
        return [("x-ratelimit-limit-tokens", String(Int(limit))), ("x-ratelimit-remaining-tokens", "0"), ("x-ratelimit-reset-tokens", "\(wait)ms"),
                ("anthropic-ratelimit-tokens-limit", String(Int(limit))), ("anthropic-ratelimit-tokens-remaining", "0"),
                ("anthropic-ratelimit-tokens-reset", ISO8601DateFormatter().string(from: reset))]
    }

    /// Sets the rate from now on.
    public func set(requestsPerSecond rate: Double) {
        let now = clock.now
        state.withLock { state in
            Self.refill(&state, now: now)
            state.rate = rate
            state.tokens = min(state.tokens, max(1, rate))
        }
    }

    /// Requests admitted and refused so far.
    public var counts: (admitted: Int, refused: Int) { state.withLock { ($0.admitted, $0.refused) } }

    /// Admits a request (nil), or says how many milliseconds until one would be.
    func admit() -> Int? {
        let now = clock.now
        return state.withLock { state in
            guard state.rate.isFinite else {
                state.admitted += 1
                return nil
            }
            Self.refill(&state, now: now)
            if state.tokens >= 1 {
                state.tokens -= 1
                state.admitted += 1
                return nil
            }
            state.refused += 1
            return max(1, Int(((1 - state.tokens) / state.rate * 1000).rounded(.up)))
        }
    }

    /// The headers a refused request carries, besides `retry-after` and `retry-after-ms`.
    func headers(waitMilliseconds wait: Int) -> [(String, String)] {
        let rate = state.withLock { $0.rate }
        let reset = Date().addingTimeInterval(Double(wait) / 1000)
        return [("x-ratelimit-limit-requests", String(Int(rate.rounded()))), ("x-ratelimit-remaining-requests", "0"),
                ("x-ratelimit-reset-requests", "\(wait)ms"),
                ("anthropic-ratelimit-requests-limit", String(Int(rate.rounded()))), ("anthropic-ratelimit-requests-remaining", "0"),
                ("anthropic-ratelimit-requests-reset", ISO8601DateFormatter().string(from: reset))]
    }

    private static func refill(_ state: inout (rate: Double, tokens: Double, last: ContinuousClock.Instant, admitted: Int, refused: Int),
                               now: ContinuousClock.Instant) {
        let elapsed = now - state.last
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        state.tokens = min(max(1, state.rate), state.tokens + seconds * state.rate)
        state.last = now
    }
}
