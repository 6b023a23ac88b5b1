import Foundation

/// The file operations content loading needs, as a value, so loading can run on any
/// platform and tests can serve files from memory.
public struct FileSystem: Sendable {
    /// Reads a whole file.
    public var read: @Sendable (_ path: String) throws -> Data
    /// Lists the names in a directory (not recursive).
    public var list: @Sendable (_ path: String) throws -> [String]
    /// Whether a directory exists at the path.
    public var isDirectory: @Sendable (_ path: String) -> Bool
    /// Whether anything exists at the path.
    public var exists: @Sendable (_ path: String) -> Bool
    /// The path with every symbolic link resolved (the path itself where there are none).
    public var realPath: @Sendable (_ path: String) -> String

    /// Creates a file system from its operations.
    public init(read: @escaping @Sendable (String) throws -> Data,
                list: @escaping @Sendable (String) throws -> [String],
                isDirectory: @escaping @Sendable (String) -> Bool,
                exists: @escaping @Sendable (String) -> Bool,
                realPath: @escaping @Sendable (String) -> String = { $0 }) {
        self.read = read
        self.list = list
        self.isDirectory = isDirectory
        self.exists = exists
        self.realPath = realPath
    }

    /// The real file system, through Foundation (available on Linux, macOS and iOS).
    public static let live = FileSystem(
        read: { path in
            // The path-based read skips building a URL; the URL-based one runs only to explain
            // a failure (no such file, a folder, no permission).
            if let data = FileManager.default.contents(atPath: path) { return data }
            return try Data(contentsOf: URL(fileURLWithPath: path))
        },
        list: { path in try FileManager.default.contentsOfDirectory(atPath: path) },
        isDirectory: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        },
        exists: { path in FileManager.default.fileExists(atPath: path) },
        realPath: { path in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
    )

    /// The real file system with relative paths read from `directory`, so locations keep the
    /// short relative form (an app can root it at its bundle's resources).
    public static func rooted(at directory: String) -> FileSystem {
        @Sendable func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }
        return FileSystem(read: { try live.read(absolute($0)) },
                          list: { try live.list(absolute($0)) },
                          isDirectory: { live.isDirectory(absolute($0)) },
                          exists: { live.exists(absolute($0)) },
                          realPath: { live.realPath(absolute($0)) })
    }

    /// A file system over a dictionary of path → text, for tests and embedding.
    public static func inMemory(_ files: [String: String]) -> FileSystem {
        let files = Dictionary(uniqueKeysWithValues: files.map { (Paths.normalize($0.key), $0.value) })
        let directories = Set(files.keys.flatMap { path -> [String] in
            var result: [String] = []
            var directory = Paths.directory(of: path)
            while directory != "." && directory != "/" {
                result.append(directory)
                directory = Paths.directory(of: directory)
            }
            return result + ["."]
        })
        return FileSystem(
            read: { path in
                guard let text = files[Paths.normalize(path)] else {
                    throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
                }
                return Data(text.utf8)
            },
            list: { path in
                let directory = Paths.normalize(path)
                let children = files.keys.filter { Paths.directory(of: $0) == directory }.map(Paths.lastComponent)
                    + directories.filter { Paths.directory(of: $0) == directory && $0 != directory }.map(Paths.lastComponent)
                return Array(Set(children)).sorted()
            },
            isDirectory: { path in directories.contains(Paths.normalize(path)) },
            exists: { path in files[Paths.normalize(path)] != nil || directories.contains(Paths.normalize(path)) }
        )
    }
}

extension FileSystem {
    /// This file system with some files' contents replaced or added by `files` (path → text):
    /// reads of those paths get the text, listings include the added files, and everything else
    /// is read as before. Nothing is written.
    public func overlaying(_ files: [String: String]) -> FileSystem {
        let files = Dictionary(uniqueKeysWithValues: files.map { (Paths.normalize($0.key), $0.value) })
        let base = self
        return FileSystem(read: { path in
                              if let text = files[Paths.normalize(path)] { return Data(text.utf8) }
                              return try base.read(path)
                          },
                          list: { path in
                              let directory = Paths.normalize(path)
                              let added = files.keys.filter { Paths.directory(of: $0) == directory }.map(Paths.lastComponent)
                              let existing = added.isEmpty ? try base.list(path) : ((try? base.list(path)) ?? [])
                              return added.isEmpty ? existing : Array(Set(existing + added)).sorted()
                          },
                          isDirectory: base.isDirectory,
                          exists: { files[Paths.normalize($0)] != nil || base.exists($0) },
                          realPath: { path in
                              // An overlaid file is no link; its folder may be.
                              guard files[Paths.normalize(path)] != nil else { return base.realPath(path) }
                              return Paths.join(base.realPath(Paths.directory(of: path)), Paths.lastComponent(path))
                          })
    }
}
