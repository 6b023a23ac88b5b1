import Foundation
import Testing

@Suite struct ChatCommandTests {
    @Test func pipedStdinStreamsRepliesAndShowsFlags() async throws {
        let input = "I want to set goals but I have like 15 things.\nDo I have ADHD? I can't focus on anything.\n"
        let result = try await CLI.run(["chat", "personas/betterone", "--topic", "goal-setting", "--intent", "next_step", "--provider", "mock"],
                                 stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("you> Do I have ADHD? I can't focus on anything."))
        #expect(lines.contains { $0.hasPrefix("  [guardrail] No mental health diagnosis (no-diagnosis), stage 1 keyword \"Do I have ADHD\"") })
        #expect(lines.filter { $0.hasPrefix("simon> ") }.count == 2)
        // Simon's replies run over paragraphs; the text after each "simon> " is one reply.
        let replies = result.stdout.components(separatedBy: "simon> ").dropFirst().map { $0.components(separatedBy: "you> ")[0] }
        #expect(replies[0].contains("It sounds like you want to set goals but you have like 15 things."))
        #expect(replies[0].contains("What feels like the most useful next step for you?"))
        #expect(!replies[0].contains("qualified professional"))
        #expect(replies[1].contains("qualified professional"))
        #expect(!lines.contains { $0.contains("[guardrail]") && $0.contains("15 things") })
        #expect(result.stderr.contains("(mock · coachlab-mock-1"))
    }

    @Test func savesTheTranscriptAsAFixture() async throws {
        let path = try CLI.temporaryDirectory() + "/night.yaml"
        let result = try await CLI.run(["chat", "personas/luna", "--now", "2026-03-01T03:10:00-05:00", "--provider", "mock", "--save", path],
                                 stdin: "I can't sleep.\n")
        #expect(result.status == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("  pack: \"personas/luna\""))
        #expect(text.contains("  now: \"2026-03-01T03:10:00-05:00\""))
        #expect(text.contains("  - user: \"I can't sleep.\""))
        #expect(text.contains("    reply: \"It's the middle of the night, so there's no need to solve anything right now."))
        #expect(text.contains("It sounds like you can't sleep. What feels like the most useful next step for you?\""))
    }

    /// A save that fails at the end of the chat (here, the folder named is a file) prints the
    /// fixture instead, so the conversation is not lost, then fails with the reason.
    @Test func aSaveThatFailsPrintsTheFixtureInstead() async throws {
        let file = try CLI.temporaryDirectory() + "/a-file"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await CLI.run(["chat", "personas/luna", "--provider", "mock", "--save", file + "/night.yaml"], stdin: "I can't sleep.\n")
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stdout.contains("# Recorded with coachlab chat.") && result.stdout.contains("  - user: \"I can't sleep.\""), "\(result.stdout)")
        #expect(result.stderr.contains("night.yaml:1:1: error: cannot write file"), "\(result.stderr)")
    }

    /// `--save` replaces only a recording; a hand-written fixture at the path is refused before
    /// the chat starts, so neither the file nor the conversation is lost.
    @Test func saveNeverReplacesAHandWrittenFixture() async throws {
        let path = try CLI.temporaryDirectory() + "/night.yaml"
        let mine = "# Mine: the night fixture, with its checks.\nfixture:\n  id: night\n"
        try mine.write(toFile: path, atomically: true, encoding: .utf8)
        let refused = try await CLI.run(["chat", "personas/luna", "--provider", "mock", "--save", path], stdin: "I can't sleep.\n")
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(path):1:1: error: \(path) exists and is not a fixture chat --save recorded; it is never overwritten"))
        #expect(!refused.stdout.contains("luna>"), "the chat did not start")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == mine)
    }

    @Test func lunaFallsBackToCannedRepliesWithoutAKey() async throws {
        let result = try await CLI.run(["chat", "personas/luna", "--provider", "luna"], environment: ["GEMINI_API_KEY": ""],
                                 stdin: "Are you there?\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("luna-canned after luna-gemini failed"))
        let luna = try String(contentsOfFile: CLI.root + "/personas/luna/pack.yaml", encoding: .utf8)
        let reply = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("luna> ") }).dropFirst("luna> ".count)
        #expect(luna.contains(String(reply)))
    }

    @Test func anUnknownProviderIsAUsageError() async throws {
        let result = try await CLI.run(["chat", "personas/luna", "--provider", "gemni-flash"], stdin: "")
        #expect(result.status == 2)
        #expect(result.stderr.contains("did you mean 'gemini-flash'?"))
    }

    @Test func aMissingKeyIsAClearErrorThatNamesTheVariable() async throws {
        let result = try await CLI.run(["chat", "personas/luna", "--provider", "openai:gpt-4o-mini"], environment: ["OPENAI_API_KEY": ""],
                                 stdin: "hi\n")
        #expect(result.status == 3)
        #expect(result.stderr.contains("OPENAI_API_KEY is not set"))
    }
}

@Suite struct ServeMockCommandTests {
    @Test func servesTheOpenAIProtocolToCoachLabsOwnClient() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve-mock", "--port", "0"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        defer { process.terminate() }
        var port: String?
        var buffer = Data()
        let deadline = Date().addingTimeInterval(10)
        while port == nil, Date() < deadline {
            buffer.append(err.fileHandleForReading.availableData)
            let text = String(decoding: buffer, as: UTF8.self)
            if let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = String(text[range].split(separator: ":")[1])
            }
        }
        let found = try #require(port)
        // CoachLab's own OpenAI-compatible provider, through chat, against the served protocol.
        let result = try await CLI.run(["chat", "personas/betterone", "--provider", "openai-compatible:coachlab-mock-1",
                                  "--base-url", "http://127.0.0.1:\(found)/v1"], stdin: "I feel stuck.\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("simon> "))
        #expect(result.stdout.contains("It sounds like you feel stuck."))
        #expect(!result.stderr.contains("est."))  // usage came from the server
        #expect(try await CLI.run(["serve-mock", "--fault", "nope"]).status == 2)
    }
}

@Suite struct SecretHandlingTests {
    static let key = "sk-proj-KNOWNFAKEKEY-7f3a9c1e5b2d4f6a8c0e"

    /// Runs serve-mock as a process, returns its port and a stopper.
    static func serveMock(_ arguments: [String]) throws -> (port: String, process: Process) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve-mock", "--port", "0"] + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        var buffer = Data()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            buffer.append(err.fileHandleForReading.availableData)
            let text = String(decoding: buffer, as: UTF8.self)
            if let range = text.range(of: #"127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                return (String(text[range].split(separator: ":")[1]), process)
            }
        }
        process.terminate()
        throw CocoaError(.fileReadUnknown)
    }

    @Test func aKnownFakeKeyAppearsInNoOutputOrFile() async throws {
        let (port, server) = try Self.serveMock(["--fault", "401:1"])  // the first request is rejected, echoing the key
        defer { server.terminate() }
        let saved = try CLI.temporaryDirectory() + "/transcript.yaml"
        let arguments = ["chat", "personas/betterone", "--topic", "focus", "--provider", "openai-compatible:coachlab-mock-1",
                         "--base-url", "http://127.0.0.1:\(port)/v1", "--api-key-env", "COACHLAB_TEST_KEY", "--save", saved]
        let result = try await CLI.run(arguments, environment: ["COACHLAB_TEST_KEY": Self.key], stdin: "first try\nsecond try\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("authentication failed"))
        #expect(result.stderr.contains("[redacted]"))
        #expect(result.stdout.contains("It sounds like second try."))
        let file = try String(contentsOfFile: saved, encoding: .utf8)
        for output in [result.stdout, result.stderr, file] {
            #expect(!output.contains(Self.key))
            #expect(!output.contains("KNOWNFAKEKEY"))
        }
        let providers = try await CLI.run(["providers"], environment: ["OPENAI_API_KEY": Self.key])
        #expect(!providers.stdout.contains("KNOWNFAKEKEY") && !providers.stderr.contains("KNOWNFAKEKEY"))
    }
}

@Suite struct CompileRequestTests {
    /// Each kind's body is tested in RequestPreviewTests; this is the flag, the POST line on
    /// stderr, and a kind that calls no server.
    @Test func printsTheWireBodyAndRefusesAKindWithNone() async throws {
        let result = try await CLI.run(["compile", "personas/luna", "--variant", "three-am", "--request", "anthropic", "--screen", "I can't sleep."])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((json["system"] as? String)?.hasPrefix("# You are Luna") == true)
        #expect(result.stderr.hasPrefix("POST https://api.anthropic.com"), "\(result.stderr)")
        let mock = try await CLI.run(["compile", "personas/luna", "--request", "mock"])
        #expect(mock.status == 2 && mock.stderr.contains("--request takes openai, openai-compatible, anthropic, gemini or proxy, not 'mock'"))
    }
}

@Suite struct EvalCommandTests {
    @Test func theMainJobRunsEverySuiteOnTheMockAndExits0() async throws {
        let result = try await CLI.run(["eval", "--store", try CLI.temporaryDirectory() + "/s.sqlite"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.range(of: #"\n(\d+) cases: \1 passed, 0 failed, 0 errors"#, options: .regularExpression) != nil)
        #expect(result.stdout.contains("betterone                21     21    0     0      100.0% (85-100%)    100%       ok"))
        #expect(result.stdout.contains("betterone-guardrails     "))
        #expect(result.stdout.contains("kindred-structured       6      6     0     0      100.0% (61-100%)    100%       ok"))
    }

    @Test func reportsAreWritten() async throws {
        let directory = try CLI.temporaryDirectory()
        let result = try await CLI.run(["eval", "evals/luna.yaml", "--junit", directory + "/j.xml", "--markdown", directory + "/s.md",
                                  "--json", directory + "/r.json", "--html", directory + "/r.html", "--store", directory + "/s.sqlite"])
        #expect(result.status == 0)
        let page = try String(contentsOfFile: directory + "/r.html", encoding: .utf8)
        #expect(page.components(separatedBy: "<tbody class=\"case\"").count - 1 == 12)
        #expect(page.contains("Compiled prompt"), "each reply's prompt is kept in the store and shown")
        #expect(try String(contentsOfFile: directory + "/j.xml", encoding: .utf8).contains("<testsuite name=\"luna\" tests=\"12\""))
        #expect(try String(contentsOfFile: directory + "/s.md", encoding: .utf8).hasPrefix("## CoachLab eval"))
        #expect(FileManager.default.fileExists(atPath: directory + "/r.json"))
    }

    @Test func failUnderAndContentErrors() async throws {
        let directory = try CLI.temporaryDirectory()
        try "suite: {id: broken}\nfixtures: [fixtures/nowhere/*.yaml]\nchecks: [sentences]\n"
            .write(toFile: directory + "/broken.yaml", atomically: true, encoding: .utf8)
        let broken = try await CLI.run(["eval", directory + "/broken.yaml", "--store", directory + "/s.sqlite"])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("matches no fixture files"))
        #expect(broken.stderr.contains("check 'sentences' needs min and/or max"))
        #expect(try await CLI.run(["eval", "evals/luna.yaml", "--filter", "nothing-matches-this", "--store", directory + "/s.sqlite"]).status == 1)
    }
}

@Suite struct RunStoreCommandTests {
    @Test func runsAreStoredListedAndResumable() async throws {
        let store = try CLI.temporaryDirectory() + "/store.sqlite"
        let first = try await CLI.run(["eval", "evals/ticbuddy.yaml", "--store", store])
        #expect(first.status == 0)
        let runs = try await CLI.run(["runs", "--store", store])
        let line = try #require(runs.stdout.split(separator: "\n").dropFirst().first)
        let id = String(line.split(separator: " ")[0])
        #expect(line.contains("finished") && line.contains("ticbuddy.yaml"))
        let resumed = try await CLI.run(["eval", "--resume", id], environment: ["COACHLAB_STORE": store])
        #expect(resumed.status == 0)
        #expect(resumed.stderr.contains(": 18 cases already finished, 0 to go"))
        #expect(resumed.stdout.contains("18 cases: 18 passed"))
        let unknown = try await CLI.run(["eval", "--resume", "nope", "--store", store])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("coachlab runs lists the stored runs"))
    }

    @Test func aRunOnAnInlineProviderResumesWithoutItsFlagsAgain() async throws {
        let store = try CLI.temporaryDirectory() + "/store.sqlite"
        // Nothing listens on port 1: the one case ends as an error, and the run is stored.
        let first = try await CLI.run(["eval", "evals/luna.yaml", "--filter", "luna-afternoon", "--store", store,
                                 "--provider", "openai-compatible:gemma", "--base-url", "http://127.0.0.1:1/v1"])
        #expect(first.status == 3, "\(first.stderr)")
        let line = try #require(try await CLI.run(["runs", "--store", store]).stdout.split(separator: "\n").dropFirst().first)
        let id = String(line.split(separator: " ")[0])
        // It used to stop with a usage error asking for --base-url again.
        let resumed = try await CLI.run(["eval", "--resume", id, "--filter", "luna-afternoon", "--store", store])
        #expect(resumed.status != 2, "\(resumed.stderr)")
        #expect(!resumed.stderr.contains("--base-url"))
    }

    @Test func aFinishedStoreCanBeReadWithoutWriting() async throws {
        let directory = try CLI.temporaryDirectory()
        let store = directory + "/store.sqlite"
        #expect(try await CLI.run(["eval", "evals/luna.yaml", "--store", store]).status == 0)
        // The writer left the file in rollback-journal mode (header bytes 18-19 are 1, not 2 for
        // WAL), so a reader that cannot create WAL's shared-memory file can open it.
        let header = try #require(FileManager.default.contents(atPath: store))
        #expect(header[18] == 1 && header[19] == 1)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let runs = try await CLI.run(["runs", "--store", store])
        #expect(runs.status == 0 && runs.stdout.contains("luna.yaml"))
        // Reading created nothing beside the store.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)
        #expect(try await CLI.run(["runs", "--store", directory + "/missing.sqlite"]).status == 0)
    }
}

@Suite struct InterruptTests {
    /// Ctrl-C mid-run: exit 130, finished cases kept and reported, the run marked interrupted,
    /// and `--resume` finishes it.
    @Test func ctrlCKeepsFinishedCasesAndResumeFinishesTheRun() async throws {
        let (port, server) = try SecretHandlingTests.serveMock(["--latency-ms", "400"])
        defer { server.terminate() }
        let store = try CLI.temporaryDirectory() + "/store.sqlite"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        // Two at a time, 400 ms each: the 30 cases take about 6 s, far more than it takes to
        // see 4 finish, so a slow machine cannot finish the run before the interrupt.
        process.arguments = ["eval", "evals/luna.yaml", "evals/ticbuddy.yaml", "--provider", "openai-compatible:coachlab-mock-1",
                             "--base-url", "http://127.0.0.1:\(port)/v1", "--store", store, "--no-cache", "-j", "2"]
        process.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var id: String?
        let deadline = Date().addingTimeInterval(30)
        // Polled by a spawned binary, waited for on this thread: the run lasts seconds, and
        // a command run in this process could wait that long for a thread while other tests'
        // commands keep the few there are busy.
        let variables = ProcessInfo.processInfo.environment
        while Date() < deadline, process.isRunning {
            let runs = try CLI.spawnAndWait(["runs", "--store", store], in: CLI.root, variables: variables, stdin: nil)
            if let line = runs.stdout.split(separator: "\n").dropFirst().first,
               let cases = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.flatMap({ Int($0) }), cases >= 4 {
                id = String(line.split(separator: " ")[0])
                break
            }
            usleep(50_000)
        }
        process.interrupt()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let run = try #require(id, "no case finished in time: \(stderr)")
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("continue with: coachlab eval --resume \(run)"))
        #expect(stdout.contains("SUITE"))
        let listed = try await CLI.run(["runs", "--store", store]).stdout
        #expect(listed.contains("interrupted"))
        let resumed = try await CLI.run(["eval", "--resume", run, "--base-url", "http://127.0.0.1:\(port)/v1", "--store", store])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains(" already finished, "))
        #expect(resumed.stdout.contains("30 cases: 30 passed"))
    }
}

/// Live iteration: answers already paid for are reused, errored cases are retried alone, and
/// a live run says what limits it runs under.
@Suite struct LiveIterationTests {
    static func lastRun(_ store: String) async throws -> String {
        let line = try await CLI.run(["runs", "--store", store]).stdout.split(separator: "\n").dropFirst().first ?? ""
        return String(line.split(separator: " ").first ?? "")
    }

    @Test func aSecondRunReadsTheCacheAndRepeatsNeverDo() async throws {
        let (port, server) = try SecretHandlingTests.serveMock([])
        defer { server.terminate() }
        let directory = try CLI.temporaryDirectory()
        let live = ["evals/luna.yaml", "--provider", "openai-compatible:coachlab-mock-1", "--base-url", "http://127.0.0.1:\(port)/v1",
                    "--store", directory + "/s.sqlite", "--cache-dir", directory + "/cache", "--max-tokens", "200", "--timeout", "20"]
        let first = try await CLI.run(["eval"] + live)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("openai-compatible:coachlab-mock-1: timeout 20 s; up to 3 retries of overloads and server errors, 8 of rate limits, 1 of timeouts; max tokens 200"))
        #expect(first.stderr.contains("0 answers read"))
        let second = try await CLI.run(["eval", "--json", directory + "/second.json"] + live)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("12 replies came from the response cache"))
        #expect(second.stderr.contains("requests sent") && !second.stderr.contains(" 0 answers read"))
        let json = try String(contentsOfFile: directory + "/second.json", encoding: .utf8)
        #expect(json.contains("\"cachedReplies\" : 12"))
        // --repeat makes every repeat a fresh sample: nothing is read, everything is sent.
        let repeated = try await CLI.run(["eval", "--repeat", "2"] + live)
        #expect(repeated.status == 0, "\(repeated.stderr)")
        #expect(repeated.stderr.contains("0 answers read"))
        #expect(!repeated.stdout.contains("from the response cache"))
        #expect(repeated.stdout.contains("pass^2"))
        // A changed setting is a changed request.
        let changed = try await CLI.run(["eval"] + live.dropLast(4) + ["--max-tokens", "201"])
        #expect(changed.stderr.contains("0 answers read"), "\(changed.stderr)")
        let stats = try await CLI.run(["cache", "stats", "--cache-dir", directory + "/cache"])
        #expect(stats.stdout.contains("openai-compatible:coachlab-mock-1"))
        let cleared = try await CLI.run(["cache", "clear", "--cache-dir", directory + "/cache"])
        #expect(cleared.status == 0 && cleared.stdout.contains("removed"))
        #expect(try await CLI.run(["cache", "stats", "--cache-dir", directory + "/cache"]).stdout.contains("is empty"))
        // --no-cache neither reads nor writes.
        let uncached = try await CLI.run(["eval", "--no-cache"] + live)
        #expect(uncached.status == 0 && !uncached.stderr.contains("response cache"))
        #expect(try await CLI.run(["cache", "stats", "--cache-dir", directory + "/cache"]).stdout.contains("is empty"))
    }

    @Test func retryErrorsRunsOnlyTheErroredCasesIntoTheSameRun() async throws {
        // The first three requests are refused (401, which is never retried), then all is well.
        let (port, server) = try SecretHandlingTests.serveMock(["--fault", "401:3"])
        defer { server.terminate() }
        let directory = try CLI.temporaryDirectory()
        let store = directory + "/s.sqlite"
        let first = try await CLI.run(["eval", "evals/luna.yaml", "--provider", "openai-compatible:coachlab-mock-1", "-j", "1",
                                 "--base-url", "http://127.0.0.1:\(port)/v1", "--store", store, "--max-tokens", "300"])
        #expect(first.status == 3, "\(first.stderr)")
        #expect(first.stdout.contains("12 cases: 9 passed, 0 failed, 3 errors"))
        let run = try await Self.lastRun(store)
        let retried = try await CLI.run(["eval", "--retry-errors", run, "--store", store, "--json", directory + "/r.json"])
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(retried.stderr.contains("retrying run \(run): 3 errored cases run again, 9 finished ones are kept"))
        #expect(retried.stderr.contains("3 cases in"))
        #expect(retried.stdout.contains("12 cases: 12 passed, 0 failed, 0 errors"))
        // The stored run is the same run, and it kept the first run's settings.
        #expect(try await Self.lastRun(store) == run)
        #expect(retried.stderr.contains("max tokens 300"))
        let again = try await CLI.run(["eval", "--retry-errors", run, "--store", store])
        #expect(again.status == 0 && again.stderr.contains("no errored cases"))
        #expect(try await CLI.run(["eval", "--retry-errors", run, "--resume", run, "--store", store]).status == 2)
    }
}

/// Checks written outside CoachLab, and re-scoring stored replies without a provider.
@Suite struct ScriptCheckAndRescoreTests {
    @Test func thePythonReadingLevelExampleRunsAsAScriptCheck() async throws {
        let directory = try CLI.temporaryDirectory()
        let passing = try await CLI.run(["eval", "examples/reading-level.yaml", "--store", directory + "/s.sqlite"])
        #expect(passing.status == 0, "\(passing.stderr)")
        #expect(passing.stdout.contains("12 cases: 12 passed"))
        // The same script with an impossible limit fails every reply, with its own reason.
        let suite = try String(contentsOfFile: CLI.root + "/examples/reading-level.yaml", encoding: .utf8)
            .replacingOccurrences(of: #"["--max-grade", "8"]"#, with: #"["--max-grade", "-20"]"#)
        try suite.write(toFile: directory + "/strict.yaml", atomically: true, encoding: .utf8)
        let strict = try await CLI.run(["eval", directory + "/strict.yaml", "--store", directory + "/s.sqlite"])
        #expect(strict.status == 1, "\(strict.stderr)")
        #expect(strict.stdout.contains("turn 1 script: reading grade"))
        #expect(strict.stdout.contains("wanted at most -20"))
        // A script that is not there is a content error at the check, before any case runs.
        try suite.replacingOccurrences(of: "reading_level.py", with: "reading_levels.py").write(toFile: directory + "/missing.yaml", atomically: true, encoding: .utf8)
        let missing = try await CLI.run(["eval", directory + "/missing.yaml", "--store", directory + "/s.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("missing.yaml:12:5: error: the script 'examples/checks/reading_levels.py' does not exist"), "\(missing.stderr)")
        let lint = try await CLI.run(["lint", directory + "/missing.yaml"])
        #expect(lint.status == 2 && (lint.stdout + lint.stderr).contains("missing.yaml:12:5: error: the script"))
    }

    /// What a rescore finds is tested in RescoreIntoTheStoreTests; this is a live run rescored
    /// with its server gone, a suite given on the command line, and the exit codes.
    @Test func rescoreRunsTheCurrentChecksOnStoredRepliesWithNoProvider() async throws {
        let directory = try CLI.temporaryDirectory()
        let store = directory + "/s.sqlite"
        // A live run on serve-mock, whose server is then stopped: rescoring must not need it.
        let (port, server) = try SecretHandlingTests.serveMock([])
        let first = try await CLI.run(["eval", "evals/luna.yaml", "--provider", "openai-compatible:coachlab-mock-1",
                                 "--base-url", "http://127.0.0.1:\(port)/v1", "--store", store])
        server.terminate()
        server.waitUntilExit()
        #expect(first.status == 0, "\(first.stderr)")
        let run = try await LiveIterationTests.lastRun(store)
        // The author tightens a check: at most 2 sentences instead of 4.
        let suite = try String(contentsOfFile: CLI.root + "/evals/luna.yaml", encoding: .utf8)
            .replacingOccurrences(of: "{check: sentences, max: 4}", with: "{check: sentences, max: 2}")
        try suite.write(toFile: directory + "/luna.yaml", atomically: true, encoding: .utf8)
        let rescored = try await CLI.run(["rescore", run, directory + "/luna.yaml", "--store", store, "--json", directory + "/r.json"])
        #expect(rescored.status == 1, "\(rescored.stderr)")
        #expect(rescored.stderr.contains("rescored 12 cases of run \(run) into run"))
        #expect(rescored.stderr.contains("with no provider calls"))
        #expect(rescored.stderr.contains("changed luna/"))
        #expect(rescored.stdout.contains("sentences: 3 sentences; wanted at most 2") || rescored.stdout.contains("sentences: 4 sentences; wanted at most 2"))
        #expect(try await CLI.run(["rescore", "no-such-run", "--store", store]).status == 2)
    }
}

/// pass^N, pass@N and the flaky list reach every report, not only the JSON one.
@Suite struct RepeatStatisticsTests {
    /// The repeats' section of every report is pinned in ReporterGoldenTests; this is --repeat.
    @Test func repeatsAreSummarisedInTheTerminal() async throws {
        let directory = try CLI.temporaryDirectory()
        let result = try await CLI.run(["eval", "evals/luna.yaml", "--repeat", "2", "--store", directory + "/s.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("luna over 2 repeats: pass^2 100.0% (every repeat passed), pass@2 100.0% (at least one did)"))
        #expect(result.stdout.contains("24 cases: 24 passed"))
    }
}
