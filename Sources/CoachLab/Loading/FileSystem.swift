import Foundation

/// The file operations CoachLab needs, as a value, so loading and writing can run on any
/// platform and tests can serve and keep files in memory.
///
/// Reading is `read`, `list`, `entries`, `isDirectory`, `exists` and `realPath`; writing is
/// `write` and `remove`, with the conveniences in `FileSystem+Writing.swift`. A file system
/// built for reading only refuses every write with an error.
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
    /// Lists a directory with whether each name is a directory (following links), as `list`
    /// and `isDirectory` together would, in one pass where the platform tells the kind with the
    /// name: a glob over a folder of 10,000 fixtures then asks nothing of each file.
    public var entries: @Sendable (_ path: String) throws -> [Entry]
    /// Writes a file from the pieces `body` emits, creating its folders. Nothing is at `path`
    /// until `body` has returned: the pieces go to a temporary file that then takes the path, so
    /// a reader sees the old file or the whole new one, and an error from `body` (rethrown as
    /// it is) leaves the old file in place. With ``WriteMode/createNew`` a file already at the
    /// path, even one that appeared while `body` ran, is never replaced.
    public var write: @Sendable (_ path: String, _ mode: WriteMode,
                                 _ body: (_ emit: (Data) throws -> Void) throws -> Void) throws -> Void
    /// Removes a file, or a folder with nothing in it; never a folder that holds anything.
    public var remove: @Sendable (_ path: String) throws -> Void
    /// The folder relative paths are read from, for a file system ``rooted(at:)`` one; nil for
    /// the process's working folder, and for one not on the disk. What opens a path by itself
    /// (a database, a process to start) takes it from ``onDisk(_:)``.
    public var directory: String?

    /// How a write treats a file already at its path.
    public enum WriteMode: Sendable, Equatable {
        /// The new file replaces it.
        case replace
        /// The write fails with a usage error at the path, and the file stays as it was.
        case createNew
    }

    /// A name in a directory listing.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var isDirectory: Bool

        public init(name: String, isDirectory: Bool) {
            self.name = name
            self.isDirectory = isDirectory
        }
    }

    /// Creates a file system from its operations; without `entries`, a listing asks
    /// `isDirectory` of each name; without `write` and `remove`, it is read-only, and each write
    /// fails with an error naming the path.
    public init(read: @escaping @Sendable (String) throws -> Data,
                list: @escaping @Sendable (String) throws -> [String],
                isDirectory: @escaping @Sendable (String) -> Bool,
                exists: @escaping @Sendable (String) -> Bool,
                realPath: @escaping @Sendable (String) -> String = { $0 },
                entries: (@Sendable (String) throws -> [Entry])? = nil,
                write: (@Sendable (String, WriteMode, ((Data) throws -> Void) throws -> Void) throws -> Void)? = nil,
                remove: (@Sendable (String) throws -> Void)? = nil) {
        self.read = read
        self.list = list
        self.isDirectory = isDirectory
        self.exists = exists
        self.realPath = realPath
        self.entries = entries ?? { path in
            try list(path).map { Entry(name: $0, isDirectory: isDirectory(Paths.join(path, $0))) }
        }
        self.write = write ?? { path, _, _ in throw FileSystem.readOnly(path, "write") }
        self.remove = remove ?? { path in throw FileSystem.readOnly(path, "remove") }
    }

    /// `path` as the disk knows it: under ``directory`` when it is relative and this file
    /// system has one, else as given (relative to the process's working folder).
    public func onDisk(_ path: String) -> String {
        guard let directory, !path.hasPrefix("/") else { return path }
        return directory + "/" + path
    }

    /// Why a path could not be read, said the same way on disk and in memory; callers put it
    /// after "cannot read file: ".
    public enum ReadFailure: Error, LocalizedError, Equatable {
        case noSuchFile
        case folder

        public var errorDescription: String? {
            switch self {
            case .noSuchFile: "no such file"
            case .folder: "it is a folder, not a file"
            }
        }
    }

    private static func readOnly(_ path: String, _ verb: String) -> CoachLabError {
        CoachLabError(.io, "cannot \(verb) file: this file system is read-only", at: SourceLocation(file: path, line: 1, column: 1))
    }

    /// The real file system, through Foundation (available on Linux, macOS and iOS).
    public static let live = FileSystem(
        read: { path in
            // The path-based read skips building a URL; the URL-based one runs only to explain
            // a failure. Foundation explains a folder on Linux only as "error 256", and a
            // missing file in two sentences; no permission, and the rest, it says well.
            if let data = FileManager.default.contents(atPath: path) { return data }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { throw ReadFailure.folder }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch CocoaError.fileReadNoSuchFile {
                throw ReadFailure.noSuchFile
            }
        },
        list: { path in try FileManager.default.contentsOfDirectory(atPath: path) },
        isDirectory: { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        },
        exists: { path in FileManager.default.fileExists(atPath: path) },
        realPath: { path in URL(fileURLWithPath: path).resolvingSymlinksInPath().path },
        entries: { path in try DirectoryEntries.read(path) },
        write: { path, mode, body in try DiskWrites.store(path, mode: mode, body) },
        remove: { path in try DiskWrites.delete(path) }
    )

    /// The real file system with relative paths read from `directory`, so locations keep the
    /// short relative form (an app can root it at its bundle's resources).
    public static func rooted(at directory: String) -> FileSystem {
        @Sendable func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }
        var rooted = FileSystem(read: { try live.read(absolute($0)) },
                                list: { try live.list(absolute($0)) },
                                isDirectory: { live.isDirectory(absolute($0)) },
                                exists: { live.exists(absolute($0)) },
                                realPath: { live.realPath(absolute($0)) },
                                entries: { try live.entries(absolute($0)) },
                                write: { path, mode, body in try live.write(absolute(path), mode, body) },
                                remove: { try live.remove(absolute($0)) })
        rooted.directory = directory
        return rooted
    }

    /// A file system in memory, starting with `files` (path → text), for tests and embedding:
    /// writes and removals change what later reads see, and folders exist while a file is in
    /// them or was written into them.
    public static func inMemory(_ files: [String: String]) -> FileSystem {
        let store = MemoryFiles(files.mapValues { Data($0.utf8) })
        return FileSystem(read: { try store.read($0) },
                          list: { try store.list($0) },
                          isDirectory: { store.isDirectory($0) },
                          exists: { store.exists($0) },
                          write: { path, mode, body in try store.write(path, mode: mode, body) },
                          remove: { try store.remove($0) })
    }
}

extension FileSystem {
    /// This file system with some files' contents replaced or added by `files` (path → text):
    /// reads of those paths get the text, listings include the added files, and everything else
    /// is read as before. Creating the overlay writes nothing; writes through it go to this file
    /// system, and reads of an overlaid path still get the overlay's text.
    public func overlaying(_ files: [String: String]) -> FileSystem {
        let files = Dictionary(uniqueKeysWithValues: files.map { (Paths.normalize($0.key), $0.value) })
        let base = self
        var overlay = FileSystem(read: { path in
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
                                 },
                                 write: base.write,
                                 remove: base.remove)
        overlay.directory = directory
        return overlay
    }
}

/// Reads a directory with `readdir`, which gives each name's kind with it on the common file
/// systems; a link, or a name whose kind the file system does not give, is looked up with
/// `stat`, which follows links as `isDirectory` does.
enum DirectoryEntries {
    static func read(_ path: String) throws -> [FileSystem.Entry] {
        guard let directory = opendir(path) else {
            // Foundation's listing explains the failure (no such folder, a file, no permission).
            _ = try FileManager.default.contentsOfDirectory(atPath: path)
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { closedir(directory) }
        var entries: [FileSystem.Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let isDirectory: Bool
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): isDirectory = true
            case Int32(DT_REG), Int32(DT_FIFO), Int32(DT_SOCK), Int32(DT_CHR), Int32(DT_BLK): isDirectory = false
            default:
                var status = stat()
                isDirectory = stat(Paths.join(path, name), &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
            }
            entries.append(.init(name: name, isDirectory: isDirectory))
        }
        return entries
    }
}
