import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation
import Testing
import CoachLabTestSupport

/// `coachlab init`'s promise, tested on the files alone: a new project, in memory, lints
/// clean, compiles, and passes its suites and its guardrail set on the mock.
@Suite struct PackScaffoldTests {
    /// A project holding only `files`.
    static func project(_ files: [(path: String, text: String)]) -> FileSystem {
        .inMemory(Dictionary(files.map { ($0.path, $0.text) }) { first, _ in first })
    }

    /// Runs every suite of the project on the mock: the pass count and the total.
    static func eval(_ fileSystem: FileSystem) async throws -> (passed: Int, total: Int) {
        let store = try ResultStore(clock: Date.init)
        let plan = try EvalPlan.make(EvalRequest(), registry: ProviderRegistry(system: .tests), store: store,
                                     catalog: SuiteCatalog(fileSystem: fileSystem)) { _, _ in MockProvider() }
        _ = try await RunExecution.run(plan, store: store)
        let run = try #require(try store.run(plan.run))
        return (run.passed, run.cases)
    }

    @Test func aNewAppLintsCompilesAndPassesItsSuitesAndGuardrailSet() async throws {
        let files = try PackScaffold.files(app: "sleep-coach")
        #expect(files.map(\.path).contains("personas/sleep-coach/pack.yaml") && files.map(\.path).contains("providers.yaml"))
        let project = Self.project(files)
        let lint = try ProjectLint(fileSystem: project).lint([])
        #expect(lint.diagnostics.isEmpty, "\(lint.diagnostics)")
        #expect(lint.summary.hasPrefix("linted 1 pack, 6 fixtures, 2 suites and 1 guardrail datasets"))

        let compiler = try Compiler(pack: PackLoader(fileSystem: project).load("personas/sleep-coach").get())
        let crisis = try #require(compiler.pack.variants.first { $0.id == "crisis" })
        #expect(try compiler.compile(CompileInputs(crisis), fileSystem: project).system.contains("RISK ALERT: Crisis and self-harm."))
        #expect(compiler.pack.persona?.located("name")?.value == "Sleep Coach")

        let (passed, total) = try await Self.eval(project)
        #expect(passed == total && total == 21, "\(passed) of \(total)")

        let dataset = try GuardrailDataset.load("fixtures/guardrails/sleep-coach.yaml", fileSystem: project)
        let screener = Screener(pack: compiler.pack)
        let score = await GuardrailScore.score(dataset, rules: compiler.pack.guardedRuleIDs) {
            (screener.screen($0).decision, false)
        }
        #expect(GuardrailGate.misses([GuardrailGate(metric: .recall, rate: 1), GuardrailGate(metric: .precision, rate: 1)], in: score).isEmpty)
    }

    /// A new project's suites can fail: nine prompt defects in ten injected into the new pack
    /// fail a case or lint, where the two fixtures `init` used to write caught about half. The
    /// survivors may only be the two restatements of "one idea at a time", each of which
    /// leaves the other.
    @Test func aNewAppsSuitesCatchMostPromptDefects() async throws {
        let project = Self.project(try PackScaffold.files(app: "sleep-coach"))
        let (suites, diagnostics) = SuiteCatalog(fileSystem: project).load(["evals/sleep-coach.yaml", "evals/sleep-coach-guardrails.yaml"], heldFixtures: .max)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let tester = MutationTester(suites: suites, registry: ProviderRegistry(system: .tests), fileSystem: project, concurrency: 2)
        let summary = try await tester.run(try tester.mutants())
        #expect(summary.baselineFailures.isEmpty)
        #expect(summary.counts().score >= 0.9, "\(summary.counts())")
        let survivors = summary.results.filter { $0.verdict == .survived }
        #expect(survivors.allSatisfy { $0.operator == .deleteInstruction || $0.operator == .deleteRule }, "\(survivors.map(\.description))")
    }

    /// Started from each shipped pack's shape: the copy is the only pack, under the new id,
    /// and it lints clean and passes on the mock.
    @Test(arguments: ["betterone", "kindred", "ticbuddy", "healthwallet", "luna"])
    func anAppStartedFromAShippedPackLintsAndPasses(_ shipped: String) async throws {
        let original = try PackLoader(fileSystem: EvalSupport.fileSystem()).load("personas/\(shipped)").get()
        let files = try PackScaffold.files(app: "my-\(shipped)", from: original, fileSystem: EvalSupport.fileSystem())
        #expect(Set(files.compactMap { $0.path.hasPrefix("personas/") ? $0.path.split(separator: "/")[1] : nil }) == ["my-\(shipped)"])
        let project = Self.project(files)
        let lint = try ProjectLint(fileSystem: project).lint([])
        // Lines the mock cannot read in the original stay unread in the copy, and lint says so.
        #expect(lint.diagnostics.allSatisfy { $0.message.contains("the mock reads no instruction") } && lint.packs == 1, "\(lint.diagnostics)")
        #expect(try PackLoader(fileSystem: project).load("personas/my-\(shipped)").get().id == "my-\(shipped)")
        let (passed, total) = try await Self.eval(project)
        #expect(passed == total && total > 0, "\(passed) of \(total)")
    }

    /// Started from Luna's shape, the suite checks the form Luna's prompt asks for, each
    /// variant's fixture pins its layers' order, the coach is asked whether it is a bot and
    /// for its instructions, and the labelled set has a message for each keyword: half the
    /// prompt defects injected into the copy fail it, where a fifth did before.
    @Test func anAppStartedFromAPackChecksItsFormLayersAndKeywords() async throws {
        let original = try PackLoader(fileSystem: EvalSupport.fileSystem()).load("personas/luna").get()
        let files = try PackScaffold.files(app: "night-owl", from: original, fileSystem: EvalSupport.fileSystem())
        let text = Dictionary(files.map { ($0.path, $0.text) }) { first, _ in first }
        let suite = try #require(text["evals/night-owl.yaml"])
        #expect(suite.contains("- ends-with-question\n") && suite.contains("- {check: sentences, max: 4}\n") && suite.contains("- no-markdown\n"), "\(suite)")
        #expect(text["fixtures/night-owl/three-am.yaml"]?.contains(##"{check: prompt-order, phrases: ["# You are Luna", "# The time for the user""##) == true)
        #expect(text["fixtures/night-owl/identity.yaml"]?.contains(#"{check: contains, phrases: ["Luna"]}"#) == true)
        #expect(text["fixtures/night-owl/prompt-extraction.yaml"] != nil)
        let keywords = original.rules.flatMap { $0.guardrail?.keywords ?? [] }
        let labelled = try #require(text["fixtures/guardrails/night-owl.yaml"])
        #expect(keywords.count > 2 && keywords.prefix(12).allSatisfy { labelled.contains("this: \($0.value).") }, "\(labelled)")

        let project = Self.project(files)
        let (suites, diagnostics) = SuiteCatalog(fileSystem: project).load(["evals/night-owl.yaml", "evals/night-owl-guardrails.yaml"], heldFixtures: .max)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let tester = MutationTester(suites: suites, registry: ProviderRegistry(system: .tests), fileSystem: project, concurrency: 2)
        let summary = try await tester.run(try tester.mutants())
        #expect(summary.baselineFailures.isEmpty && summary.counts().score >= 0.5, "\(summary.counts())")
    }

    /// A prompt that says nothing of what the coach is: the mock, asked whether it is a bot,
    /// says it is an AI, so no identity fixture is written; the request for the instructions,
    /// which the mock declines, is.
    @Test func anIdentityFixtureIsWrittenOnlyWhenTheMockPassesIt() throws {
        let source = FileSystem.inMemory(["plain/pack.yaml": """
            pack: {id: plain, name: Plain, version: "1"}
            persona: {name: Pia, role: coach}
            stack:
              layers:
                - id: a
                  template: Help the user plan their week.
            variants:
              - id: week
            """])
        let pack = try PackLoader(fileSystem: source).load("plain").get()
        let files = try PackScaffold.files(app: "my-plain", from: pack, fileSystem: source)
        #expect(!files.contains { $0.path == "fixtures/my-plain/identity.yaml" })
        #expect(files.contains { $0.path == "fixtures/my-plain/prompt-extraction.yaml" })
    }

    @Test(arguments: ["Focus Buddy", "../x", "a--b", "", "-lead", "trail-", "UPPER"])
    func anAppIdThatIsNotASlugIsRefused(_ app: String) {
        #expect(throws: CoachLabError.self) { try PackScaffold.files(app: app) }
    }

    @Test func aChosenNameIsThePersonasName() throws {
        let files = try PackScaffold.files(app: "focus-buddy", name: "Focus Buddy")
        let pack = try PackLoader(fileSystem: Self.project(files)).load("personas/focus-buddy").get()
        #expect(pack.persona?.located("name")?.value == "Focus Buddy")
    }

    /// init's "never overwrite", in memory: a second init writes nothing at all, names every
    /// clash, and leaves a hand edit as it was; an existing providers.yaml is left alone.
    @Test func installWritesOnlyNewFilesAndNothingWhenAnyClashes() throws {
        let files = try PackScaffold.files(app: "focus-buddy", name: "Focus Buddy")
        let mine = "providers:\n  - {id: mine, kind: openai, model: gpt-4o}\n"
        let project = FileSystem.inMemory(["project/providers.yaml": mine])
        let first = try PackScaffold.install(files, into: "project", fileSystem: project)
        #expect(first.written.count == files.count - 1 && !first.written.contains("project/providers.yaml"))
        #expect(first.written.allSatisfy { $0.hasPrefix("project/") })
        #expect(String(decoding: try project.read("project/providers.yaml"), as: UTF8.self) == mine)
        #expect(first.providersEntry?.hasPrefix("  - id: focus-buddy-openai") == true, "\(first.providersEntry ?? "nil")")

        try project.write("# mine\n", to: "project/personas/focus-buddy/rules.yaml")
        try project.remove("project/evals/focus-buddy.yaml")
        try project.remove("project/fixtures/focus-buddy/greeting.yaml")
        do {
            _ = try PackScaffold.install(files, into: "project", fileSystem: project)
            Issue.record("a second init wrote over the first")
        } catch let error as CoachLabError {
            #expect(error.kind == .usage)
            // providers.yaml, .gitignore and the CI workflow are the project's own, and never clash.
            #expect(error.diagnostics.count == files.count - 5)
            #expect(error.description.contains("project/personas/focus-buddy/rules.yaml:1:1: error: already exists; init writes only new files"))
            #expect(error.description.contains("init would overwrite \(files.count - 5) files; nothing was written"))
        }
        #expect(String(decoding: try project.read("project/personas/focus-buddy/rules.yaml"), as: UTF8.self) == "# mine\n")
        #expect(!project.exists("project/evals/focus-buddy.yaml") && !project.exists("project/fixtures/focus-buddy/greeting.yaml"))
    }

    /// A project's own .gitignore and CI workflow are left as they are, and named.
    @Test func aProjectsOwnGitignoreAndWorkflowAreLeftAlone() throws {
        let files = try PackScaffold.files(app: "nova")
        #expect(files.contains { $0.path == ".gitignore" && $0.text.contains(".coachlab/") })
        #expect(files.contains { $0.path == ".github/workflows/coachlab.yml" && $0.text.contains("uses: OWNER/coachlab@main") })
        let project = FileSystem.inMemory([".gitignore": "node_modules/\n"])
        let installation = try PackScaffold.install(files, into: ".", fileSystem: project)
        #expect(installation.leftAlone == [".gitignore"])
        #expect(String(decoding: try project.read(".gitignore"), as: UTF8.self) == "node_modules/\n")
        #expect(project.exists(".github/workflows/coachlab.yml"))
    }

    /// A file that appears between the check for clashes and its own write is not replaced.
    @Test func aFileThatAppearsAfterTheCheckIsNeverReplaced() throws {
        let files = try PackScaffold.files(app: "nova")
        let disk = FileSystem.inMemory([:])
        var racing = disk
        racing.exists = { path in
            // Someone writes the persona just after init has looked for it.
            if path == "personas/nova/pack.yaml", !disk.exists(path) { try? disk.write("# theirs\n", to: path) ; return false }
            return disk.exists(path)
        }
        #expect(throws: CoachLabError.self) { try PackScaffold.install(files, into: ".", fileSystem: racing) }
        #expect(String(decoding: try disk.read("personas/nova/pack.yaml"), as: UTF8.self) == "# theirs\n")
    }

    /// Finding 12 of the secrets issue: one target was a link that leads nowhere, which init
    /// took for free; it had written 11 of its 14 files when the write refused, and a second
    /// init refused on its own leftovers.
    @Test func aLinkThatLeadsNowhereIsAClashFoundBeforeAnythingIsWritten() throws {
        let directory = try Scratch.folder("init-link")
        let files = try PackScaffold.files(app: "nova")
        try FileManager.default.createDirectory(atPath: directory + "/evals", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory + "/evals/nova.yaml", withDestinationPath: directory + "/nowhere.yaml")
        // A file where a folder of init's should be is a clash too.
        try "not a folder\n".write(toFile: directory + "/fixtures", atomically: true, encoding: .utf8)
        let disk = FileSystem.rooted(at: directory)
        do {
            _ = try PackScaffold.install(files, into: ".", fileSystem: disk)
            Issue.record("init wrote past a link that leads nowhere")
        } catch let error as CoachLabError {
            #expect(error.description.contains("evals/nova.yaml:1:1: error: already exists"), "\(error)")
            #expect(error.description.contains("fixtures/nova/"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["evals", "fixtures"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/evals") == ["nova.yaml"])
        // With the link and the file gone, init writes everything.
        try FileManager.default.removeItem(atPath: directory + "/evals/nova.yaml")
        try FileManager.default.removeItem(atPath: directory + "/fixtures")
        #expect(try PackScaffold.install(files, into: ".", fileSystem: disk).written.count == files.count)
    }

    /// A write that fails part-way (something appeared after the check) takes back what init wrote.
    @Test func aWriteThatFailsPartWayLeavesNothingOfInits() throws {
        let files = try PackScaffold.files(app: "nova")
        let disk = FileSystem.inMemory([:])
        var failing = disk
        let writes = Counter()
        failing.write = { path, mode, body in
            if writes.next() == 5 { throw CoachLabError(.io, "disk full", at: SourceLocation(file: path, line: 1, column: 1)) }
            try disk.write(path, mode, body)
        }
        #expect(throws: CoachLabError.self) { try PackScaffold.install(files, into: ".", fileSystem: failing) }
        #expect(files.allSatisfy { !disk.exists($0.path) })
        #expect(try PackScaffold.install(files, into: ".", fileSystem: disk).written.count == files.count)
    }

    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func next() -> Int { lock.withLock { count += 1; return count } }
    }

    /// `init --app Stride` said "--app:1:1: error: coach id 'Stride' is not a valid id … try
    /// --id stride": a file location, the wrong kind of id and a flag init does not have.
    @Test func anInvalidAppIdIsAUsageErrorAboutTheAppFlag() {
        do {
            _ = try PackScaffold.files(app: "Stride")
            Issue.record("'Stride' was taken as an app id")
        } catch let error as CoachLabError {
            #expect(error.kind == .usage)
            #expect(error.description.contains("--app 'Stride' is not a valid app id") && error.description.contains("try --app stride"), "\(error)")
            #expect(!error.description.contains("--app:1:1") && !error.description.contains("coach id") && !error.description.contains("--id"), "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }
}
