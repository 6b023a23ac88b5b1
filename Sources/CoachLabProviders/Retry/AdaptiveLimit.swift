import Foundation
import Synchronization

/// How many requests a provider is sent at once, adapted to the limits it meets (additive
/// increase, multiplicative decrease): it starts at the configured concurrency, its ceiling;
/// a rate limit (429) or an overload (529, 503) halves it, once for the requests sent before the
/// cut, so the 429s of requests already in flight do not cut it again; each success grows it by one over the
/// current limit, so it climbs back by one a round. A `retry-after` the provider sends, or its
/// rate-limit headers saying no request is left until a reset (OpenAI's
/// `x-ratelimit-remaining-requests` and `x-ratelimit-reset-requests`, Anthropic's
/// `anthropic-ratelimit-requests-remaining` and `-reset`, and the same for tokens), hold every
/// new request until then.
public actor AdaptiveLimit {
    /// The most requests at once: the configured concurrency.
    public let ceiling: Int
    /// The current limit; requests start while fewer than its whole part are in flight.
    public private(set) var limit: Double
    /// Responses that were rate limits or overloads.
    public private(set) var rateLimited = 0
    /// How many times the limit was cut.
    public private(set) var cuts = 0
    /// Requests sent.
    public private(set) var sent = 0
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var pausedUntil: ContinuousClock.Instant?
    private var lastCut: ContinuousClock.Instant?
    private let clock = ContinuousClock()

    public init(ceiling: Int) {
        self.ceiling = max(1, ceiling)
        limit = Double(self.ceiling)
    }

    /// The limit as requests at once.
    public var current: Int { max(1, Int(limit)) }

    /// What the run met, for people: "12 of 2,000 requests rate-limited (0.6%); concurrency cut
    /// 3 times, 40 of 64 at the end"; nil when it met no limit.
    public var summary: String? {
        guard rateLimited > 0 else { return nil }
        return "\(rateLimited) of \(sent) requests rate-limited or overloaded (" + String(format: "%.1f%%", 100 * Double(rateLimited) / Double(max(sent, 1)))
            + "); concurrency cut \(cuts) time\(cuts == 1 ? "" : "s"), \(current) of \(ceiling) at the end"
    }

    /// Waits for room to send a request, and says when it was given; every acquire is followed
    /// by one ``release(started:status:headers:)``.
    public func acquire() async throws -> ContinuousClock.Instant {
        while true {
            try Task.checkCancellation()
            if let until = pausedUntil, until > clock.now {
                try await Task.sleep(until: until, clock: clock)
                continue
            }
            if inFlight < current {
                inFlight += 1
                sent += 1
                return clock.now
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    /// Gives back a request's room, learning from its response: when it was sent (from
    /// ``acquire()``), its status (0 when none came, a broken connection) and its headers.
    public func release(started: ContinuousClock.Instant, status: Int, headers: [HTTPHeader] = []) {
        inFlight -= 1
        let now = clock.now
        if status == 429 || status == 529 || status == 503 {
            rateLimited += 1
            // Only a request sent after the last cut says the cut limit is still too high.
            if lastCut.map({ started > $0 }) ?? true {
                limit = max(1, limit / 2)
                cuts += 1
                lastCut = now
            }
        } else if (200..<300).contains(status) {
            limit = min(Double(ceiling), limit + 1 / limit)
        }
        if let wait = Self.wait(status: status, headers: headers, now: Date()), wait > 0 {
            let until = now.advanced(by: .milliseconds(Int((wait * 1000).rounded(.up))))
            pausedUntil = max(pausedUntil ?? until, until)
        }
        // Wake as many as there is room for; each checks again.
        var room = current - inFlight
        while room > 0, !waiting.isEmpty {
            waiting.removeFirst().resume()
            room -= 1
        }
    }

    /// Seconds to hold new requests, from a response's headers: `retry-after-ms`, `retry-after`
    /// (seconds) on a rate limit; on any response, a reset when the provider says no request is
    /// left. Nil when nothing says to wait.
    static func wait(status: Int, headers: [HTTPHeader], now: Date) -> Double? {
        func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name }?.value.trimmingCharacters(in: .whitespaces) }
        if status == 429 || status == 529 || status == 503 {
            if let ms = header("retry-after-ms").flatMap(Double.init) { return ms / 1000 }
            if let seconds = header("retry-after").flatMap(Double.init) { return seconds }
        }
        // No request, or no token, left: hold until the later reset.
        var waits: [Double] = []
        for unit in ["requests", "tokens"] {
            if header("x-ratelimit-remaining-\(unit)") == "0", let reset = header("x-ratelimit-reset-\(unit)").flatMap(duration) { waits.append(reset) }
            if header("anthropic-ratelimit-\(unit)-remaining") == "0", let reset = header("anthropic-ratelimit-\(unit)-reset"),
               let date = ISO8601DateFormatter().date(from: reset) {
                waits.append(max(0, date.timeIntervalSince(now)))
            }
        }
        return waits.max()
    }

    /// OpenAI's reset durations: "1s", "120ms", "6m0s", "1h2m3.5s".
    static func duration(_ text: String) -> Double? {
        var total = 0.0, number = "", rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while let character = rest.first {
            if character.isNumber || character == "." {
                number.append(character)
                rest = rest.dropFirst()
                continue
            }
            guard let value = Double(number) else { return nil }
            if rest.hasPrefix("ms") { total += value / 1000; rest = rest.dropFirst(2) }
            else if rest.hasPrefix("h") { total += value * 3600; rest = rest.dropFirst() }
            else if rest.hasPrefix("m") { total += value * 60; rest = rest.dropFirst() }
            else if rest.hasPrefix("s") { total += value; rest = rest.dropFirst() }
            else { return nil }
            number = ""
        }
        return number.isEmpty ? total : nil
    }
}

/// Each provider's ``AdaptiveLimit``, by id, shared by every provider a registry makes for it:
/// the cases of a run that go to one provider meet its limits together.
public final class AdaptiveLimits: Sendable {
    private let limits = Mutex<[String: AdaptiveLimit]>([:])

    public init() {}

    /// The limit of `provider`, made with `ceiling` the first time.
    public func limit(for provider: String, ceiling: Int) -> AdaptiveLimit {
        limits.withLock { limits in
            if let limit = limits[provider] { return limit }
            let limit = AdaptiveLimit(ceiling: ceiling)
            limits[provider] = limit
            return limit
        }
    }

    /// Every provider's limit, by id.
    public var all: [String: AdaptiveLimit] { limits.withLock { $0 } }
}
