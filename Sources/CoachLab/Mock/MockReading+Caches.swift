import Foundation

/// Compiled expressions, kept for the life of the process: the mock reads every prompt with
/// the same few dozen patterns.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    private let lock = NSLock()
    private var expressions: [String: NSRegularExpression] = [:]

    func expression(_ pattern: String, caseSensitive: Bool) -> NSRegularExpression? {
        let key = (caseSensitive ? "s:" : "i:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = expressions[key] { return cached }
        guard let expression = try? NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive]) else { return nil }
        expressions[key] = expression
        return expression
    }
}

/// The last few hundred readings, by prompt text.
final class ReadingCache: @unchecked Sendable {
    static let shared = ReadingCache()
    private let lock = NSLock()
    private var readings: [SampledTextKey: MockReading] = [:]

    func reading(_ system: String) -> MockReading {
        lock.lock()
        let key = SampledTextKey(system)
        if let cached = readings[key] { lock.unlock(); return cached }
        lock.unlock()
        let reading = MockReading(system: system)
        lock.lock()
        if readings.count >= 512 { readings.removeAll(keepingCapacity: true) }
        readings[key] = reading
        lock.unlock()
        return reading
    }
}

/// What each prompt line said (``MockReading/LineReading``), by its text and whether it sits
/// in the alert. Bounded: it starts again when full.
final class LineCache: @unchecked Sendable {
    static let shared = LineCache()
    private let lock = NSLock()
    private var lines: [String: MockReading.LineReading] = [:]

    func reading(_ line: String, inAlert: Bool, read: () -> MockReading.LineReading) -> MockReading.LineReading {
        let key = (inAlert ? "a" : "-") + line
        if let known = lock.withLock({ lines[key] }) { return known }
        let said = read()
        lock.withLock {
            if lines.count >= 16_384 { lines.removeAll(keepingCapacity: true) }
            lines[key] = said
        }
        return said
    }
}
