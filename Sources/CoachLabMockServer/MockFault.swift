import Foundation
import Synchronization

/// A fault the mock server can inject, by configuration or per request with the
/// `x-coachlab-fault` header.
public enum MockFault: String, Sendable, CaseIterable, Hashable {
    /// 429 with `retry-after` and `retry-after-ms` (and Gemini's `RetryInfo`).
    case rateLimit = "429"
    /// 500 with the protocol's server-error body.
    case serverError = "500"
    /// 529 overloaded (503 `UNAVAILABLE` on the Gemini paths).
    case overloaded = "529"
    /// 401 with the protocol's authentication error (Gemini: 400 `API_KEY_INVALID`).
    case unauthorized = "401"
    /// 429 `insufficient_quota`, which must not be retried.
    case quota
    /// 400 with a context-length error.
    case contextLength = "context"
    /// A stream that stops after a few events without its end; a whole body cut in half.
    case cut
    /// A 200 whose body (or stream event) is not JSON.
    case malformed
    /// The first byte arrives only after the configured slow delay.
    case slowFirstByte = "slow"
    /// An Anthropic `overloaded_error` event after HTTP 200, in the middle of a stream.
    case streamError = "stream-error"
}

/// A fault and how many requests it applies to.
public struct MockFaultRule: Sendable, Hashable {
    /// The fault.
    public var fault: MockFault
    /// How many requests it hits before the server answers normally; nil for every request.
    public var times: Int?

    public init(_ fault: MockFault, times: Int? = nil) {
        self.fault = fault
        self.times = times
    }

    /// Parses `KIND` or `KIND:TIMES`, such as `429:2`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let fault = parts.first.flatMap(MockFault.init(rawValue:)) else { return nil }
        self.fault = fault
        if parts.count == 2 {
            guard let times = Int(parts[1]), times >= 0 else { return nil }
            self.times = times
        }
    }
}

/// The mock server's settings.
public struct MockServerConfiguration: Sendable {
    /// The address to bind; loopback by default.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// Seconds from a request's arrival to its response; composing the reply happens within them.
    public var latency: Double
    /// Seconds between stream events.
    public var chunkDelay: Double
    /// Seconds before the first byte under the `slow` fault.
    public var slowDelay: Double
    /// Milliseconds a 429 asks the client to wait.
    public var retryAfterMilliseconds: Int
    /// Faults applied to requests in order: each rule hits `times` requests, then the next applies.
    public var faults: [MockFaultRule]
    /// Requests per second the server admits; more are answered 429 (``MockRateLimit``). Nil, no limit.
    public var requestsPerSecond: Double?
    /// Prompt and output tokens a minute the server admits; more are answered 429. Nil, no limit.
    public var tokensPerMinute: Double?
    /// The time replies are stamped with (OpenAI's `created`). `coachlab serve-mock` passes the
    /// system clock; the default is ``fixedClock``.
    public var clock: @Sendable () -> Date
    /// Imitation app backends served at `/app/{pack}/api/v1/chat` (``MockApp``).
    public var apps: [MockApp] = []
    /// How the batch APIs behave (``MockBatches``).
    public var batches = MockBatchSettings()

    /// Always 2026-01-01T00:00:00Z: a server that was not given a clock never reads the
    /// system's, and the replies it gives a test are the same on every run.
    public static let fixedClock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_767_225_600) }

    public init(host: String = "127.0.0.1", port: Int = 8080, latency: Double = 0, chunkDelay: Double = 0,
                slowDelay: Double = 2, retryAfterMilliseconds: Int = 100, faults: [MockFaultRule] = [],
                requestsPerSecond: Double? = nil, batches: MockBatchSettings = MockBatchSettings(),
                clock: @escaping @Sendable () -> Date = fixedClock) {
        self.requestsPerSecond = requestsPerSecond
        self.batches = batches
        self.clock = clock
        self.host = host
        self.port = port
        self.latency = latency
        self.chunkDelay = chunkDelay
        self.slowDelay = slowDelay
        self.retryAfterMilliseconds = retryAfterMilliseconds
        self.faults = faults
    }
}

/// Hands out configured faults request by request.
final class FaultSchedule: Sendable {
    private let state: Mutex<(rules: [MockFaultRule], requests: Int)>

    init(_ rules: [MockFaultRule]) { state = Mutex((rules, 0)) }

    /// The fault for the next request, if any, and counts the request.
    func next() -> MockFault? {
        state.withLock { state in
            state.requests += 1
            while let first = state.rules.first {
                guard let times = first.times else { return first.fault }
                if times > 0 {
                    state.rules[0].times = times - 1
                    return first.fault
                }
                state.rules.removeFirst()
            }
            return nil
        }
    }

    var count: Int { state.withLock { $0.requests } }
}
