import CoachLab
import Foundation

/// Paths and helpers shared by the core tests.
enum TestSupport {
    /// The package root, found from this file's location.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }()

    /// A file system rooted at the package, so locations read "personas/…" as the CLI prints them.
    static let fileSystem = FileSystem.rooted(at: root)

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
