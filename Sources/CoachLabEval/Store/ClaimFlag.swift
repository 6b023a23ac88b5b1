import Synchronization

/// A flag the first claim sets.
final class ClaimFlag: Sendable {
    private let claimed = Mutex(false)

    /// Whether anyone has claimed it.
    var isClaimed: Bool { claimed.withLock { $0 } }

    /// True for the first caller only.
    func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
