import Synchronization

/// A value computed by the first caller that asks for it. A caller that asks while it is being
/// computed waits for that result instead of computing it again (``BoundedCache`` keeps one
/// for each key).
///
/// `compute` runs under the cell's own lock, so it must not ask the same cell again.
final class Once<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    /// The value, computed now by `compute` if no caller has computed it yet.
    func value(_ compute: () -> Value) -> Value {
        value.withLock { value in
            if let value { return value }
            let computed = compute()
            value = computed
            return computed
        }
    }

    /// Whether a caller has computed the value, waiting for one that is computing it.
    var isComputed: Bool { value.withLock { $0 != nil } }
}
