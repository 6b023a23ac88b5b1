import Foundation
import Synchronization

/// serve-mock's rate limit: requests per second, as a token bucket holding one second's worth
/// (so a burst of that many passes, then requests are admitted at the rate). A request over it
/// is answered 429 with how long until the next one is admitted, as `retry-after-ms`, and
/// OpenAI's and Anthropic's rate-limit headers. The rate can change while serving, as a
/// provider's limit does when a tier or a time of day changes.
public final class MockRateLimit: Sendable {
    private let state: Mutex<(rate: Double, tokens: Double, last: ContinuousClock.Instant, admitted: Int, refused: Int)>
    private let clock = ContinuousClock()

    /// - Parameter requestsPerSecond: The rate; above 0.
    public init(requestsPerSecond: Double) {
        state = Mutex((rate: requestsPerSecond, tokens: max(1, requestsPerSecond), last: clock.now, admitted: 0, refused: 0))
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
