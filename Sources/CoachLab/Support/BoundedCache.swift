import Foundation

/// Values computed from their keys and kept for the process, up to a bound past which the
/// cache starts again, so a long-lived process that reads ever new texts stays small.
///
/// A value is computed outside the lock: two callers that miss at once may both compute it,
/// and one result is kept. That suits cheap, pure computations asked for from many threads;
/// where computing costs more than waiting, keep ``Once`` cells instead.
final class BoundedCache<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private let bound: Int
    private var values: [Key: Value] = [:]

    init(bound: Int) { self.bound = bound }

    /// The value for `key`, computed by `compute` when the cache does not hold it.
    func value(for key: Key, compute: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let value = compute()
        lock.withLock {
            if values.count >= bound { values.removeAll(keepingCapacity: true) }
            values[key] = value
        }
        return value
    }

    /// How many values the cache holds.
    var count: Int { lock.withLock { values.count } }
}
