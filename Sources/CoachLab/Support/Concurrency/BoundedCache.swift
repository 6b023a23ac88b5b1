import Synchronization

/// Values computed from their keys and kept for the process, up to a bound past which the
/// cache starts again, so a long-lived process that reads ever new texts stays small.
///
/// Each value is computed once: a caller that asks for a key while another caller computes
/// it waits for that value (``Once``) rather than computing it again, as two cases that
/// reach a new prompt at the same moment would. A computation must not ask the cache for its
/// own key.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let bound: Int
    private let cells = Mutex<[Key: Once<Value>]>([:])

    init(bound: Int) { self.bound = bound }

    /// The value for `key`, computed by `compute` when the cache does not hold it.
    func value(for key: Key, compute: () -> Value) -> Value {
        let cell = cells.withLock { cells in
            if let cell = cells[key] { return cell }
            if cells.count >= bound { cells.removeAll(keepingCapacity: true) }
            let cell = Once<Value>()
            cells[key] = cell
            return cell
        }
        return cell.value(compute)
    }

    /// How many values the cache holds or is computing.
    var count: Int { cells.withLock { $0.count } }
}
