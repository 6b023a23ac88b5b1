import CoachLabTestSupport
import Foundation
import Testing

/// The command tests run `coachlab` in the test process (``CLI/run(_:in:environment:stdin:)``);
/// these hold that to the binary: the same status, output and errors for the same arguments,
/// across parse errors, help, content errors and a whole eval, in the project's folder and in
/// another.
@Suite struct InProcessTests {
    @Test(arguments: [
        ["--version"], ["eval", "--help"], ["nope"], ["eval", "--bogus"], ["schema", "nope"],
        ["compile", "personas/luna", "--now", "3am"], ["lint", "Tests/CoachLabTests/Malformed/unknown-keys.yaml"],
        ["eval", "evals/luna.yaml"],
    ])
    func anInProcessRunMatchesTheBinary(_ arguments: [String]) async throws {
        let store = try CLI.temporaryDirectory()
        let variables = ProcessInfo.processInfo.environment.merging(["COACHLAB_STORE": store + "/s.sqlite",
                                                                    "COACHLAB_CACHE": store + "/cache"]) { _, new in new }
        let spawned = try await CLI.spawn(arguments, variables: variables)
        let inProcess = try await CLI.inProcess(arguments, variables: variables.merging(["COACHLAB_STORE": store + "/t.sqlite"]) { _, new in new },
                                                stdin: nil)
        #expect(inProcess.status == spawned.status)
        #expect(Self.timeless(inProcess.stdout) == Self.timeless(spawned.stdout))
        #expect(Self.timeless(inProcess.stderr.replacingOccurrences(of: "/t.sqlite", with: "/s.sqlite")) == Self.timeless(spawned.stderr))
    }

    /// The same in another working folder: two copies of a new project, the binary spawned in
    /// one and the commands run in this process in the other. Each command's status and
    /// output match, the two folders end up holding the same files, and nothing lands in this
    /// process's own working folder.
    @Test func anInProcessRunInAnotherFolderMatchesTheBinary() async throws {
        let scratch = try CLI.temporaryDirectory()
        let (spawnedIn, runIn) = (scratch + "/spawned", scratch + "/in-process")
        let variables = ProcessInfo.processInfo.environment.merging(["COACHLAB_STORE": scratch + "/unused.sqlite",
                                                                    "COACHLAB_CACHE": scratch + "/cache"]) { _, new in new }
        for folder in [spawnedIn, runIn] {
            let created = try await CLI.spawn(["init", folder, "--app", "nova"], variables: variables)
            try #require(created.status == 0, "\(created.stderr)")
        }
        let commands = [
            ["lint"], ["compile", "personas/nova", "--variant", "crisis"], ["compile", "--all", "--out", "prompts", "personas/nova"],
            ["compile", "--check", "prompts", "personas/nova"], ["eval", "--store", "s.sqlite", "--json", "report.json"],
            ["runs", "--store", "s.sqlite"], ["init", "--app", "nova"], ["eval", "evals/missing.yaml", "--store", "s.sqlite"],
        ]
        for arguments in commands {
            let spawned = try await CLI.spawn(arguments, in: spawnedIn, variables: variables)
            let inProcess = try await CLI.inProcess(arguments, in: runIn, variables: variables, stdin: nil)
            #expect(inProcess.status == spawned.status, "\(arguments)")
            #expect(Self.timeless(inProcess.stdout) == Self.timeless(spawned.stdout), "\(arguments)")
            #expect(Self.timeless(inProcess.stderr) == Self.timeless(spawned.stderr), "\(arguments)")
        }
        #expect(try Self.files(in: runIn) == Self.files(in: spawnedIn))
        let written = try Self.files(in: runIn)
        #expect(written.contains("s.sqlite") && written.contains("report.json") && written.contains { $0.hasPrefix("prompts/nova/") })
        let stray = ["s.sqlite", "report.json", "prompts/nova"].filter { FileManager.default.fileExists(atPath: $0) }
        #expect(stray.isEmpty, "written into the test process's own working folder: \(stray)")
    }

    /// The files under `folder`, by relative path.
    static func files(in folder: String) throws -> Set<String> {
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder)
        return Set(names.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        })
    }

    /// Output with its timings, run ids and dates masked, which differ between any two runs,
    /// and runs of spaces made one (a table's columns are as wide as its run ids).
    /// Run ids go first: one whose random part ends in a digit and "s" (`…-1powu7s`) would
    /// otherwise lose that end to the durations' pattern and no longer read as a run id.
    static func timeless(_ text: String) -> String {
        // A progress line is printed only when a run is slow, as one is on a loaded machine.
        text.replacingOccurrences(of: #"(?m)^progress: [^\n]*\n"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"\b[0-9]{8}-[0-9]{6}-[0-9a-z]+\b"#, with: "RUN", options: .regularExpression)
            .replacingOccurrences(of: #"\b[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}(:[0-9]{2})?Z?"#, with: "DATE", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9]+(\.[0-9]+)? ?(ms|s)\b"#, with: "T", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9]+ cases/s"#, with: "R", options: .regularExpression)
            .replacingOccurrences(of: " +", with: " ", options: .regularExpression)
    }

    @Test func aRunIdEndingLikeADurationStillReadsAsARunId() {
        #expect(Self.timeless("run 20261128-104102-1powu7s is stored; 14 cases in 0.57 s (971 cases/s)")
                    == "run RUN is stored; 14 cases in T (R)")
    }
}
