import Synchronization

/// A set of hashes shared by the tasks that record results.
final class KeptHashes: Sendable {
    private let hashes = Mutex(Set<String>())

    func contains(_ hash: String) -> Bool { hashes.withLock { $0.contains(hash) } }
    func insert(_ new: [String]) {
        guard !new.isEmpty else { return }
        hashes.withLock { $0.formUnion(new) }
    }
}
