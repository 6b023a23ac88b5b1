import CoachLab
import Foundation

/// Runs a `script` check: an executable gets the case as JSON on standard input and answers
/// `{"pass": true|false, "score": 0-1, "reason": "…"}` on standard output.
///
/// A script that cannot start, runs past its timeout, exits non-zero, or answers anything
/// else fails the check with a reason that starts "script error:" and says which, so a
/// broken check is never mistaken for a bad reply.
public enum ScriptCheck {
    /// What the script reads.
    public struct Input: Codable, Sendable, Hashable {
        public struct Message: Codable, Sendable, Hashable {
            public var role: String
            public var text: String
            public init(role: String, text: String) {
                self.role = role
                self.text = text
            }
        }

        /// The check's id.
        public var check: String
        public var suite: String
        public var fixture: String
        public var provider: String
        /// The turn, from 1.
        public var turn: Int
        /// The user's message this turn.
        public var user: String
        /// The reply being scored.
        public var reply: String
        /// The conversation up to and including this reply, oldest first.
        public var transcript: [Message]
        /// The compiled system prompt the reply answered.
        public var system: String
        /// The fixture's compile inputs: pack, variant, coach, topic, intent, profile, memory,
        /// context and now, where set.
        public var inputs: [String: String]

        public init(check: String, suite: String, fixture: String, provider: String, turn: Int, user: String, reply: String,
                    transcript: [Message], system: String, inputs: [String: String]) {
            self.check = check
            self.suite = suite
            self.fixture = fixture
            self.provider = provider
            self.turn = turn
            self.user = user
            self.reply = reply
            self.transcript = transcript
            self.system = system
            self.inputs = inputs
        }

        /// The inputs of a fixture, as strings.
        public static func inputs(_ inputs: CompileInputs, pack: String) -> [String: String] {
            var fields: [String: String] = ["pack": pack]
            fields["variant"] = inputs.variant
            fields["coach"] = inputs.coach
            fields["topic"] = inputs.topic
            fields["intent"] = inputs.intent
            fields["profile"] = inputs.profile
            fields["memory"] = inputs.memory
            fields["context"] = inputs.context
            fields["now"] = inputs.now.map { String(describing: $0) }
            return fields
        }
    }

    /// The most a script may write before it is stopped.
    static let maximumOutput = 1 << 20

    /// Runs the check's script on `input`.
    /// - Parameter fileSystem: The project's files: a relative script path is taken from its
    ///   folder, where the script also runs (``FileSystem/directory``); none, the process's
    ///   working folder.
    public static func evaluate(_ check: Check, input: Input, on fileSystem: FileSystem? = nil) async -> CheckResult {
        guard let script = check.kind.as(CheckKinds.Script.self) else {
            return check.result(false, "script error: not a script check")
        }
        let (path, arguments, timeout) = (script.path, script.arguments, script.timeout)
        let location = fileSystem?.onDisk(path) ?? path
        func failure(_ reason: String) -> CheckResult {
            check.result(false, "script error: \(path) \(reason)")
        }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: location, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return failure("does not exist (paths are relative to the directory coachlab runs in)")
        }
        guard manager.isExecutableFile(atPath: location) else {
            return failure("is not executable: chmod +x it, and start it with a #! line such as #!/usr/bin/env python3")
        }
        let stdin: Data
        do { stdin = try JSONEncoder.sorted().encode(input) } catch { return failure("could not be given the case: \(error)") }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return failure("cannot run here: script checks need a platform that starts processes (macOS or Linux)")
        #else
        let outcome: Outcome
        do {
            outcome = try await run(path: location, arguments: arguments, stdin: stdin, timeout: timeout, directory: fileSystem?.directory)
        } catch {
            return failure("could not start: \(error.localizedDescription)")
        }
        if outcome.timedOut { return failure(String(format: "did not answer within %g s (timeout)", timeout)) }
        let lastErrorLine = String(decoding: outcome.stderr, as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init)
        guard outcome.status == 0 else {
            return failure("exited with status \(outcome.status)" + (lastErrorLine.map { ": \($0)" } ?? ""))
        }
        return parse(outcome.stdout, check: check, path: path)
        #endif
    }

    /// Reads `{"pass": …, "score": …, "reason": …}`.
    static func parse(_ output: Data, check: Check, path: String) -> CheckResult {
        let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = text.count > 120 ? String(text.prefix(119)) + "…" : text
        let expected = #"{"pass": true|false, "score": 0-1, "reason": "…"}"#
        func failure(_ reason: String) -> CheckResult {
            check.result(false, "script error: \(path) \(reason)")
        }
        guard let value = try? JSONValue.parse(Data(text.utf8)), case .object(let fields) = value else {
            return failure(text.isEmpty ? "printed nothing; it must print \(expected)" : "printed \"\(shown)\", not \(expected)")
        }
        guard case .bool(let passed) = fields["pass"] else {
            return failure("answered without a boolean \"pass\": \"\(shown)\"")
        }
        var score: Double?
        if let given = fields["score"], given != .null {
            guard case .number(let number) = given, (0...1).contains(number) else {
                return failure("answered a \"score\" that is not a number from 0 to 1: \"\(shown)\"")
            }
            score = number
        }
        let reason: String
        switch fields["reason"] {
        case .string(let given)?: reason = given
        case nil, .null?: reason = passed ? "the script passed it" : "the script failed it"
        default: return failure("answered a \"reason\" that is not a string: \"\(shown)\"")
        }
        return check.result(passed, reason, score: score)
    }

    struct Outcome {
        var status: Int32
        var stdout: Data
        var stderr: Data
        var timedOut: Bool
    }

    #if !(os(iOS) || os(tvOS) || os(watchOS) || os(visionOS))
    /// Runs an executable to completion or timeout, with its output read as it comes so a
    /// chatty script never blocks on a full pipe; in `directory`, or this process's working
    /// folder when nil.
    static func run(path: String, arguments: [String], stdin: Data, timeout: Double, directory: String? = nil) async throws -> Outcome {
        _ = ignoreBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        // A script written a moment ago can be briefly busy ("text file busy") while another
        // process started in between still holds it open for writing; that passes.
        for attempt in 1...5 {
            do {
                try process.run()
                break
            } catch where attempt < 5 && FileManager.default.isExecutableFile(atPath: path) {
                try await Task.sleep(nanoseconds: 20_000_000 * UInt64(attempt))
            }
        }
        let io = DispatchGroup()
        let stdout = Collected(), stderr = Collected()
        // Blocking reads, writes and waits get threads of their own: on the shared queues, a few
        // of them can hold every worker a small machine has, and the timeout would wait too.
        for (handle, collected) in [(output.fileHandleForReading, stdout), (errors.fileHandleForReading, stderr)] {
            io.enter()
            Thread.detachNewThread {
                read(handle, into: collected, stopping: process)
                io.leave()
            }
        }
        Thread.detachNewThread {
            // A script that never reads its input must not hang the writer: the write fails
            // with EPIPE once it exits, which is ignored.
            try? input.fileHandleForWriting.write(contentsOf: stdin)
            try? input.fileHandleForWriting.close()
        }
        let timedOut = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                if finished.wait(timeout: .now() + timeout) == .timedOut {
                    process.terminate()
                    // Foundation reports the end only once the script's pipes close, which a
                    // child it started can delay; the verdict does not wait for that.
                    if finished.wait(timeout: .now() + 1) == .timedOut { kill(process.processIdentifier, SIGKILL) }
                    continuation.resume(returning: true)
                } else {
                    continuation.resume(returning: false)
                }
            }
        }
        // The pipes close when the script exits, unless a child it started still holds them
        // (`sleep` in a shell script): after a timeout, what was read so far is enough.
        if !timedOut {
            await withCheckedContinuation { continuation in io.notify(queue: .global()) { continuation.resume() } }
        }
        return Outcome(status: timedOut ? -1 : process.terminationStatus, stdout: stdout.data, stderr: stderr.data, timedOut: timedOut)
    }

    /// One pipe's output so far.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var collected = Data()
        var data: Data { lock.withLock { collected } }
        /// Appends up to the output limit; false once it is reached.
        func append(_ chunk: Data) -> Bool {
            lock.withLock {
                if collected.count < ScriptCheck.maximumOutput { collected.append(chunk.prefix(ScriptCheck.maximumOutput - collected.count)) }
                return collected.count < ScriptCheck.maximumOutput
            }
        }
    }

    /// Writing the case to a script that has already exited would raise SIGPIPE and end this
    /// process; with it ignored, the write fails with EPIPE instead, which is expected. (Linux
    /// has no per-descriptor way to say this for pipes.)
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    private static func read(_ handle: FileHandle, into collected: Collected, stopping process: Process) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            if !collected.append(chunk), process.isRunning { process.terminate() }
        }
    }
    #endif
}
