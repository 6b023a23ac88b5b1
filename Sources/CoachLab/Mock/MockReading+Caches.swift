import Foundation

/// The last few hundred readings, by prompt text.
final class ReadingCache: @unchecked Sendable {
    static let shared = ReadingCache()
    private let lock = NSLock()
    /// A cell per prompt: cases that ask for a prompt's reading while another case is reading
    /// it wait for that reading rather than make their own.
    private var readings: [SampledTextKey: Once<MockReading>] = [:]

    func reading(_ system: String) -> MockReading {
        let key = SampledTextKey(system)
        let cell = lock.withLock {
            if let cell = readings[key] { return cell }
            if readings.count >= 512 { readings.removeAll(keepingCapacity: true) }
            let cell = Once<MockReading>()
            readings[key] = cell
            return cell
        }
        return cell.value { MockReading(system: system) }
    }
}

/// What each prompt line said (``MockReading/LineReading``), by its text and whether it sits
/// in the alert.
enum LineCache {
    static let shared = BoundedCache<String, MockReading.LineReading>(bound: 16_384)

    static func reading(_ line: String, inAlert: Bool, read: () -> MockReading.LineReading) -> MockReading.LineReading {
        shared.value(for: (inAlert ? "a" : "-") + line, compute: read)
    }
}
