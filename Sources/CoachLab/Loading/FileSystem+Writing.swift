import Foundation
import Synchronization

extension FileSystem {
    /// Reads a whole file, failing with an error located at the file.
    /// - Throws: ``CoachLabError`` (io) when it cannot be read.
    public func data(at path: String) throws -> Data {
        do {
            return try read(path)
        } catch {
            throw CoachLabError(.io, "cannot read file: \(error.localizedDescription)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// Reads a whole file as UTF-8 text (see ``data(at:)``).
    public func text(at path: String) throws -> String {
        String(decoding: try data(at: path), as: UTF8.self)
    }

    /// Writes `text` to `path` (see ``write``): whole, creating folders.
    public func write(_ text: String, to path: String, mode: WriteMode = .replace) throws {
        try write(Data(text.utf8), to: path, mode: mode)
    }

    /// Writes `data` to `path` (see ``write``): whole, creating folders.
    public func write(_ data: Data, to path: String, mode: WriteMode = .replace) throws {
        try write(path, mode) { emit in try emit(data) }
    }

    /// Writes a file a piece at a time through `render`, for reports too large to build as one
    /// string; the pieces are gathered into blocks of 64 KiB before they are written.
    public func stream(to path: String, mode: WriteMode = .replace, _ render: ((String) throws -> Void) throws -> Void) throws {
        try write(path, mode) { emit in
            try withoutActuallyEscaping(emit) { emit in
                var buffer = Data()
                try render { piece in
                    buffer.append(contentsOf: piece.utf8)
                    if buffer.count >= 1 << 16 {
                        try emit(buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                try emit(buffer)
            }
        }
    }

    /// Writes `text` to `path` unless a file is there that is not of `kind`: for output that
    /// lands beside a person's own files (a fixture recorded by `chat --save`, an exported
    /// coach, a report), where a mistyped path must not cost someone their work.
    /// - Throws: what ``checkReplaceable(_:by:)`` throws; nothing is written then.
    public func write(_ text: String, to path: String, replacing kind: OutputKind) throws {
        try checkReplaceable(path, by: kind)
        try write(text, to: path)
    }

    /// ``stream(to:mode:_:)`` to a path that is free or holds a file of `kind`.
    public func stream(to path: String, replacing kind: OutputKind, _ render: ((String) throws -> Void) throws -> Void) throws {
        try checkReplaceable(path, by: kind)
        try stream(to: path, render)
    }

    /// Checks that a command may write `path`: nothing is there, an empty file (which holds no
    /// one's work: CI's `$GITHUB_STEP_SUMMARY` starts so), or a file `kind` recognises as one
    /// of its own. A command calls it before its work as well as at the write, so that a
    /// refused path costs no work.
    /// - Throws: ``CoachLabError`` (usage) at the path when a file there is not of `kind`, or
    ///   when the path is a folder.
    public func checkReplaceable(_ path: String, by kind: OutputKind) throws {
        let location = SourceLocation(file: path, line: 1, column: 1)
        if isDirectory(path) {
            throw CoachLabError(.usage, "\(path) is a folder; name a file to write", at: location)
        }
        guard exists(path) else { return }
        let existing = try data(at: path)
        let blank = existing.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        guard blank || kind.recognises(String(decoding: kind.opening.map { existing.prefix($0) } ?? existing, as: UTF8.self)) else {
            throw CoachLabError(.usage, "\(path) exists and is not \(kind.name); it is never overwritten", at: location,
                                hint: "name a new file, or move that one away")
        }
    }

    /// The error of a ``WriteMode/createNew`` write that finds a file at its path.
    static func exists(_ path: String) -> CoachLabError {
        CoachLabError(.usage, "\(path) exists, and is never overwritten", at: SourceLocation(file: path, line: 1, column: 1),
                      hint: "name a new file, or move that one away")
    }
}

/// A kind of file a command writes where a person's own files may be, and how to tell one
/// from its text (by the mark or the opening the command puts in each), so that the command
/// replaces only a file of its own kind: see ``FileSystem/checkReplaceable(_:by:)``.
public struct OutputKind: Sendable {
    /// What the files are, for messages: "a fixture chat --save recorded".
    public var name: String
    /// Whether a file's text is one of these.
    public var recognises: @Sendable (String) -> Bool
    /// How many bytes from the start `recognises` needs (a report tells by how it opens, and
    /// may be tens of megabytes), or nil for the whole file.
    public var opening: Int?

    public init(_ name: String, opening: Int? = nil, recognises: @escaping @Sendable (String) -> Bool) {
        self.name = name
        self.opening = opening
        self.recognises = recognises
    }

    /// A fixture `chat --save` recorded.
    public static let recording = OutputKind("a fixture chat --save recorded", recognises: FixtureRecording.isRecording)
    /// A portable coach file `coach export` wrote.
    public static let coachExport = OutputKind("a portable coach file", recognises: CoachDocuments.isExport)
    /// A coach `generate coach` wrote.
    public static let generatedCoach = OutputKind("a coach generate coach wrote", recognises: CoachDocuments.isGenerated)
    /// A JSON Schema `schema --out` wrote: its `$id` is under CoachLab's schema address.
    public static let schema = OutputKind("a CoachLab JSON Schema", opening: 4096) { $0.hasPrefix(JSONSchemaEmitter.opening) }
}

/// The files of ``FileSystem/inMemory(_:)``: a dictionary of path → bytes behind a lock, with
/// the folders that hold them.
final class MemoryFiles: Sendable {
    private let state: Mutex<State>

    private struct State {
        var files: [String: Data] = [:]
        var directories: Set<String> = ["."]

        /// Throws where a write to `path` must fail: a folder there, a file where a folder of
        /// its path should be, or any file there under `createNew`.
        func checkWritable(_ path: String, mode: FileSystem.WriteMode) throws {
            let location = SourceLocation(file: path, line: 1, column: 1)
            if directories.contains(path) { throw CoachLabError(.io, "cannot write file: \(path) is a folder", at: location) }
            var folder = Paths.directory(of: path)
            while folder != "." && folder != "/" {
                if files[folder] != nil { throw CoachLabError(.io, "cannot write file: \(folder) is a file, not a folder", at: location) }
                folder = Paths.directory(of: folder)
            }
            if mode == .createNew, files[path] != nil { throw FileSystem.exists(path) }
        }

        /// Keeps `data` at `path` with the folders above it.
        mutating func store(_ path: String, _ data: Data) {
            files[path] = data
            var folder = Paths.directory(of: path)
            while folder != "." && folder != "/" && directories.insert(folder).inserted {
                folder = Paths.directory(of: folder)
            }
        }
    }

    init(_ files: [String: Data]) {
        var state = State()
        for (path, data) in files { state.store(Paths.normalize(path), data) }
        self.state = Mutex(state)
    }

    func read(_ path: String) throws -> Data {
        guard let data = state.withLock({ $0.files[Paths.normalize(path)] }) else {
            throw isDirectory(path) ? FileSystem.ReadFailure.folder : FileSystem.ReadFailure.noSuchFile
        }
        return data
    }

    func list(_ path: String) throws -> [String] {
        let directory = Paths.normalize(path)
        return state.withLock { state in
            let names = state.files.keys.filter { Paths.directory(of: $0) == directory }.map(Paths.lastComponent)
                + state.directories.filter { Paths.directory(of: $0) == directory && $0 != directory }.map(Paths.lastComponent)
            return Array(Set(names)).sorted()
        }
    }

    func isDirectory(_ path: String) -> Bool {
        state.withLock { $0.directories.contains(Paths.normalize(path)) }
    }

    func exists(_ path: String) -> Bool {
        let path = Paths.normalize(path)
        return state.withLock { $0.files[path] != nil || $0.directories.contains(path) }
    }

    func write(_ path: String, mode: FileSystem.WriteMode, _ body: ((Data) throws -> Void) throws -> Void) throws {
        let path = Paths.normalize(path)
        try state.withLock { try $0.checkWritable(path, mode: mode) }
        var data = Data()
        try body { data.append($0) }
        try state.withLock { state in
            try state.checkWritable(path, mode: mode)
            state.store(path, data)
        }
    }

    func remove(_ path: String) throws {
        let path = Paths.normalize(path)
        try state.withLock { state in
            if state.files.removeValue(forKey: path) != nil { return }
            let location = SourceLocation(file: path, line: 1, column: 1)
            guard state.directories.contains(path) else { throw CoachLabError(.io, "cannot remove: no such file or folder", at: location) }
            let inside = path == "." ? "" : path + "/"
            guard !state.files.keys.contains(where: { $0.hasPrefix(inside) }), !state.directories.contains(where: { $0.hasPrefix(inside) }) else {
                throw CoachLabError(.io, "cannot remove: the folder is not empty", at: location)
            }
            state.directories.remove(path)
        }
    }
}

/// The writes of ``FileSystem/live``, in POSIX calls: each file is written to a temporary file
/// beside it, which then takes the path by `rename` (replacing) or `link` (never replacing).
package enum DiskWrites {
    static func store(_ path: String, mode: FileSystem.WriteMode, _ body: ((Data) throws -> Void) throws -> Void) throws {
        let location = SourceLocation(file: path, line: 1, column: 1)
        func failure(_ code: Int32) -> CoachLabError {
            CoachLabError(.io, "cannot write file: \(String(cString: strerror(code)))", at: location)
        }
        if mode == .createNew, FileManager.default.fileExists(atPath: path) { throw FileSystem.exists(path) }
        let folder = Paths.directory(of: path)
        if let reason = makeFolders(folder) {
            throw CoachLabError(.io, "cannot write file: cannot create its folder \(folder): \(reason)", at: location)
        }
        let temporary = Paths.join(folder, ".\(Paths.lastComponent(path)).\(getpid())-\(UInt32.random(in: .min ... .max)).partial")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure(errno) }
        // A file that is replaced keeps its permissions: a memory file someone made private
        // stays private.
        var existing = stat()
        if mode == .replace, stat(path, &existing) == 0 { _ = fchmod(descriptor, existing.st_mode & 0o7777) }
        do {
            try body { data in try writeAll(data, to: descriptor, failure: failure) }
            let closed = close(descriptor)
            if closed != 0 { throw failure(errno) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        try place(temporary, at: path, mode: mode, failure: failure)
    }

    /// Makes `folder` and the folders above it that are missing, as `mkdir -p` does: nil when
    /// it is there, else why not, in the system's words ("Not a directory" when a file stands
    /// where a folder should). Foundation's own error says only "The operation could not be
    /// completed" on Linux.
    package static func makeFolders(_ folder: String) -> String? {
        var status = stat()
        if stat(folder.isEmpty ? "." : folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return nil }
        var made = folder.hasPrefix("/") ? "/" : ""
        for component in folder.split(separator: "/") where component != "." {
            made += (made.isEmpty || made.hasSuffix("/") ? "" : "/") + component
            if mkdir(made, 0o777) != 0, errno != EEXIST { return String(cString: strerror(errno)) }
        }
        guard stat(folder.isEmpty ? "." : folder, &status) == 0 else { return String(cString: strerror(errno)) }
        return status.st_mode & S_IFMT == S_IFDIR ? nil : String(cString: strerror(ENOTDIR))
    }

    static func delete(_ path: String) throws {
        if unlink(path) == 0 { return }
        var code = errno
        // A folder: `rmdir` removes it only when it is empty.
        if code == EISDIR || code == EPERM, FileSystem.live.isDirectory(path) {
            if rmdir(path) == 0 { return }
            code = errno
        }
        throw CoachLabError(.io, "cannot remove: \(String(cString: strerror(code)))", at: SourceLocation(file: path, line: 1, column: 1))
    }

    /// Gives the finished temporary file its path.
    private static func place(_ temporary: String, at path: String, mode: FileSystem.WriteMode,
                              failure: (Int32) -> CoachLabError) throws {
        defer { unlink(temporary) }
        switch mode {
        case .replace:
            guard rename(temporary, path) == 0 else { throw failure(errno) }
        case .createNew:
            if link(temporary, path) == 0 { return }
            let code = errno
            if code == EEXIST { throw FileSystem.exists(path) }
            // A file system without hard links: claim the name with an exclusive create, which
            // fails if a file is there, then rename over the empty file this call just made.
            let claim = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard claim >= 0 else { throw errno == EEXIST ? FileSystem.exists(path) : failure(errno) }
            close(claim)
            guard rename(temporary, path) == 0 else {
                let code = errno
                unlink(path)
                throw failure(code)
            }
        }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, failure: (Int32) -> CoachLabError) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard var next = bytes.baseAddress else { return }
            var left = bytes.count
            while left > 0 {
                let count = write(descriptor, next, left)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure(errno)
                }
                next += count
                left -= count
            }
        }
    }
}
