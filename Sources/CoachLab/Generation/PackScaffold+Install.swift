extension PackScaffold {
    /// What ``install(_:into:fileSystem:)`` wrote.
    public struct Installation: Sendable, Equatable {
        /// The files written, by path under the folder.
        public var written: [String] = []
        /// When `providers.yaml` was already there (and was left as it was): the scaffold's
        /// providers entry, for the person to add by hand.
        public var providersEntry: String?
        /// The project's own files that were already there and were left as they were
        /// (`.gitignore`, the CI workflow).
        public var leftAlone: [String] = []
    }

    /// Whether a file at `path` could not be written as new: something is there (a file, a
    /// folder, or a link, even one that leads nowhere), or a folder on its way is a file.
    static func isTaken(_ path: String, fileSystem: FileSystem) -> Bool {
        if fileSystem.exists(path) { return true }
        // Up to the first folder that can be listed: a listing names a link that leads nowhere,
        // which `exists` follows and misses.
        var child = path
        while true {
            let folder = Paths.directory(of: child)
            if let names = try? fileSystem.list(folder) {
                guard names.contains(Paths.lastComponent(child)) else { return false }
                return child == path || !fileSystem.isDirectory(child)
            }
            if fileSystem.exists(folder) { return true }  // a file where a folder should be
            guard folder != ".", folder != "/" else { return false }
            child = folder
        }
    }

    /// Writes a new app's files under `folder` ("." for the current one), only ever as new
    /// files: if any of them exists, other than the project's shared files (`providers.yaml`,
    /// `.gitignore`, the CI workflow), nothing at all is written, and a file that appears
    /// between that check and its write is left as it is. An existing shared file is never
    /// touched: `providers.yaml`'s entry is returned instead, and the others are named.
    /// - Parameter files: What ``files(app:name:)`` or ``files(app:name:from:fileSystem:)`` gave.
    /// - Throws: ``CoachLabError`` (usage) naming every clash at its path; (io) when a write fails.
    public static func install(_ files: [(path: String, text: String)], into folder: String, fileSystem: FileSystem) throws -> Installation {
        let providers = "providers.yaml"
        let existing = Set(files.map(\.path).filter { isTaken(Paths.join(folder, $0), fileSystem: fileSystem) })
        let clashes = files.map(\.path).filter { existing.contains($0) && !sharedPaths.contains($0) }
        guard clashes.isEmpty else {
            var error = CoachLabError(.usage, clashes.map {
                .error("already exists; init writes only new files", at: SourceLocation(file: Paths.join(folder, $0), line: 1, column: 1))
            })
            error.message = "init would overwrite \(clashes.count) file\(clashes.count == 1 ? "" : "s"); nothing was written"
            error.hint = "choose another app id, or another folder"
            throw error
        }
        var installation = Installation()
        do {
            for file in files where !existing.contains(file.path) {
                let path = Paths.join(folder, file.path)
                try fileSystem.write(file.text, to: path, mode: .createNew)
                installation.written.append(path)
            }
        } catch {
            // Something appeared after the check (another process): init takes back the files it
            // wrote, so a second try does not refuse on its own leftovers.
            for path in installation.written.reversed() { try? fileSystem.remove(path) }
            throw error
        }
        installation.leftAlone = files.map(\.path).filter { existing.contains($0) && sharedPaths.contains($0) && $0 != providers }
        if existing.contains(providers), let entry = files.first(where: { $0.path == providers }) {
            installation.providersEntry = entry.text.split(separator: "\n").drop { !$0.hasPrefix("  - id:") }.joined(separator: "\n")
        }
        return installation
    }
}
