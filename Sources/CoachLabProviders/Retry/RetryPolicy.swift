import Foundation

/// When and how long to wait before retrying, as a pure value that tests drive directly.
///
/// Retryable errors (429 rate limits, 408, 409, 5xx, 529 and overload errors, timeouts and
/// broken connections) are retried with exponential backoff and jitter; a delay the provider
/// asks for (`retry-after-ms`, `retry-after` in seconds or as an HTTP date, Gemini's
/// `RetryInfo.retryDelay`) is honoured up to `maximumServerDelay`. `x-should-retry` overrides
/// the verdict. Everything else fails at once with the provider's own message.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first attempt.
    public var maxRetries: Int
    /// The first backoff delay in seconds.
    public var initialDelay: Double
    /// The largest backoff delay in seconds.
    public var maxDelay: Double
    /// The largest delay a provider may ask for; longer requests are capped to it.
    public var maximumServerDelay: Double
    /// The fraction of each backoff delay that is random (0 for none).
    public var jitter: Double
    /// Retries of timeouts, within `maxRetries`. A request that ran out of time once will
    /// usually do so again (a slow local model, an answer that rambles to its token limit), so
    /// by default it is retried once, not three times: four 120 s attempts were eight minutes.
    public var maxTimeoutRetries: Int
    /// Retries of rate limits, counted apart from `maxRetries`: a 429 is the provider pacing a
    /// run, not a failing request, and under an adaptive limit many requests meet one at once.
    public var maxRateLimitRetries: Int

    /// Creates a policy. The defaults follow the official SDKs: 0.5 s doubling to 8 s, and
    /// server-directed delays capped at 120 s; CoachLab retries three times, not two.
    public init(maxRetries: Int = 3, initialDelay: Double = 0.5, maxDelay: Double = 8, maximumServerDelay: Double = 120,
                jitter: Double = 0.25, maxTimeoutRetries: Int = 1, maxRateLimitRetries: Int = 8) {
        self.maxRetries = maxRetries
        self.maxRateLimitRetries = maxRateLimitRetries
        self.maxTimeoutRetries = maxTimeoutRetries
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maximumServerDelay = maximumServerDelay
        self.jitter = jitter
    }

    /// No retries.
    public static let none = RetryPolicy(maxRetries: 0, maxRateLimitRetries: 0)

    /// The policy in words, for the line a live run prints.
    public var summary: String {
        guard maxRetries > 0 || maxRateLimitRetries > 0 else { return "no retries" }
        guard maxRetries > 0 else { return "up to \(maxRateLimitRetries) retries of rate limits, none of other errors" }
        let timeouts = min(maxTimeoutRetries, maxRetries)
        return "up to \(maxRetries) retr\(maxRetries == 1 ? "y" : "ies") of overloads and server errors, \(maxRateLimitRetries) of rate limits, "
            + (timeouts == 0 ? "none of timeouts" : "\(timeouts) of timeouts")
    }

    /// The delay before retry number `retry` (1 for the first retry) after `error`, or nil
    /// when the error must not be retried or retries are used up. `timeouts` counts the
    /// attempts so far that timed out, this one included; `rateLimits` those refused for a rate
    /// limit, this one included, which `maxRateLimitRetries` bounds apart from the others (nil:
    /// they count within `maxRetries`). `random` is in 0..<1.
    public func delay(beforeRetry retry: Int, after error: ProviderError, timeouts: Int = 0, rateLimits: Int? = nil,
                      random: Double) -> Double? {
        guard error.isRetryable else { return nil }
        if let rateLimits {
            if error.code == .rateLimited {
                guard rateLimits <= maxRateLimitRetries else { return nil }
            } else {
                guard retry - rateLimits <= maxRetries else { return nil }
            }
        } else {
            guard retry <= maxRetries else { return nil }
        }
        if error.code == .timeout, timeouts > maxTimeoutRetries { return nil }
        if let asked = error.retryAfter, asked >= 0 {
            return min(asked, maximumServerDelay)
        }
        let base = min(initialDelay * pow(2, Double(retry - 1)), maxDelay)
        return base * (1 - jitter * random)
    }

    /// The delay a response asks for, from `retry-after-ms`, then `retry-after` (seconds or
    /// an HTTP date, relative to `now`).
    public static func serverDelay(headers: [(String, String)], now: Date) -> Double? {
        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name }?.1.trimmingCharacters(in: .whitespaces)
        }
        if let milliseconds = header("retry-after-ms").flatMap(Double.init), milliseconds >= 0 {
            return milliseconds / 1000
        }
        guard let value = header("retry-after") else { return nil }
        if let seconds = Double(value), seconds >= 0 { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// A Go-style or protobuf duration such as "22s", "1.5s", "500ms" or "1m30s", in seconds.
    public static func duration(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var unit = ""
        var parsedAny = false
        func flush() -> Bool {
            guard let value = Double(number) else { return false }
            switch unit {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s", "": total += value
            case "ms": total += value / 1000
            case "us", "µs": total += value / 1_000_000
            case "ns": total += value / 1_000_000_000
            default: return false
            }
            parsedAny = true
            number = ""
            unit = ""
            return true
        }
        for character in text.trimmingCharacters(in: .whitespaces) {
            if character.isNumber || character == "." {
                if !unit.isEmpty { guard flush() else { return nil } }
                number.append(character)
            } else {
                unit.append(character)
            }
        }
        guard !number.isEmpty, flush() else { return parsedAny && number.isEmpty && unit.isEmpty ? total : nil }
        return total
    }
}
