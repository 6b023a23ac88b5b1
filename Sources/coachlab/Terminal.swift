import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation
import Synchronization

/// Terminal output: reports to stdout, diagnostics to stderr, both of the current
/// ``Invocation``.
enum Terminal {
    /// Writes to stdout.
    static func out(_ text: String, terminator: String = "\n") {
        Invocation.current.writeOutput(text + terminator)
    }

    /// Writes to stderr.
    static func error(_ text: String, terminator: String = "\n") {
        Invocation.current.writeError(text + terminator)
    }

    /// Keeps `value` until the process exits. A command that is done exits without releasing
    /// what it built one piece at a time (a run's parsed fixtures and compiled packs: several
    /// milliseconds at the end of every eval, for memory the system takes back at once).
    static func keepUntilExit(_ value: any Sendable) {
        guard Invocation.current.ownsProcess else { return }
        kept.withLock { $0.append(value) }
    }

    private static let kept = Mutex<[any Sendable]>([])

    /// Whether stdout is a terminal, for colour.
    static var stdoutIsTerminal: Bool { Invocation.current.outputIsTerminal }

    /// Whether stderr is a terminal, for progress bars.
    static var stderrIsTerminal: Bool { Invocation.current.errorIsTerminal }

    /// The result store a command uses: `option`, else $COACHLAB_STORE, else the default.
    static func storePath(_ option: String?) -> String {
        option ?? Invocation.current.variables["COACHLAB_STORE"] ?? ResultStore.defaultPath
    }

    /// The response cache's folder: the option, $COACHLAB_CACHE, or .coachlab/cache.
    static func cachePath(_ option: String?) -> String {
        option ?? Invocation.current.variables["COACHLAB_CACHE"] ?? ResponseCache.defaultDirectory
    }

    /// Colours `error:` and `warning:` in a diagnostic line when writing to a terminal.
    static func styled(_ diagnostic: String, colour: Bool) -> String {
        guard colour else { return diagnostic }
        return diagnostic
            .replacingOccurrences(of: ": error: ", with: ": \u{1B}[1;31merror:\u{1B}[0m ")
            .replacingOccurrences(of: ": warning: ", with: ": \u{1B}[1;33mwarning:\u{1B}[0m ")
    }
}
