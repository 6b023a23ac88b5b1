import Foundation

/// Scratch space for one test process.
///
/// Every folder and path handed out lives under a single root in the system's temporary
/// folder, and the root is removed when the process exits, so a `swift test` leaves nothing
/// behind however many tests ran in parallel. A test that wants its files gone sooner may
/// still remove them itself.
public enum Scratch {
    /// This process's root, made on first use; removing it is registered at the same time.
    public static let root: String = {
        let root = NSTemporaryDirectory() + "coachlab-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        return root
    }()

    /// A fresh, empty folder whose name starts with `label`.
    public static func folder(_ label: String) throws -> String {
        let path = path(label)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A fresh path that does not exist yet, for code under test that creates it.
    public static func path(_ label: String) -> String {
        root + "/" + label + "-" + UUID().uuidString
    }
}
