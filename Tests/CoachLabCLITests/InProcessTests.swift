import CoachLabTestSupport
import Foundation
import Testing

/// Most command tests run `coachlab` in the test process (``CLI/run(_:in:environment:stdin:)``);
/// these hold that to the binary: the same status, output and errors for the same arguments,
/// across parse errors, help, content errors and a whole eval.
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

    /// Output with its timings and run ids masked, which differ between any two runs.
    static func timeless(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]+(\.[0-9]+)? ?(ms|s)\b"#, with: "T", options: .regularExpression)
            .replacingOccurrences(of: #"[0-9]+ cases/s"#, with: "R", options: .regularExpression)
            .replacingOccurrences(of: #"\b[0-9]{8}-[0-9]{6}-[0-9a-z]+\b"#, with: "RUN", options: .regularExpression)
    }
}
