import Foundation
import Testing

@Suite struct LintCommandTests {
    /// The shipped content has no error. Its warnings are the instruction lines the mock cannot
    /// read, each at its line, and the summary gives the share it reads.
    @Test func shippedContentLintsClean() async throws {
        let result = try await CLI.run(["lint"])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stderr.contains("linted 5 packs"))
        #expect(result.stderr.contains("0 errors, "))
        let warnings = result.stdout.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(!warnings.isEmpty && warnings.allSatisfy { $0.contains("the mock reads no instruction in") }, "\(warnings)")
        #expect(result.stderr.contains("reading coverage of personas/luna: "))
        let figure = try #require(result.stderr.firstMatch(of: /the mock reads (\d+) of (\d+) instruction lines \((\d+)%\)/))
        #expect(Int(figure.3)! >= 90, "the shipped packs keep 90% of their instruction lines read: \(figure.0)")
    }

    /// Every file of the malformed corpus is linted in ProjectLintTests; through the binary,
    /// one that expects an error and one that expects a warning (failing under --strict).
    @Test(arguments: ["unknown-keys.yaml", "forged-header-profile.yaml"])
    func eachMalformedInputExits2WithALocatedDiagnostic(_ name: String) async throws {
        let path = "Tests/CoachLabTests/Malformed/\(name)"
        // A file whose expectation is a warning fails under --strict, as CI runs lint.
        let warning = try String(contentsOfFile: CLI.root + "/" + path, encoding: .utf8).hasPrefix("# expect-warning:")
        let result = try await CLI.run(["lint", path] + (warning ? ["--strict"] : []))
        #expect(result.status == 2)
        let pattern = "^" + NSRegularExpression.escapedPattern(for: path) + #":\d+:\d+: "# + (warning ? "warning" : "error") + ": .+"
        #expect(result.stdout.split(separator: "\n").contains { $0.range(of: pattern, options: .regularExpression) != nil },
                "\(result.stdout)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Stack dump"))
    }

    @Test func aFixtureAnywhereIsLintedAsAFixtureWithErrorsAtTheField() async throws {
        let directory = try CLI.temporaryDirectory()
        try """
            fixture:
              id: bad-profile
              pack: personas/betterone
              topic: focus
              intent: unstuck
              profile: nobody-here
            turns:
              - user: hi
                expect: [{check: flagged, rule: no-such-rule}]

            """.write(toFile: directory + "/bad.yaml", atomically: true, encoding: .utf8)
        let result = try await CLI.run(["lint", directory + "/bad.yaml"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("/bad.yaml:6:12: error: pack 'betterone' has no profile 'nobody-here'"), "\(result.stdout)")
        #expect(result.stdout.contains("/bad.yaml:9:14: error: rule 'no-such-rule' does not exist in pack 'betterone'"), "\(result.stdout)")
        #expect(result.stderr.contains("1 fixtures"))
    }

    @Test func binaryJunkExits2() async throws {
        let directory = try CLI.temporaryDirectory()
        let path = directory + "/pack.yaml"
        try Data([0x70, 0x61, 0x63, 0x6B, 0x3A, 0x0A, 0x00, 0xFE, 0xFF]).write(to: URL(fileURLWithPath: path))
        let result = try await CLI.run(["lint", directory])
        #expect(result.status == 2)
        #expect(result.stdout.contains("pack.yaml:2:1: error: file contains a NUL byte"))
    }

    @Test func aKeyInYAMLIsReportedButNeverPrinted() async throws {
        let directory = try CLI.temporaryDirectory()
        let key = "sk-ant-api03-" + String(repeating: "Zx9", count: 12)
        try "pack: {id: k, name: K}\nstack: {layers: [{id: a, template: x}]}\npersona: {name: \"\(key)\"}\n"
            .write(toFile: directory + "/pack.yaml", atomically: true, encoding: .utf8)
        let result = try await CLI.run(["lint", directory])
        #expect(result.status == 2)
        #expect(result.stdout.contains("looks like an Anthropic API key"))
        #expect(!result.stdout.contains(key) && !result.stderr.contains(key))
    }
}

@Suite struct SchemaCommandTests {
    @Test func printsEachKindAsJSON() async throws {
        for kind in ["pack", "profile", "memory", "context"] {
            let result = try await CLI.run(["schema", kind])
            #expect(result.status == 0)
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        }
        #expect(try await CLI.run(["schema", "nope"]).status == 2)
    }

    @Test func shippedFilesPointEditorsAtTheSchemas() async throws {
        let enumerator = FileManager.default.enumerator(atPath: CLI.root + "/personas")
        var files = 0
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".yaml") else { continue }
            files += 1
            let text = try String(contentsOfFile: CLI.root + "/personas/" + path, encoding: .utf8)
            let depth = path.split(separator: "/").count
            let expected = "# yaml-language-server: $schema=" + String(repeating: "../", count: depth) + "schemas/pack.schema.json"
            #expect(text.hasPrefix(expected), "\(path)")
        }
        #expect(files >= 30)
    }

    @Test func versionAndHelp() async throws {
        #expect(try await CLI.run(["--version"]).stdout.hasPrefix("0."))
        let help = try await CLI.run(["compile", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--check"))
    }
}

/// coachlab init: a new app that lints, compiles and passes on the mock as written, and never
/// a file overwritten.
@Suite struct InitCommandTests {
    @Test func aNewAppLintsCompilesAndPassesOnTheMock() async throws {
        let directory = try CLI.temporaryDirectory() + "/project"
        let created = try await CLI.run(["init", directory, "--app", "sleep-coach"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("wrote \(directory)/personas/sleep-coach/pack.yaml"))
        let lint = try await CLI.run(["lint"], in: directory)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect((lint.stdout + lint.stderr).contains("linted 1 pack, 6 fixtures, 2 suites and 1 guardrail datasets"))
        let crisis = try await CLI.run(["compile", "personas/sleep-coach", "--variant", "crisis"], in: directory)
        #expect(crisis.status == 0 && crisis.stdout.contains("RISK ALERT: Crisis and self-harm."), "\(crisis.stdout)\(crisis.stderr)")
        let eval = try await CLI.run(["eval", "--store", directory + "/s.sqlite"], in: directory)
        #expect(eval.status == 0, "\(eval.stdout)\(eval.stderr)")
        #expect(eval.stdout.contains("21 cases: 21 passed"))
        let guardrails = try await CLI.run(["guard", "--dataset", "fixtures/guardrails/sleep-coach.yaml", "--fail-under", "recall=1", "--fail-under", "precision=1"],
                                     in: directory)
        #expect(guardrails.status == 0, "\(guardrails.stdout)\(guardrails.stderr)")
    }

    /// Every shipped pack's shape is tested in PackScaffoldTests, in memory; through the
    /// binary, --from with one of them, on disk.
    @Test(arguments: ["kindred"])
    func anAppStartedFromAShippedPacksShapeLintsAndPasses(_ shipped: String) async throws {
        let directory = try CLI.temporaryDirectory()
        let created = try await CLI.run(["init", directory, "--app", "my-\(shipped)", "--from", CLI.root + "/personas/\(shipped)"])
        #expect(created.status == 0, "\(created.stderr)")
        let lint = try await CLI.run(["lint"], in: directory)
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let eval = try await CLI.run(["eval", "--store", directory + "/s.sqlite"], in: directory)
        #expect(eval.status == 0, "\(eval.stdout)\(eval.stderr)")
        let packs = try FileManager.default.contentsOfDirectory(atPath: directory + "/personas")
        #expect(packs == ["my-\(shipped)"])
        let compiled = try await CLI.run(["compile", "personas/my-\(shipped)", "--format", "json"], in: directory)
        #expect(compiled.stdout.contains("\"pack\" : \"my-\(shipped)\"") || compiled.stdout.contains("my-\(shipped)"), "\(compiled.stdout.prefix(300))")
    }

    @Test func initWritesIntoTheCurrentFolderByDefault() async throws {
        let directory = try CLI.temporaryDirectory()
        let created = try await CLI.run(["init", "--app", "nova"], in: directory)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory + "/providers.yaml"))
        #expect(try await CLI.run(["lint"], in: directory).status == 0)
    }

    @Test func initNeverOverwritesAndLeavesAnExistingProvidersFileAlone() async throws {
        let directory = try CLI.temporaryDirectory()
        let providers = "providers:\n  - {id: mine, kind: openai, model: gpt-4o}\n"
        try providers.write(toFile: directory + "/providers.yaml", atomically: true, encoding: .utf8)
        let first = try await CLI.run(["init", "--app", "focus-buddy", "--name", "Focus Buddy"], in: directory)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("providers.yaml exists and was left as it is") && first.stdout.contains("- id: focus-buddy-openai"))
        #expect(try String(contentsOfFile: directory + "/providers.yaml", encoding: .utf8) == providers)
        #expect(try String(contentsOfFile: directory + "/personas/focus-buddy/pack.yaml", encoding: .utf8).contains("name: Focus Buddy"))
        // A hand edit survives a second init, which writes nothing at all.
        let edited = directory + "/personas/focus-buddy/rules.yaml"
        try "# mine\n".write(toFile: edited, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: directory + "/evals/focus-buddy.yaml")
        let again = try await CLI.run(["init", "--app", "focus-buddy"], in: directory)
        #expect(again.status == 2)
        #expect(again.stderr.contains("personas/focus-buddy/rules.yaml:1:1: error: already exists"))
        #expect(try String(contentsOfFile: edited, encoding: .utf8) == "# mine\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/evals/focus-buddy.yaml"))
        // Every id that is not a slug is refused in PackScaffoldTests; here, through the binary.
        let refused = try await CLI.run(["init", "--app", "../x"], in: directory)
        #expect(refused.status == 2, "\(refused.stderr)")
    }
}

/// coachlab watch, driven by real file writes in a project made by init.
@Suite struct WatchCommandTests {
    /// Reads a pipe until `text` has appeared or the deadline passes. The deadline only bounds
    /// a test that would otherwise hang: in CI the whole suite runs at once beside a real
    /// model, and a watch's first build of every fixture once took just over 20 s to start.
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        init(_ pipe: Pipe) {
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                self?.lock.withLock { self?.data.append(chunk) }
            }
        }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
        func wait(for needle: String, seconds: Double = 90) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if text.contains(needle) { return true }
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
            return false
        }
    }

    /// `coachlab watch` on a new app made by `init`, stopping after `exitAfter` rebuilds.
    static func watchNewApp(exitAfter: Int) async throws -> (directory: String, process: Process, stdout: Reader, stderr: Reader) {
        let directory = try CLI.temporaryDirectory()
        #expect(try await CLI.run(["init", "--app", "nova"], in: directory).status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["watch", "personas/nova", "--exit-after", String(exitAfter)]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let readers = (Reader(out), Reader(err))
        try process.run()
        return (directory, process, readers.0, readers.1)
    }

    /// Each step of a session, and a save that changes nothing, is tested on the library in
    /// WatchSessionTests; this is the real thing: file events on a new app, three saves.
    @Test func eachSaveRecompilesShowsTheChangedLayersAndRerunsOnlyWhatItTouched() async throws {
        let (directory, process, stdout, stderr) = try await Self.watchNewApp(exitAfter: 3)
        defer { if process.isRunning { process.terminate() } }
        #expect(await stderr.wait(for: "watching"), "\(stderr.text)")
        #expect(stdout.text.contains("ran all 21 fixtures: 21 of 21 cases passed"))

        // 1. The persona's voice: one layer in every variant, and every fixture's prompt.
        let pack = directory + "/personas/nova/pack.yaml"
        try (try String(contentsOfFile: pack, encoding: .utf8))
            .replacingOccurrences(of: "Plain, friendly and brief", with: "Plain, friendly and very brief").write(toFile: pack, atomically: true, encoding: .utf8)
        #expect(await stdout.wait(for: "ran 21 of 21 fixtures"), "\(stdout.text)")
        #expect(stdout.text.contains("layer persona changed (82 → 83 tokens)"))
        #expect(stdout.text.contains("layer crisis: persona changed"))

        // 2. One fixture's text: no layer changes, and only that fixture runs.
        let fixture = directory + "/fixtures/nova/crisis.yaml"
        try (try String(contentsOfFile: fixture, encoding: .utf8))
            .replacingOccurrences(of: "I don't want to be alive anymore.", with: "I want to die.").write(toFile: fixture, atomically: true, encoding: .utf8)
        #expect(await stdout.wait(for: "ran 1 of 21 fixtures: 1 of 1 cases passed"), "\(stdout.text)")
        #expect(stdout.text.contains("no layer of any variant changed"))

        // 3. A broken save: the diagnostics, and the watch goes on.
        try "rules: [\n".write(toFile: directory + "/personas/nova/rules.yaml", atomically: true, encoding: .utf8)
        #expect(await stdout.wait(for: "the pack does not load"), "\(stdout.text)")
        #expect(stderr.text.contains("personas/nova/rules.yaml:"))
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// Finding 12 of the secrets issue: a suite can run a program outside the project, and lint said nothing.
@Suite struct ScriptReachLintTests {
    @Test func aScriptOutsideTheProjectOrLinkedOutOfItIsAWarning() async throws {
        let directory = try CLI.temporaryDirectory()
        #expect(try await CLI.run(["init", "--app", "nova"], in: directory).status == 0)
        try FileManager.default.createDirectory(atPath: directory + "/checks", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/checks/shlink", withDestinationPath: "/bin/sh")
        try """
            suite: {id: reach}
            fixtures: [fixtures/nova/greeting.yaml]
            checks:
              - {check: script, script: /bin/sh, args: [-c, 'echo {}']}
              - {check: script, id: linked, script: checks/shlink, args: [-c, 'echo {}']}
            """.write(toFile: directory + "/evals/reach.yaml", atomically: true, encoding: .utf8)
        let lint = try await CLI.run(["lint", "evals/reach.yaml"], in: directory)
        #expect(lint.status == 0, "\(lint.stderr)")
        #expect(lint.stdout.contains("evals/reach.yaml:4:29: warning: the script check runs '/bin/sh', a program outside the project"), "\(lint.stdout)")
        #expect(lint.stdout.contains("evals/reach.yaml:5:5: warning: the script 'checks/shlink' leads out of the project through a link, to /"), "\(lint.stdout)")
        #expect(lint.stderr.contains("0 errors, 2 warnings"), "\(lint.stderr)")
    }
}

extension WatchCommandTests {
    /// Finding 8 of the secrets issue: after the pack's folder was replaced whole (a checkout
    /// of another branch, a stash), watch went on showing the last result and ignored every save.
    @Test func aFolderReplacedWholeIsWatchedAgain() async throws {
        // The move and the copy may each be a rebuild of their own, so no count is asked for.
        let (directory, process, stdout, stderr) = try await Self.watchNewApp(exitAfter: 100)
        defer { if process.isRunning { process.terminate() } }
        #expect(await stderr.wait(for: "watching"), "\(stderr.text)")
        // As git does: the folder goes, and a new one with the other branch's files takes its place.
        let pack = directory + "/personas/nova"
        try FileManager.default.moveItem(atPath: pack, toPath: directory + "/nova-elsewhere")
        try FileManager.default.copyItem(atPath: directory + "/nova-elsewhere", toPath: pack)
        let voice = pack + "/pack.yaml"
        try (try String(contentsOfFile: voice, encoding: .utf8))
            .replacingOccurrences(of: "Plain, friendly and brief", with: "Plain, friendly and very brief").write(toFile: voice, atomically: true, encoding: .utf8)
        #expect(await stdout.wait(for: "layer persona changed"), "\(stdout.text)")
        // And a later save in the new folder is seen too.
        try "rules: [\n".write(toFile: pack + "/rules.yaml", atomically: true, encoding: .utf8)
        #expect(await stdout.wait(for: "the pack does not load"), "\(stdout.text)")
        #expect(process.isRunning)
    }

    /// A save that changes nothing (an editor's second batch of events, or saving unchanged)
    /// is not a rebuild: it prints nothing and does not count towards --exit-after.
}

/// coachlab judge calibrate on the shipped labelled transcripts.
@Suite struct JudgeCalibrationCommandTests {
    @Test func theMockJudgeIsMeasuredAgainstTheShippedLabels() async throws {
        let result = try await CLI.run(["judge", "calibrate", "--fail-under", "kappa=0.6"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("judge mock on 31 labelled transcripts"))
        #expect(result.stdout.contains("Cohen's kappa"))
        let strict = try await CLI.run(["judge", "calibrate", "--fail-under", "kappa=0.99"])
        #expect(strict.status == 1 && strict.stderr.contains("is below 0.99"))
        let escalation = try await CLI.run(["judge", "calibrate", "--rubric", "escalation"])
        #expect(escalation.stdout.contains("on 11 labelled transcripts"), "\(escalation.stdout)")
    }

    @Test func aBadLabelIsAnErrorAtItsLine() async throws {
        let directory = try CLI.temporaryDirectory()
        try """
            judgement: {id: bad, metric: escalation}
            transcript:
              - user: hi
              - coach: hello
            labels:
              escalation-followed-throug: 5
            """.write(toFile: directory + "/bad.yaml", atomically: true, encoding: .utf8)
        let result = try await CLI.run(["judge", "calibrate", directory + "/bad.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad.yaml:6:31: error: 'escalation-followed-throug' is not a criterion of the rubric"), "\(result.stderr)")
        #expect(result.stderr.contains("did you mean 'escalation-followed-through'?"))
    }
}
