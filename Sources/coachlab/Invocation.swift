import CoachLab
import CoachLabProviders
import Foundation

/// What one run of a command reads and writes outside its arguments: its environment
/// variables, its working folder, standard input, output and error, and whether those are
/// terminals. The binary runs with ``process``; tests run commands in their own process with
/// ``Invocation/$current`` bound to one of their own, so nothing is spawned and no two tests
/// share variables, folders, streams or HTTP connections (the disk is still the process's).
struct Invocation: Sendable {
    /// Environment variables: the store and cache folders, API keys.
    var variables: [String: String]
    /// Writes to standard output, exactly the text given.
    var writeOutput: @Sendable (String) -> Void
    /// Writes to standard error, exactly the text given.
    var writeError: @Sendable (String) -> Void
    /// The next line of standard input without its newline; nil at its end.
    var readLine: @Sendable () -> String?
    /// Whether standard input is a terminal (chat prompts for each message).
    var inputIsTerminal: Bool
    /// Whether standard output is a terminal (for colour).
    var outputIsTerminal: Bool
    /// Whether standard error is a terminal (for progress bars).
    var errorIsTerminal: Bool
    /// Sends the HTTP requests of live providers.
    var transport: any HTTPTransport
    /// Whether this is the process's own invocation, which may take over Ctrl-C and SIGTERM
    /// and leave memory to the exit; one of several in a process (a test's) does neither.
    var ownsProcess: Bool
    /// The folder relative paths are taken from; nil, the process's working folder.
    var directory: String? = nil
    /// The current time: when runs start and finish, what `generate memory` stamps, the day
    /// `tips` starts from, what serve-mock stamps its replies with.
    var now: @Sendable () -> Date = { Date() }

    /// The files the command reads and writes: the disk, with relative paths taken from
    /// ``directory`` when there is one.
    var fileSystem: FileSystem { directory.map(FileSystem.rooted(at:)) ?? .live }

    /// The process's own: its environment, its standard streams, the shared HTTP client.
    static var process: Invocation {
        Invocation(variables: ProcessInfo.processInfo.environment,
                   writeOutput: { FileHandle.standardOutput.write(Data($0.utf8)) },
                   writeError: { FileHandle.standardError.write(Data($0.utf8)) },
                   readLine: { Swift.readLine() },
                   inputIsTerminal: isatty(STDIN_FILENO) != 0, outputIsTerminal: isatty(STDOUT_FILENO) != 0,
                   errorIsTerminal: isatty(STDERR_FILENO) != 0,
                   transport: SystemEnvironment.live.transport, ownsProcess: true)
    }

    /// The invocation the running command belongs to.
    @TaskLocal static var current: Invocation = .process

    /// The environment providers, caches and stores are given: the live system with this
    /// invocation's variables, files, clock and transport.
    var system: SystemEnvironment {
        var system = SystemEnvironment.live
        system.variables = variables
        system.fileSystem = fileSystem
        system.now = now
        system.transport = transport
        return system
    }
}

extension FileSystem {
    /// The running command's files (``Invocation/fileSystem``).
    static var invocation: FileSystem { Invocation.current.fileSystem }
}
