import Foundation

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
