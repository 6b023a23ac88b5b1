import CoachLab
import Foundation
import Synchronization

/// A store's migrations, run once on a background thread. Until they are started (the
/// stores that migrate in place, or never) there is nothing to wait for.
final class StoreMigration: Sendable {
    private let finished = DispatchGroup()
    private let failure = Mutex<CoachLabError?>(nil)

    /// Runs `body` on a background thread; it returns the error that stopped it, if any.
    func start(_ body: @escaping @Sendable () -> CoachLabError?) {
        finished.enter()
        DispatchQueue.global(qos: .userInitiated).async {
            let stopped = body()
            self.failure.withLock { $0 = stopped }
            self.finished.leave()
        }
    }

    /// Waits for the migrations, then throws what stopped them.
    func wait() throws {
        finished.wait()
        if let stopped = failure.withLock({ $0 }) { throw stopped }
    }
}
