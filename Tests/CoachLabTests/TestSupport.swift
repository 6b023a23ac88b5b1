import CoachLab
import CoachLabTestSupport
import Foundation

/// Paths and helpers shared by the core tests.
enum TestSupport {
    /// The package root.
    static let root = PackageRoot.path

    /// A file system rooted at the package, so locations read "personas/…" as the CLI prints them.
    static let fileSystem = FileSystem.rooted(at: root)

    /// `base` under a layer in memory: reads find the layer's files first, and writes and
    /// removals go to the layer alone, so a test can run a writing command over the shipped
    /// content and look at what it wrote.
    static func layered(over base: FileSystem) -> (fileSystem: FileSystem, layer: FileSystem) {
        let layer = FileSystem.inMemory([:])
        let fileSystem = FileSystem(
            read: { path in layer.exists(path) && !layer.isDirectory(path) ? try layer.read(path) : try base.read(path) },
            list: { path in Array(Set(((try? layer.list(path)) ?? []) + ((try? base.list(path)) ?? []))).sorted() },
            isDirectory: { layer.isDirectory($0) || base.isDirectory($0) },
            exists: { layer.exists($0) || base.exists($0) },
            write: { path, mode, body in try layer.write(path, mode, body) },
            remove: { try layer.remove($0) })
        return (fileSystem, layer)
    }

    /// Loads a shipped pack, failing with its diagnostics.
    static func pack(_ name: String) throws -> Pack {
        try PackLoader(fileSystem: fileSystem).load("personas/\(name)").get()
    }

    /// A compiler for a shipped pack.
    static func compiler(_ name: String) throws -> Compiler {
        try Compiler(pack: pack(name))
    }

    /// Loads a pack from in-memory files.
    static func load(_ files: [String: String], at path: String = "app") -> PackLoadResult {
        PackLoader(fileSystem: .inMemory(files)).load(path)
    }

    /// The names of the shipped packs.
    static var shippedPacks: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/personas")) ?? [])
            .filter { FileManager.default.fileExists(atPath: root + "/personas/\($0)/pack.yaml") }
            .sorted()
    }
}
