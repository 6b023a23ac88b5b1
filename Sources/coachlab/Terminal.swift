import CoachLab
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
}
