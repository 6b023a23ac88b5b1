import Foundation
import Synchronization

/// Packs loaded once each for one piece of work that reaches the same pack from several
/// places: `coachlab lint` loads a pack it was named, the pack of every fixture, and the pack
/// of every guardrail dataset, which are mostly the same five folders.
///
/// Loading reads the files and runs every lint check on them, so it is the costly part of a
/// lint. ``load(_:)`` keeps what it loaded; ``preload(_:)`` loads many on every core.
package final class PackShelf: Sendable {
    private let loader: PackLoader
    private let loaded = Mutex<[String: PackLoadResult]>([:])

    package init(fileSystem: FileSystem) {
        loader = PackLoader(fileSystem: fileSystem)
    }

    /// The pack at `path`, loaded on first use.
    package func load(_ path: String) -> PackLoadResult {
        if let known = loaded.withLock({ $0[path] }) { return known }
        let result = loader.load(path)
        loaded.withLock { $0[path] = result }
        return result
    }

    /// Loads every pack in `paths` not yet on the shelf, on every core.
    package func preload(_ paths: some Sequence<String>) {
        var seen = Set<String>()
        let missing = loaded.withLock { loaded in paths.filter { loaded[$0] == nil && seen.insert($0).inserted } }
        let results = missing.concurrentMap { [loader] in loader.load($0) }
        loaded.withLock { loaded in
            for (path, result) in zip(missing, results) { loaded[path] = result }
        }
    }
}
