import Foundation

/// The package's folder, found from this file's location (the folder holding Package.swift),
/// for tests that read the shipped packs, fixtures and suites whatever folder they run in.
public enum PackageRoot {
    public static let path: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }()
}
