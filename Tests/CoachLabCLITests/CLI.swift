@testable import coachlab
import CoachLabProviders
import CoachLabTestSupport
import Foundation

/// Runs `coachlab` as a user would: its arguments, variables and input in; its exit status,
/// standard output and standard error out.
enum CLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let root = PackageRoot.path

    /// The binary beside the test bundle (same build folder and configuration).
    static let binary: String = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("coachlab").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return root + "/.build/debug/coachlab"
    }()

    /// Runs `coachlab` with `arguments` in `directory`: in this process, as the binary's `main`
    /// would (the binary's behaviour, without spawning it), with that folder as the command's
    /// working folder. Each run gets a response cache and a result store of its own unless the
    /// test names one: answers cached by one test (or by an earlier `swift test`) must never
    /// answer another's, and no test writes into the project's .coachlab folder.
    /// - Parameter now: The command's clock; the system's when nil.
    static func run(_ arguments: [String], in directory: String = root, environment: [String: String] = [:],
                    stdin: String? = nil, now: (@Sendable () -> Date)? = nil) async throws -> Result {
        let isolated = ["COACHLAB_CACHE": Scratch.path("cache"), "COACHLAB_STORE": Scratch.path("store") + "/coachlab.sqlite"]
        let variables = ProcessInfo.processInfo.environment.merging(isolated) { _, new in new }.merging(environment) { _, new in new }
        return try await inProcess(arguments, in: directory, variables: variables, stdin: stdin, now: now)
    }

    /// Runs the command in this process with an ``Invocation`` of its own: `directory` as its
    /// working folder, its variables, its input, its clock, output collected, no terminal, and
    /// an HTTP client of its own, shut down after.
    static func inProcess(_ arguments: [String], in directory: String = root, variables: [String: String],
                          stdin: String?, now: (@Sendable () -> Date)? = nil) async throws -> Result {
        let output = Collected(), error = Collected()
        let lines = Collected(lines: (stdin ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        let transport = AsyncHTTPClientTransport.dedicated()
        var invocation = Invocation(variables: variables, writeOutput: output.append, writeError: error.append,
                                    readLine: lines.next, inputIsTerminal: false, outputIsTerminal: false,
                                    errorIsTerminal: false, transport: transport, ownsProcess: false,
                                    directory: URL(fileURLWithPath: directory).standardizedFileURL.path)
        if let now { invocation.now = now }
        let status = await Invocation.$current.withValue(invocation) { await Main.run(arguments) }
        try await transport.shutdown()
        return Result(status: status, stdout: output.text, stderr: error.text)
    }

    /// Text written by a command, or the lines it reads, behind a lock.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var pieces: [String]

        init(lines: [String] = []) { pieces = lines }

        var text: String { lock.withLock { pieces.joined() } }

        @Sendable func append(_ text: String) { lock.withLock { pieces.append(text) } }

        /// The next line, as `readLine()` gives it: nil at the end (a final empty piece is
        /// the newline that ended the text, not a line).
        @Sendable func next() -> String? {
            lock.withLock {
                guard !pieces.isEmpty, !(pieces.count == 1 && pieces[0].isEmpty) else { return nil }
                return pieces.removeFirst()
            }
        }
    }

    /// Runs the built binary in `directory`, as a user would. Waiting for it blocks a thread,
    /// so it waits on one of Dispatch's own, not on one of the few that run every test's tasks.
    static func spawn(_ arguments: [String], in directory: String = root, variables: [String: String],
                      stdin: String? = nil, executable: String = binary) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try spawnAndWait(arguments, in: directory, variables: variables, stdin: stdin, executable: executable) })
            }
        }
    }

    /// ``spawn(_:in:variables:stdin:)`` on the calling thread, blocking it until the binary exits.
    static func spawnAndWait(_ arguments: [String], in directory: String, variables: [String: String],
                                     stdin: String?, executable: String = binary) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = variables
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data((stdin ?? "").utf8))
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> String {
        try Scratch.folder("cli")
    }
}
