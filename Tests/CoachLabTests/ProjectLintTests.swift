import CoachLab
import Foundation
import Testing

/// Lint as a library, over a file system value: what the paths name, and every problem at
/// its file:line:col, without the binary or the disk beyond the package's own files.
struct ProjectLintTests {
    @Test func theShippedProjectIsClean() throws {
        let result = try ProjectLint(fileSystem: TestSupport.fileSystem).lint([])
        // Its only warnings are the instruction lines the mock cannot read.
        #expect(result.errors == 0 && result.diagnostics.allSatisfy { $0.message.contains("the mock reads no instruction") }, "\(result.diagnostics)")
        #expect(result.coverage.count == 5 && result.summary.contains("; the mock reads "))
        #expect(result.packs == 5)
        #expect(result.fixtures > 50 && result.suites > 10 && result.datasets > 0)
        #expect(result.summary.hasPrefix("linted 5 packs, \(result.fixtures) fixtures"))
    }

    /// Lint run from a folder that holds no project used to check nothing and exit 0, so a CI
    /// job in the wrong folder passed.
    @Test func aFolderWithNothingToLintIsAUsageError() throws {
        let error = try #require(throws: CoachLabError.self) { try ProjectLint(fileSystem: .inMemory(["README.md": "hi"])).lint([]) }
        #expect(error.kind == .usage && error.description.contains("nothing to lint"), "\(error)")
    }

    /// Sizes and counts no app could honour fail at their field: a rotation at 0 messages, a
    /// window of 0 tokens or a negative memory limit were taken as written.
    @Test func sizesAndCountsBelowTheirLeastAreErrors() throws {
        let original = String(decoding: try TestSupport.fileSystem.read("personas/kindred/pack.yaml"), as: UTF8.self)
        let edited = original.replacingOccurrences(of: "rotateAtMessages: 24", with: "rotateAtMessages: 0")
            .replacingOccurrences(of: "windowTokens: 4096", with: "windowTokens: -1")
            .replacingOccurrences(of: "limit: 3", with: "limit: -2")
        #expect(edited != original)
        let fileSystem = TestSupport.fileSystem.overlaying(["personas/kindred/pack.yaml": edited])
        let found = try ProjectLint(fileSystem: fileSystem).lint(["personas/kindred"]).diagnostics.filter { $0.severity == .error }
        let messages = found.map { "\($0.location.line) \($0.message)" }
        for expected in ["must be at least 1, found 0", "must be at least 1, found -1", "must be at least 0, found -2"] {
            #expect(messages.contains { $0.contains(expected) }, "\(expected): \(messages)")
        }
        #expect(found.allSatisfy { $0.location.file == "personas/kindred/pack.yaml" }, "\(found)")
    }

    @Test func anAuthorsMistakeInAnAddedFixtureIsFoundAtItsField() throws {
        let fileSystem = TestSupport.fileSystem.overlaying([
            "fixtures/luna/typo.yaml": "fixture:\n  id: luna-typo\n  pack: personas/luna\n  topik: sleep\nturns:\n  - user: Hi\n",
        ])
        let result = try ProjectLint(fileSystem: fileSystem).lint(["fixtures/luna"])
        let problem = try #require(result.diagnostics.first { $0.location.file == "fixtures/luna/typo.yaml" })
        #expect(problem.severity == .error)
        #expect((problem.location.line, problem.location.column) == (4, 3))
        #expect(problem.description.contains("topik"))
        #expect(result.packs == 1, "the pack the fixtures name is linted with them")
    }

    /// A pack kept outside personas/ (an app's bundle resources) is linted through the fixtures
    /// that name it: its own mistakes are not hidden behind the fixtures that use it.
    @Test func aPackOnlyTheFixturesNameIsLintedWithThem() throws {
        let fileSystem = FileSystem.inMemory([
            "Sources/App/Pack/nudge/pack.yaml": "pack:\n  id: nudge\n  name: Nudge\npersona:\n  name: Nudge\n  rolle: a coach\n"
                + "stack:\n  layers:\n    - id: persona\n      template: |\n        You are {{persona.name}}.\n        Keep replies to two sentences.\n",
            "fixtures/nudge/hello.yaml": "fixture:\n  id: nudge-hello\n  pack: Sources/App/Pack/nudge\nturns:\n  - user: Hi\n",
            "fixtures/nudge/again.yaml": "fixture:\n  id: nudge-again\n  pack: Sources/App/Pack/nudge\nturns:\n  - user: Hi again\n",
        ])
        let result = try ProjectLint(fileSystem: fileSystem).lint([])
        #expect(result.packs == 1, "named twice, linted once")
        let problem = try #require(result.diagnostics.first { $0.location.file == "Sources/App/Pack/nudge/pack.yaml" })
        #expect(problem.severity == .error && problem.description.contains("rolle"), "\(problem)")
        #expect(result.summary.contains("linted 1 pack, 2 fixtures"))
    }

    /// Each malformed file, named alone as `coachlab lint FILE` names it, fails lint (a file
    /// that expects a warning fails under --strict, as CI runs lint, and not without it), with
    /// the stated diagnostic as the terminal prints it.
    @Test(arguments: MalformedInputTests.corpus)
    func eachMalformedFileFailsLintWithItsLocatedDiagnostic(_ name: String) throws {
        let path = "Tests/CoachLabTests/Malformed/\(name)"
        let text = String(decoding: try TestSupport.fileSystem.read(path), as: UTF8.self)
        let warning = text.hasPrefix("# expect-warning:")
        let result = try ProjectLint(fileSystem: TestSupport.fileSystem).lint([path])
        #expect(result.fails(strict: true))
        #expect(result.fails(strict: false) == !warning || result.errors > 0)
        let pattern = "^" + NSRegularExpression.escapedPattern(for: path) + #":\d+:\d+: "# + (warning ? "warning" : "error") + ": .+"
        #expect(result.diagnostics.contains { $0.description.range(of: pattern, options: .regularExpression) != nil },
                "\(result.diagnostics.map(\.description))")
    }

    /// A sessions file (the wrap-ups tips draw from) beside the fixtures is read as one: a
    /// session with no takeaway is an error at its line; the shipped file is clean.
    @Test func aSessionsFileBesideTheFixturesIsCheckedAsOne() throws {
        let fileSystem = TestSupport.fileSystem.overlaying([
            "fixtures/betterone/history/broken.yaml": "sessions:\n  - endedAt: 2026-02-10T21:15:00Z\n    nextStep: Rest.\n",
        ])
        let result = try ProjectLint(fileSystem: fileSystem).lint(["fixtures/betterone/history"])
        let problem = try #require(result.diagnostics.first { $0.location.file == "fixtures/betterone/history/broken.yaml" }, "\(result.diagnostics)")
        #expect(problem.severity == .error && problem.location.line == 2 && problem.description.contains("takeaway"), "\(problem)")
        #expect(result.fails(strict: false))
        let shipped = try ProjectLint(fileSystem: TestSupport.fileSystem).lint(["fixtures/betterone/history/sessions.yaml"])
        #expect(shipped.diagnostics.isEmpty && shipped.files == 1, "\(shipped.diagnostics)")
    }

    @Test func aFolderWithoutPacksIsAUsageError() {
        let fileSystem = FileSystem.inMemory(["notes/readme.yaml": "title: notes\n"])
        #expect(throws: CoachLabError.self) { try ProjectLint(fileSystem: fileSystem).lint(["notes"]) }
        #expect(throws: CoachLabError.self) { try ProjectLint(fileSystem: fileSystem).lint(["missing"]) }
    }

    @Test func foldersAreWalkedForYAMLFilesInOrder() {
        let fileSystem = FileSystem.inMemory(["f/b.yaml": "x: 1\n", "f/a/c.yml": "x: 1\n", "f/a/skip.txt": "no\n"])
        #expect(ProjectLint(fileSystem: fileSystem).yamlFiles(in: "f") == ["f/a/c.yml", "f/b.yaml"])
        #expect(ProjectLint(fileSystem: fileSystem).topLevelKey(of: "f/b.yaml") == "x")
    }

    @Test func theTopLevelKeyIsTheFirstUnindentedKeyBelowCommentsAndBlankLines() {
        let fileSystem = FileSystem.inMemory([
            "a.yaml": "# a comment: with a colon\n\n  indented: no\n- item: no\nsuite:\n  id: s\n",
            "b.yaml": "no colon here\nfixture: {id: f}",
            "c.yaml": "# only a comment\n",
        ])
        let lint = ProjectLint(fileSystem: fileSystem)
        #expect(lint.topLevelKey(of: "a.yaml") == "suite")
        #expect(lint.topLevelKey(of: "b.yaml") == "fixture")
        #expect(lint.topLevelKey(of: "c.yaml") == nil)
        #expect(lint.topLevelKey(of: "missing.yaml") == nil)
    }

    /// Lint reaches a pack from its folder, from each fixture and from each dataset, and loads it
    /// once: what it finds is what it finds linting the pack alone, once per problem.
    @Test func aPackReachedFromSeveralFilesIsReportedOnce() throws {
        let rules = String(decoding: try TestSupport.fileSystem.read("personas/luna/rules.yaml"), as: UTF8.self)
        let fileSystem = TestSupport.fileSystem.overlaying([
            "personas/luna/rules.yaml": rules + "\n  - id: extra\n    title: Extra\n    categori: style\n    priority: 10\n    content: Be brief.\n",
        ])
        let alone = try ProjectLint(fileSystem: fileSystem).lint(["personas/luna"]).diagnostics
        #expect(!alone.isEmpty)
        let whole = try ProjectLint(fileSystem: fileSystem).lint([]).diagnostics
        for problem in alone { #expect(whole.filter { $0 == problem }.count == 1, "\(problem)") }
    }

    /// Each kind of key the secret scan knows is found inside other text, and named.
    @Test(arguments: [
        ("sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx", "an Anthropic API key"),
        ("sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12", "an OpenAI-style API key"),
        ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "a Google API key"),
        ("ghp_0123456789abcdefghijklmnopqrstuvwxyz", "a GitHub token"),
        ("AKIAABCDEFGHIJKLMNOP", "an AWS access key id"),
        ("rk_live_0123456789abcdefgh", "a Stripe secret key"),
        ("xoxb-0123456789-abc", "a Slack token"),
        ("Bearer abcdefghijklmnopqrstuvwxyz0123456789", "a bearer token"),
    ])
    func everyKindOfKeyIsFound(key: String, kind: String) {
        #expect(SecretDetector.kind(of: "the value is \(key) here") == kind)
        #expect(SecretDetector.kind(of: key) == kind)
        #expect(SecretDetector.kind(of: "a short sk- and gh and xox, with nothing after") == nil)
    }
}
