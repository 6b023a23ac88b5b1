import CoachLab
import Foundation
import Synchronization
#if canImport(Subprocess)
import Subprocess
#if canImport(Darwin)
import System
#else
import SystemPackage
#endif
#endif

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

    /// The variables every script gets, when set: where programs are, the home folder, the
    /// locale, the time zone and the temporary folder. Nothing else of the environment reaches
    /// it unless its check names it (`env:`), so no API key does by accident.
    public static let inheritedVariables: Set<String> = ["PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR"]

    /// The environment a script runs with: ``inheritedVariables``, every `LC_*`, and the
    /// variables `named`, taken from `environment`.
    public static func environment(for named: [String], from environment: [String: String]) -> [String: String] {
        environment.filter { name, _ in inheritedVariables.contains(name) || name.hasPrefix("LC_") || named.contains(name) }
    }

    /// Runs the check's script on `input`.
    /// - Parameters:
    ///   - fileSystem: The project's files: a relative script path is taken from its folder,
    ///     where the script also runs (``FileSystem/directory``); none, the process's working folder.
    ///   - environment: The environment the script's variables are taken from, and whose secrets
    ///     (``SecretRedactor/environment(_:adding:)``) are removed from everything it says.
    public static func evaluate(_ check: Check, input: Input, on fileSystem: FileSystem? = nil,
                                environment: [String: String] = ProcessInfo.processInfo.environment) async -> CheckResult {
        let redactor = SecretRedactor.environment(environment)
        var result = await unredacted(check, input: input, on: fileSystem, environment: environment)
        result.reason = shown(redactor.redact(result.reason))
        return result
    }

    /// The most characters of a script's reason kept.
    static let maximumReason = 2_000

    /// A script's reason as it may be shown: one line (line breaks and tabs are spaces, so a
    /// script cannot forge lines of the terminal or a report), no other control character
    /// (no terminal escape sequence), at most ``maximumReason`` characters.
    static func shown(_ reason: String) -> String {
        var line = String(String.UnicodeScalarView(reason.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
            if scalar == "\n" || scalar == "\r" || scalar == "\t" || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\u{85}" { return " " }
            return scalar.properties.generalCategory == .control ? nil : scalar
        }))
        if line.count > maximumReason { line = String(line.prefix(maximumReason)) + " … (cut at \(maximumReason) characters)" }
        return line
    }

    private static func unredacted(_ check: Check, input: Input, on fileSystem: FileSystem?, environment: [String: String]) async -> CheckResult {
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
        #if canImport(Subprocess)
        let outcome: Outcome
        do {
            outcome = try await run(path: location, arguments: arguments, stdin: stdin, timeout: timeout, directory: fileSystem?.directory,
                                    environment: Self.environment(for: script.environment, from: environment))
        } catch let error as SubprocessError where error.code == .outputLimitExceeded {
            return failure("printed more than \(maximumOutput / 1024 / 1024) MiB and was stopped")
        } catch {
            return failure("could not start: \(error)")
        }
        if outcome.timedOut { return failure(String(format: "did not answer within %g s (timeout)", timeout)) }
        let lastErrorLine = String(decoding: outcome.stderr, as: UTF8.self).split(whereSeparator: \.isNewline).last.map(String.init)
        guard outcome.status == 0 else {
            return failure("exited with status \(outcome.status)" + (lastErrorLine.map { ": \($0)" } ?? ""))
        }
        return parse(outcome.stdout, check: check, path: path)
        #else
        return failure("cannot run here: script checks need a platform that starts processes (macOS or Linux)")
        #endif
    }

    /// Reads `{"pass": …, "score": …, "reason": …}`.
    static func parse(_ output: [UInt8], check: Check, path: String) -> CheckResult {
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
        var stdout: [UInt8]
        var stderr: [UInt8]
        var timedOut: Bool
    }

    #if canImport(Subprocess)
    /// Runs an executable to completion or timeout, in `directory` (this process's working
    /// folder when nil) with exactly `environment`.
    ///
    /// The script leads a session of its own, so its process group holds every process it
    /// starts: when it is done, or its time is up, the whole group is killed, and a child left
    /// running (`sleep 120 &`) goes with it instead of holding the output open.
    static func run(path: String, arguments: [String], stdin: Data, timeout: Double, directory: String? = nil,
                    environment: [String: String]) async throws -> Outcome {
        _ = ignoreBrokenPipes
        let options = { var options = PlatformOptions(); options.createSession = true; return options }()
        let leader = Leader()
        let input = try caseFile(stdin)
        // Every process the script starts inherits this mark, including one that leaves its
        // session (`setsid`, a daemon's double fork), where killing the group cannot reach it.
        var environment = environment
        environment[runMark] = leader.mark
        let variables = Environment.custom(Dictionary(uniqueKeysWithValues: environment.compactMap { name, value in
            Environment.Key(rawValue: name).map { ($0, value) }
        }))
        // The run is never cancelled (the process library expects to close its own pipes): when
        // time is up the whole group is killed, so its pipes close and the run ends by itself.
        // The clock starts when the script does, so a busy machine's delay in starting it is
        // not counted against it.
        let finished: Result<Outcome, any Error>? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer = FirstAnswer<Result<Outcome, any Error>?>(continuation)
                let running = Task {
                    let result = try await Subprocess.run(
                        .path(FilePath(path)), arguments: Arguments(arguments), environment: variables,
                        workingDirectory: directory.map { FilePath($0) }, platformOptions: options,
                        input: .fileDescriptor(input, closeAfterSpawningProcess: true),
                        output: .bytes(limit: maximumOutput), error: .bytes(limit: maximumOutput)
                    ) { execution in
                        leader.started(execution.processIdentifier.value, timeout: timeout) { answer.give(nil) }
                    }
                    let status: Int32 = switch result.terminationStatus {
                    case .exited(let code): code
                    case .signaled(let signal): 128 + signal
                    }
                    return Outcome(status: status, stdout: result.standardOutput, stderr: result.standardError, timedOut: false)
                }
                Task { answer.give(await running.result) }
            }
        } onCancel: {
            leader.killGroup()
        }
        leader.finish()
        guard let finished, !leader.expired else { return Outcome(status: -1, stdout: [], stderr: [], timedOut: true) }
        return try finished.get()
    }

    /// The case, in a file with no name that the script reads as its standard input: a pipe
    /// would fail to write to a script that exits without reading it.
    private static func caseFile(_ data: Data) throws -> FileDescriptor {
        var template = Array((NSTemporaryDirectory() + "/coachlab-case-XXXXXX").utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        unlink(template)
        let file = FileDescriptor(rawValue: descriptor)
        do {
            _ = try file.writeAll(data)
            _ = try file.seek(offset: 0, from: .start)
        } catch {
            try? file.close()
            throw error
        }
        return file
    }

    /// A continuation resumed by whichever answer comes first.
    private final class FirstAnswer<T: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<T, Never>?>

        init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = Mutex(continuation) }

        func give(_ value: T) { continuation.withLock { $0.take() }?.resume(returning: value) }
    }

    /// The script's process id, which is also its session's and process group's.
    private final class Leader: Sendable {
        let id = Mutex<pid_t?>(nil)
        private let timedOut = Mutex(false)
        private let timer = Mutex<Task<Void, Never>?>(nil)

        /// Whether its time ran out.
        var expired: Bool { timedOut.withLock { $0 } }

        /// The script started as `pid`: its clock starts. When `timeout` passes, a script that
        /// has not exited is timed out and its group killed; one that has exited but whose
        /// result is still on its way (a busy machine) only loses its children. A process that
        /// left the session can still hold the pipes: ten seconds later, `giveUp` is called.
        func started(_ pid: pid_t, timeout: Double, giveUp: @escaping @Sendable () -> Void) {
            id.withLock { $0 = pid }
            let task = Task {
                guard (try? await Task.sleep(for: .seconds(timeout))) != nil else { return }
                if hasExited { killGroup() } else { expire() }
                guard (try? await Task.sleep(for: .seconds(10))) != nil else { return }
                giveUp()
            }
            timer.withLock { $0 = task }
        }

        /// The value of ``ScriptCheck/runMark`` in this script's environment.
        let mark = UUID().uuidString

        /// The verdict is in: the clock stops, and nothing of the script's stays running, in
        /// its group or out of it.
        func finish() {
            timer.withLock { $0 }?.cancel()
            killGroup()
            ScriptCheck.killMarked(mark)
        }

        /// Marks its time out and kills its group.
        func expire() {
            timedOut.withLock { $0 = true }
            killGroup()
        }

        func killGroup() {
            if let group = id.withLock({ $0 }) { kill(-group, SIGKILL) }
        }

        /// Whether the script has exited, asked without collecting its status (the process
        /// library does that): it is a zombie waiting to be collected, or already collected.
        var hasExited: Bool {
            guard let pid = id.withLock({ $0 }) else { return false }
            var info = siginfo_t()
            guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return errno == ECHILD }
            #if canImport(Darwin)
            return info.si_pid == pid
            #else
            return info._sifields._sigchld.si_pid == pid
            #endif
        }
    }

    /// The variable every script check's processes carry, so that those that leave the
    /// script's session are still found and stopped when its check is done.
    public static let runMark = "COACHLAB_CHECK_RUN"

    /// Kills every process whose environment carries `mark` as ``runMark`` (Linux, through
    /// /proc; elsewhere the process group is what is stopped).
    static func killMarked(_ mark: String) {
        #if os(Linux)
        let needle = Array("\(runMark)=\(mark)".utf8)
        let me = getpid()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
        for entry in entries {
            guard let pid = Int32(entry), pid != me,
                  let environ = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { continue }
            if environ.split(separator: 0).contains(where: { $0.elementsEqual(needle) }) { kill(pid, SIGKILL) }
        }
        #endif
    }

    /// Writing the case to a script that has already exited would raise SIGPIPE and end this
    /// process; with it ignored, the write fails with EPIPE instead, which is expected. (Linux
    /// has no per-descriptor way to say this for pipes.)
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()
    #endif
}

extension CheckKinds.Script: CallingCheck {
    /// Runs the executable on the case as JSON (``ScriptCheck/Input``).
    public func score(as check: Check, in context: CalloutContext) async throws -> [CheckResult] {
        let transcript = context.history.map { ScriptCheck.Input.Message(role: $0.role.rawValue, text: $0.content) }
        let input = ScriptCheck.Input(check: check.id, suite: context.suite, fixture: context.fixture, provider: context.provider,
                                      turn: context.turn, user: context.user, reply: context.reply ?? context.subject.reply,
                                      transcript: transcript, system: context.subject.system, inputs: context.inputs)
        return [await ScriptCheck.evaluate(check, input: input, on: context.fileSystem, environment: context.environment)]
    }
}
