import CoachLab
@testable import CoachLabEval
import Foundation
import Testing
import CoachLabTestSupport

/// `similar` against known values, and `script` checks against real executables.
@Suite struct SimilarityTests {
    @Test func wordF1MatchesTheHandWorkedValue() {
        // 3 shared words: precision 3/3, recall 3/6, F1 = 2·1·0.5 / 1.5.
        #expect(abs(TextSimilarity.score("The cat sat", "the cat sat on the mat", metric: .f1) - 2.0 / 3.0) < 1e-9)
        #expect(TextSimilarity.score("Same words here.", "same WORDS here", metric: .f1) == 1)
        #expect(TextSimilarity.score("nothing shared", "entirely different", metric: .f1) == 0)
        // Repeated words count as often as the reference has them.
        #expect(abs(TextSimilarity.score("the the the", "the cat", metric: .f1) - 0.4) < 1e-9)
    }

    @Test func rougeLRewardsOrderAsThePaperShows() {
        // Lin (2004): against "police killed the gunman", "police kill the gunman" shares a
        // subsequence of 3 words (0.75), "the gunman kill police" only 2 (0.5).
        #expect(abs(TextSimilarity.score("police kill the gunman", "police killed the gunman", metric: .rougeL) - 0.75) < 1e-9)
        #expect(abs(TextSimilarity.score("the gunman kill police", "police killed the gunman", metric: .rougeL) - 0.5) < 1e-9)
        // F1 cannot tell the two apart.
        #expect(TextSimilarity.score("the gunman kill police", "police killed the gunman", metric: .f1) == 0.75)
    }

    @Test func theCheckPassesAtItsMinimumAndSaysTheScore() {
        let check = Check(id: "gold", kind: .similar(to: "It is late, and you are not alone.", minimum: 0.6, metric: .f1))
        let close = CheckEvaluator.evaluate(check, CheckSubject(reply: "It's late, and you are not alone tonight.", system: ""))
        #expect(close.passed && close.reason.hasPrefix("word F1 0."))
        let far = CheckEvaluator.evaluate(check, CheckSubject(reply: "Take two pills.", system: ""))
        #expect(!far.passed && far.score == 0 && far.reason.contains("wanted at least 0.60"))
    }

    @Test func theParserNeedsAGoldReplyAndAMinimumInRange() throws {
        let yaml = try YAMLDocument.parse("""
            - {check: similar, to: "A gold reply.", min: 0.5, metric: rouge-l}
            - {check: similar, min: 0.5}
            - {check: similar, to: "x", min: 1.5}
            - {check: similar, to: "x", min: 0.5, metric: bleu}
            - {check: script, script: checks/x.py, args: [--strict], timeout: 3}
            - {check: script}
            - {check: script, script: x, timeout: 0}
            """, file: "s.yaml")
        var diagnostics: [Diagnostic] = []
        let checks = (yaml.items ?? []).compactMap { CheckParser.parse($0, into: &diagnostics) }
        #expect(checks.map(\.kind) == [.similar(to: "A gold reply.", minimum: 0.5, metric: .rougeL),
                                       .script(path: "checks/x.py", arguments: ["--strict"], timeout: 3)])
        #expect(diagnostics.map(\.location.line) == [2, 3, 4, 6, 7])
    }
}

@Suite struct ScriptCheckTests {
    /// Writes an executable shell script into a fresh folder and returns its path.
    static func script(_ body: String, executable: Bool = true) throws -> String {
        let folder = try Scratch.folder("script")
        let path = folder + "/check.sh"
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: path)
        return path
    }

    static let input = ScriptCheck.Input(check: "house", suite: "luna", fixture: "luna-crisis", provider: "mock", turn: 2,
                                         user: "I can't sleep.", reply: "It is late. Are you safe right now?",
                                         transcript: [.init(role: "user", text: "I can't sleep."),
                                                      .init(role: "assistant", text: "It is late. Are you safe right now?")],
                                         system: "You are Luna.", inputs: ["pack": "personas/luna"])

    static func run(_ path: String, arguments: [String] = [], timeout: Double = 5) async -> CheckResult {
        await ScriptCheck.evaluate(Check(id: "house", kind: .script(path: path, arguments: arguments, timeout: timeout)), input: input)
    }

    @Test func theScriptReadsTheCaseAndItsAnswerIsTheVerdict() async throws {
        // It echoes back what it was given, so the input's shape is checked end to end.
        let path = try Self.script(#"""
            input=$(cat)
            case "$input" in
              *'"reply":"It is late. Are you safe right now?"'*'"system":"You are Luna."'*) ;;
              *) echo '{"pass": false, "reason": "unexpected input"}'; exit 0 ;;
            esac
            echo "{\"pass\": true, \"score\": 0.8, \"reason\": \"$1 ok\"}"
            """#)
        let result = await Self.run(path, arguments: ["house-phrases"])
        #expect(result.passed && result.score == 0.8 && result.reason == "house-phrases ok", "\(result.reason)")
    }

    @Test func aFailingVerdictIsAFailWithTheScriptsReason() async throws {
        let result = await Self.run(try Self.script(#"echo '{"pass": false, "reason": "uses the banned word cure"}'"#))
        #expect(!result.passed && result.score == 0 && result.reason == "uses the banned word cure")
    }

    @Test func everyBrokenScriptIsAScriptErrorThatSaysWhy() async throws {
        let cases: [(String, String)] = [
            ("echo 'looks fine to me'", "not {\"pass\": true|false"),
            ("echo ''", "printed nothing"),
            (#"echo '{"score": 1}'"#, "without a boolean \"pass\""),
            (#"echo '{"pass": true, "score": 7}'"#, "not a number from 0 to 1"),
            ("echo 'Traceback: boom' >&2; exit 3", "exited with status 3: Traceback: boom"),
            ("sleep 5; echo '{\"pass\": true}'", "did not answer within 0.5 s"),
        ]
        for (body, expected) in cases {
            let result = await Self.run(try Self.script(body), timeout: 0.5)
            #expect(!result.passed && result.reason.hasPrefix("script error: "), "\(body): \(result.reason)")
            #expect(result.reason.contains(expected), "\(body): \(result.reason)")
        }
    }

    @Test func aMissingOrNonExecutableScriptSaysHowToFixIt() async throws {
        let missing = await Self.run("/nonexistent/check.py")
        #expect(missing.reason.contains("does not exist"))
        let plain = await Self.run(try Self.script("echo '{\"pass\": true}'", executable: false))
        #expect(plain.reason.contains("chmod +x"))
    }

    /// A relative script path is the project's: taken from the folder of the file system the
    /// run reads (a test's or an app's, not this process's working folder), where it also runs.
    @Test func aRelativeScriptIsFoundAndRunInTheProjectsFolder() async throws {
        let path = try Self.script(#"[ -f check.sh ] && echo "{\"pass\": true, \"reason\": \"in $(pwd)\"}""#)
        let folder = (path as NSString).deletingLastPathComponent
        let check = Check(id: "house", kind: .script(path: "check.sh", arguments: [], timeout: 5))
        let result = await ScriptCheck.evaluate(check, input: Self.input, on: .rooted(at: folder))
        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        #expect(result.passed && (result.reason == "in \(folder)" || result.reason == "in \(real)"), "\(result.reason)")
        let elsewhere = await ScriptCheck.evaluate(check, input: Self.input, on: .rooted(at: try Scratch.folder("empty")))
        #expect(!elsewhere.passed && elsewhere.reason == "script error: check.sh does not exist (paths are relative to the directory coachlab runs in)")
    }

    @Test func aScriptThatIgnoresItsInputStillAnswers() async throws {
        // The case is written while the script runs; one that exits without reading it must
        // not hang the writer.
        let result = await Self.run(try Self.script(#"echo '{"pass": true}'"#))
        #expect(result.passed && result.reason == "the script passed it")
    }

    /// Finding 1 of the secrets issue: a script got the parent's whole environment, and what it
    /// said went unredacted into every report.
    @Test func aScriptGetsNoKeyUnlessItsCheckNamesOneAndNothingItSaysLeaksOne() async throws {
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8",
                           "OPENAI_API_KEY": "sk-live-0123456789abcdef", "GITHUB_TOKEN": "ghp_abcdefghij0123456789",
                           "HOUSE_STYLE": "plain"]
        let path = try Self.script(#"echo "{\"pass\": true, \"reason\": \"openai=${OPENAI_API_KEY:-unset} github=${GITHUB_TOKEN:-unset} style=${HOUSE_STYLE:-unset} lang=${LANG:-unset}\"}""#)
        let bare = await ScriptCheck.evaluate(Check(id: "house", kind: .script(path: path, arguments: [], timeout: 5)), input: Self.input,
                                              environment: environment)
        #expect(bare.reason == "openai=unset github=unset style=unset lang=C.UTF-8", "\(bare.reason)")
        let named = await ScriptCheck.evaluate(Check(id: "house", kind: .script(path: path, arguments: [], timeout: 5,
                                                                                 environment: ["OPENAI_API_KEY", "HOUSE_STYLE"])),
                                               input: Self.input, environment: environment)
        // Named, the key reaches the script; what the script says of it is still redacted.
        #expect(named.reason == "openai=[redacted] github=unset style=plain lang=C.UTF-8", "\(named.reason)")
        // The usual traceback of a script that calls a model with a bad key.
        let traceback = try Self.script(#"echo "openai.AuthenticationError: 401 Incorrect API key provided: $OPENAI_API_KEY" >&2; exit 1"#)
        let failed = await ScriptCheck.evaluate(Check(id: "house", kind: .script(path: traceback, arguments: [], timeout: 5,
                                                                                  environment: ["OPENAI_API_KEY"])),
                                                input: Self.input, environment: environment)
        #expect(failed.reason.hasSuffix("Incorrect API key provided: [redacted]") && !failed.reason.contains("0123456789abcdef"), "\(failed.reason)")
    }

    @Test func aCheckNamesItsVariablesAsAList() throws {
        var diagnostics: [Diagnostic] = []
        let yaml = try YAMLDocument.parse("- {check: script, script: checks/x.py, env: [OPENAI_API_KEY]}\n- {check: script, script: x, env: ['BAD NAME']}\n",
                                          file: "s.yaml")
        let checks = (yaml.items ?? []).compactMap { CheckParser.parse($0, into: &diagnostics) }
        #expect(checks.map(\.kind) == [.script(path: "checks/x.py", arguments: [], timeout: 10, environment: ["OPENAI_API_KEY"])])
        #expect(diagnostics.map(\.message) == ["'BAD NAME' is not an environment variable's name (letters, digits and _)"])
    }

    /// Finding 12: a suite could run any program outside the project, and lint said nothing.
    @Test func aScriptOutsideTheProjectIsAWarning() throws {
        var diagnostics: [Diagnostic] = []
        let yaml = try YAMLDocument.parse("""
            - {check: script, script: /bin/sh, args: [-c, 'echo {"pass": true}']}
            - {check: script, script: ../elsewhere/check.py}
            - {check: script, script: checks/../checks/ok.py}
            """, file: "s.yaml")
        let checks = (yaml.items ?? []).compactMap { CheckParser.parse($0, into: &diagnostics) }
        #expect(checks.count == 3)
        #expect(diagnostics.map(\.severity) == [.warning, .warning])
        #expect(diagnostics.map(\.location.line) == [1, 2])
        #expect(diagnostics.first?.message.contains("'/bin/sh', a program outside the project") == true)
    }

    /// Finding 7: a timed-out script was killed, but a child it started went on running.
    @Test func aTimedOutScriptTakesEveryProcessItStartedWithIt() async throws {
        let folder = try Scratch.folder("children")
        let marker = folder + "/child.pid"
        let path = try Self.script("sleep 120 &\necho $! > \(marker)\nsleep 120")
        let result = await Self.run(path, timeout: 0.5)
        #expect(result.reason.contains("did not answer within 0.5 s"), "\(result.reason)")
        let child = try #require(Int32(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await Self.isGone(child), "the script's child \(child) is still running")
    }

    /// Whether `pid` has ended within a second: killed, it is reaped by init a moment later.
    static func isGone(_ pid: Int32) async throws -> Bool {
        for _ in 0..<50 {
            if kill(pid, 0) != 0 || isZombie(pid) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// A process that has exited but whose parent has not yet collected it.
    static func isZombie(_ pid: Int32) -> Bool {
        (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ").dropFirst(2).first == "Z"
    }
}

extension ScriptCheckTests {
    /// A script's reason is one line with no control character, at most 2,000 characters:
    /// raw line breaks forged terminal lines and split a key past the redactor, and escape
    /// sequences reached the terminal.
    @Test func aReasonIsOneInertLineOfBoundedLength() async throws {
        let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "MY_API_KEY": "sk-Zq9PLMNOxyzw7781AbCdEf"]
        let split = try Self.script(#"printf '{"pass": false, "reason": "key=%s\\n%s red \\u001b[31mRED\\u001b[0m\\rPASS"}' "$(echo $MY_API_KEY | cut -c1-10)" "$(echo $MY_API_KEY | cut -c11-)""#)
        let result = await ScriptCheck.evaluate(Check(id: "house", kind: .script(path: split, arguments: [], timeout: 5, environment: ["MY_API_KEY"])),
                                                input: Self.input, environment: environment)
        #expect(result.reason == "key=[redacted] red [31mRED[0m PASS", "\(result.reason)")
        let long = try Self.script(#"python3 -c 'import json; print(json.dumps({"pass": False, "reason": "x" * 200000}))'"#)
        let cut = await Self.run(long)
        #expect(cut.reason.count < 2_100 && cut.reason.hasSuffix("(cut at 2000 characters)"), "\(cut.reason.count)")
    }

    /// A child that leaves the script's session (`setsid`) is out of reach of its group, and
    /// outlived the check; the run's mark in its environment finds it.
    @Test func aChildThatLeavesTheSessionIsStoppedToo() async throws {
        let folder = try Scratch.folder("setsid")
        let marker = folder + "/escaped.pid"
        let path = try Self.script("cat >/dev/null\nsetsid sh -c 'echo $$ > \(marker); exec sleep 120' &\nsleep 0.3\necho '{\"pass\": true}'")
        let result = await Self.run(path)
        #expect(result.passed, "\(result.reason)")
        let escaped = try #require(Int32(try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(try await Self.isGone(escaped), "the process that left the session, \(escaped), is still running")
    }
}
