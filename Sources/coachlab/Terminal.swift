import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation

/// Terminal output: reports to stdout, diagnostics to stderr.
enum Terminal {
    /// Writes to stdout.
    static func out(_ text: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }

    /// Writes to stderr.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether stdout is a terminal, for colour.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// Whether stderr is a terminal, for progress bars.
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// The result store a command uses: `option`, else $COACHLAB_STORE, else the default.
    static func storePath(_ option: String?) -> String {
        option ?? ProcessInfo.processInfo.environment["COACHLAB_STORE"] ?? ResultStore.defaultPath
    }

    /// The response cache's folder: the option, $COACHLAB_CACHE, or .coachlab/cache.
    static func cachePath(_ option: String?) -> String {
        option ?? ProcessInfo.processInfo.environment["COACHLAB_CACHE"] ?? ResponseCache.defaultDirectory
    }

    /// Colours `error:` and `warning:` in a diagnostic line when writing to a terminal.
    static func styled(_ diagnostic: String, colour: Bool) -> String {
        guard colour else { return diagnostic }
        return diagnostic
            .replacingOccurrences(of: ": error: ", with: ": \u{1B}[1;31merror:\u{1B}[0m ")
            .replacingOccurrences(of: ": warning: ", with: ": \u{1B}[1;33mwarning:\u{1B}[0m ")
    }
}

/// Writing files for the commands.
enum Files {
    /// Reads a UTF-8 text file.
    static func read(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self)
    }

    /// Reads a file's bytes, for readers that report invalid UTF-8 at its place.
    static func data(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CoachLabError(.io, "cannot read file: \(error.localizedDescription)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// Writes text, creating parent folders.
    static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw CoachLabError(.io, "cannot write file: \(error.localizedDescription)",
                                         at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// Removes a file this command wrote earlier; a failure is an error, never passed over, so
    /// the manifest is not rewritten without a file that is still there.
    static func remove(_ path: String) throws {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw CoachLabError(.io, "cannot remove file: \(error.localizedDescription)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// Writes text to a file that must not exist yet, creating parent folders: for output a
    /// person reviews and edits, which a second run must never replace.
    static func writeNew(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CoachLabError(usage: "\(path) exists, and is never overwritten", hint: "name a new file, or move that one away")
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .withoutOverwriting)
        } catch {
            throw CoachLabError(.io, "cannot write file: \(error.localizedDescription)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// Writes a file a piece at a time through `render` (into a temporary file that replaces
    /// `path` when complete), for reports too large to build as one string.
    static func stream(to path: String, _ render: ((String) throws -> Void) throws -> Void) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        func failure(_ error: Error) -> CoachLabError {
            CoachLabError(.io, "cannot write file: \(error.localizedDescription)", at: SourceLocation(file: path, line: 1, column: 1))
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            let handle = try FileHandle(forWritingTo: temporary)
            var buffer = Data()
            do {
                try render { piece in
                    buffer.append(contentsOf: piece.utf8)
                    if buffer.count >= 1 << 16 {
                        try handle.write(contentsOf: buffer)
                        buffer.removeAll(keepingCapacity: true)
                    }
                }
                try handle.write(contentsOf: buffer)
                try handle.close()
            } catch {
                try? handle.close()
                try? FileManager.default.removeItem(at: temporary)
                throw error
            }
            _ = try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: temporary, to: url)
        } catch let error as CoachLabError {
            throw error
        } catch {
            throw failure(error)
        }
    }
}
