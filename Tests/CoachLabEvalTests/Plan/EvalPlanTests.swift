import CoachLab
@testable import CoachLabEval
import CoachLabProviders
import Foundation
import Testing
import CoachLabTestSupport

/// The run a command asks for, planned and executed in the library: resume, retry, filter,
/// shards and merging, tested without the binary.
@Suite struct EvalPlanTests {
    let catalog = SuiteCatalog(fileSystem: EvalSupport.fileSystem())

    private func plan(_ configure: (inout EvalRequest) -> Void = { _ in }, store: ResultStore,
                      provider: @escaping @Sendable () -> any ChatProvider = { MockProvider() }) throws -> EvalPlan {
        var request = EvalRequest()
        request.suites = ["evals/luna.yaml"]
        configure(&request)
        return try EvalPlan.make(request, registry: ProviderRegistry(system: .tests), store: store, catalog: catalog) { _, _ in provider() }
    }

    /// Checks on earlier turns that no suite of the run scores are said before it runs, with
    /// where they are; a fixture another suite of the run plays out turn by turn is fine.
    @Test func checksNoSuiteOfTheRunScoresAreSaid() throws {
        let (_, together) = catalog.load(["evals/betterone.yaml", "evals/betterone-rollout.yaml"])
        #expect(!together.contains { $0.message.contains("not scored") }, "\(together)")
        let (_, alone) = catalog.load(["evals/betterone.yaml"])
        let unscored = alone.filter { $0.message.contains("not scored") }
        #expect(unscored.map(\.location.description) == ["fixtures/betterone/rollout-risk-midway.yaml:11:14",
                                                         "fixtures/betterone/rollout-risk-midway.yaml:13:14"], "\(alone)")
        #expect(unscored.allSatisfy { $0.severity == .warning && $0.message.contains("evals/betterone.yaml") })
    }

    @Test func aNewPlanRunsEveryCaseAndOpensARun() async throws {
        let store = try ResultStore(clock: Date.init)
        let plan = try plan(store: store)
        #expect(plan.total == plan.suites[0].fixtures.count)
        #expect(plan.providers == ["mock"])
        #expect(plan.continuationSummary == nil)
        let execution = try await RunExecution.run(plan, store: store)
        #expect(execution.done == plan.total && !execution.interrupted)
        #expect(try store.run(plan.run)?.status == "finished")
        #expect(try store.finishedCases(run: plan.run).count == plan.total)
    }

    /// A run that keeps and filters nothing counts its cases without making them; the count
    /// and the providers are those of the cases it then runs.
    @Test func aWholeRunIsCountedAsItsCasesAre() throws {
        let plan = try plan({ $0.suites = ["evals/luna.yaml", "evals/ticbuddy.yaml"]; $0.repeats = 3 }, store: try ResultStore(clock: Date.init))
        let cases = plan.suites.flatMap { Array(plan.runner.cases(of: $0)) }
        #expect(plan.total == cases.count)
        #expect(plan.total == 3 * plan.suites.reduce(0) { $0 + $1.fixtures.count } && plan.total > 3)
        #expect(plan.providers == Set(cases.map(\.provider)).sorted())
    }

    /// An unknown provider, a provider without its key and a --base-url without its scheme
    /// fail before the run is opened: each left an empty "interrupted" run in the store.
    @Test func aProviderThatCannotBeBuiltLeavesNoRunBehind() throws {
        let store = try ResultStore(clock: Date.init)
        let registry = ProviderRegistry(configurations: [ProviderConfiguration(id: "keyed", kind: .openai, model: "gpt")], system: .tests)
        let attempts: [(EvalRequest) -> EvalRequest] = [
            { var request = $0; request.providers = ["nope"]; return request },
            { var request = $0; request.providers = ["keyed"]; return request },
            { var request = $0; request.providers = ["openai-compatible:m"]; request.baseURL = "127.0.0.1:9/v1"; return request },
        ]
        for attempt in attempts {
            var request = EvalRequest()
            request.suites = ["evals/luna.yaml"]
            #expect(throws: (any Error).self) {
                _ = try EvalPlan.make(attempt(request), registry: registry, store: store, catalog: catalog) { try $1.provider($0) }
            }
        }
        #expect(try store.runs().isEmpty)
    }

    @Test func theSpeedLineCountsOneCaseInTheSingular() {
        var execution = RunExecution(interrupted: false, done: 1, seconds: 0.5, run: "r")
        #expect(execution.speed == "1 case in 0.50 s (2 cases/s)")
        execution.done = 3
        #expect(execution.speed == "3 cases in 0.50 s (6 cases/s)")
    }

    @Test func resumingKeepsFinishedCasesAndRunsTheRest() async throws {
        let store = try ResultStore(clock: Date.init)
        let first = try plan({ $0.filter = "three-am" }, store: store)
        #expect(first.total == 1)
        _ = try await RunExecution.run(first, store: store)
        // The stored run's suites are used when none are named.
        let resumed = try plan({ $0.suites = []; $0.continuation = .resume(first.run) }, store: store)
        #expect(resumed.run == first.run)
        #expect(resumed.request.suites == ["evals/luna.yaml"])
        #expect(resumed.kept == 1)
        #expect(resumed.total == resumed.suites[0].fixtures.count - 1)
        #expect(resumed.continuationSummary == "resuming run \(first.run): 1 case already finished, \(resumed.total) to go")
        _ = try await RunExecution.run(resumed, store: store)
        #expect(try store.finishedCases(run: first.run).count == resumed.total + 1)
    }

    @Test func retryingRunsOnlyTheErroredCases() async throws {
        let store = try ResultStore(clock: Date.init)
        let failing = try plan({ $0.filter = "crisis" }, store: store) { FailingProvider() }
        _ = try await RunExecution.run(failing, store: store)
        let errored = try store.results(run: failing.run, outcomes: [.error]).count
        #expect(errored == failing.total && errored >= 2)
        let retry = try plan({ $0.continuation = .retryErrors(failing.run) }, store: store)
        #expect(retry.total == errored, "only the errored cases run again, not the cases the filtered run never reached")
        _ = try await RunExecution.run(retry, store: store)
        #expect(try store.results(run: failing.run, outcomes: [.error]).isEmpty)
        #expect(throws: EvalPlan.NothingToRetry.self) { try plan({ $0.continuation = .retryErrors(failing.run) }, store: store) }
    }

    /// The example in the README, as written there (with the store in memory).
    @Test func theReadmeExampleRuns() async throws {
        var request = EvalRequest()
        request.suites = ["evals/luna.yaml"]
        request.filter = "crisis"
        let store = try ResultStore(clock: Date.init)
        let plan = try EvalPlan.make(request, registry: ProviderRegistry(system: .tests), store: store,
                                     catalog: SuiteCatalog(fileSystem: EvalSupport.fileSystem())) { configuration, registry in
            try registry.provider(configuration)
        }
        let execution = try await RunExecution.run(plan, store: store)
        let report = try RunReport(run: plan.run, suites: plan.suites.map(\.suite), store: store)
        #expect(execution.done == 2 && report.totals.passed == 2)
        #expect(Reporters.terminal(report, colour: false).contains("2 cases: 2 passed, 0 failed, 0 errors"))
    }

    @Test func theStoreTellsTimeByItsClock() async throws {
        let fixed = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
        let store = try ResultStore(clock: { fixed })
        let plan = try plan({ $0.filter = "luna-crisis" }, store: store)
        #expect(plan.run.hasPrefix("20261118-110640-"))
        _ = try await RunExecution.run(plan, store: store)
        let info = try #require(try store.run(plan.run))
        #expect(info.startedAt == ResultStore.timestamp(fixed) && info.finishedAt == ResultStore.timestamp(fixed))
        let log = try store.guardrailLog()
        #expect(!log.isEmpty && log.allSatisfy { $0.at == ResultStore.timestamp(fixed) }, "the crisis message is logged at the store's time")
    }

    /// Packs are loaded and checked while planning, so a broken pack fails the plan and no
    /// empty run is left in the store.
    @Test func aBrokenPackFailsThePlanBeforeARunIsOpened() throws {
        let pack = try String(contentsOfFile: EvalSupport.root + "/personas/luna/pack.yaml", encoding: .utf8)
        let broken = pack.replacingOccurrences(of: "  - rules.yaml\n", with: "  - rules.yaml\n  - missing.yaml\n")
        #expect(broken != pack)
        let catalog = SuiteCatalog(fileSystem: EvalSupport.fileSystem(overriding: ["personas/luna/pack.yaml": broken]))
        let store = try ResultStore(clock: Date.init)
        var request = EvalRequest()
        request.suites = ["evals/luna.yaml"]
        let error = try #require(throws: CoachLabError.self) {
            try EvalPlan.make(request, registry: ProviderRegistry(system: .tests), store: store, catalog: catalog) { _, _ in MockProvider() }
        }
        #expect("\(error)".contains("missing.yaml"), "\(error)")
        #expect(try store.runs().isEmpty)
    }

    /// A folder named as a suite stands for the suites in it, as `evals/` does by default; a
    /// folder without one is a usage error that says so.
    @Test func aFolderStandsForTheSuitesInIt() throws {
        let fileSystem = EvalSupport.fileSystem()
        let catalog = SuiteCatalog(fileSystem: fileSystem)
        #expect(try catalog.suiteFiles(named: ["evals/"]) == catalog.suiteFiles())
        #expect(try catalog.suiteFiles(named: ["evals/luna.yaml", "evals"]).count == catalog.suiteFiles().count + 1)
        let (suites, _) = try EvalPlan.load(["evals"], catalog: catalog)
        let (named, _) = try EvalPlan.load(catalog.suiteFiles(), catalog: catalog)
        #expect(!suites.isEmpty && suites.map(\.suite.id) == named.map(\.suite.id))
        let error = #expect(throws: CoachLabError.self) { try catalog.suiteFiles(named: ["docs"]) }
        #expect(error?.description.contains("no suites in docs") == true, "\(String(describing: error))")
    }

    @Test func anUnknownRunIsAUsageError() throws {
        #expect(throws: CoachLabError.self) { try plan({ $0.continuation = .resume("no-such-run") }, store: try ResultStore(clock: Date.init)) }
    }

    /// Four shards, two merged from their stores and two from their JSON reports, give the
    /// unsharded run back case for case; the same shard twice is refused.
    @Test func shardsSplitTheCasesWithoutOverlapAndMergeBack() async throws {
        let directory = try Scratch.folder("plan")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var inputs: [String] = []
        var totals: [Int] = []
        for index in 1...4 {
            let path = "\(directory)/shard-\(index).sqlite"
            let store = try ResultStore(path: path, clock: Date.init)
            let plan = try plan({ $0.shard = Shard("\(index)/4") }, store: store)
            _ = try await RunExecution.run(plan, store: store)
            totals.append(plan.total)
            if index <= 2 {
                inputs.append(path)
            } else {
                let report = try RunReport(run: plan.run, suites: plan.suites.map(\.suite), store: store)
                try Data(try Reporters.json(report).utf8).write(to: URL(fileURLWithPath: "\(directory)/shard-\(index).json"))
                inputs.append("\(directory)/shard-\(index).json")
            }
        }
        let unsharded = try ResultStore(clock: Date.init)
        let whole = try plan(store: unsharded)
        _ = try await RunExecution.run(whole, store: unsharded)
        #expect(totals.reduce(0, +) == whole.total && totals.allSatisfy { $0 > 0 })
        let target = try ResultStore(path: "\(directory)/merged.sqlite", clock: Date.init)
        let merge = try RunMerge.merge(inputs, into: target, fileSystem: EvalSupport.fileSystem())
        #expect(merge.cases == whole.total && merge.inputs == 4 && merge.warnings.isEmpty)
        #expect(merge.suites.map(\.id) == ["luna"])
        func essence(_ results: [CaseResult]) -> [String: String] {
            Dictionary(uniqueKeysWithValues: results.map { result in
                (result.id, "\(result.outcome) \(result.turns.map { "\($0.reply) \($0.checks.map(\.passed))" })")
            })
        }
        #expect(essence(try target.results(run: merge.run)) == essence(try unsharded.results(run: whole.run)))
        // The same shard twice overlaps, from a store and from its report alike.
        #expect(throws: CoachLabError.self) {
            try RunMerge.merge([inputs[0], inputs[0]], into: target, fileSystem: EvalSupport.fileSystem())
        }
        #expect(throws: CoachLabError.self) {
            try RunMerge.merge([inputs[2], inputs[2]], into: target, fileSystem: EvalSupport.fileSystem())
        }
    }

    @Test func cancellingARunMarksItInterruptedAndKeepsWhatFinished() async throws {
        let store = try ResultStore(clock: Date.init)
        let plan = try plan({ $0.concurrency = 1 }, store: store) { SlowAfterFirstProvider() }
        let work = Task { try await RunExecution.run(plan, store: store) }
        while try store.finishedCases(run: plan.run).isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        work.cancel()
        let execution = try await work.value
        #expect(execution.interrupted)
        #expect(execution.done >= 1 && execution.done < plan.total)
        #expect(try store.run(plan.run)?.status == "interrupted")
        #expect(try store.finishedCases(run: plan.run).count == execution.done)
    }
}

/// Fails every request as a provider outage does.
struct FailingProvider: ChatProvider {
    let id = "mock"
    let model = MockProvider.modelName
    func complete(_ request: ChatRequest) async throws -> ProviderReply {
        throw ProviderError(.server, provider: id, message: "503 Service Unavailable")
    }
    func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { $0.finish(throwing: ProviderError(.server, provider: id, message: "503 Service Unavailable")) }
    }
}

/// Answers the first request at once and waits (until cancelled) on every later one.
actor SlowAfterFirstProvider: ChatProvider {
    nonisolated let id = "mock"
    nonisolated let model = MockProvider.modelName
    private var answered = 0
    func complete(_ request: ChatRequest) async throws -> ProviderReply {
        answered += 1
        if answered > 1 { try await Task.sleep(for: .seconds(60)) }
        return try await MockProvider().complete(request)
    }
    nonisolated func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        AsyncThrowingStream { $0.finish(throwing: CancellationError()) }
    }
}

/// `coachlab rescore` in the library: a stored run scored again into a new run of the store.
@Suite struct RescoreIntoTheStoreTests {
    @Test func aTightenedCheckFailsStoredRepliesInANewRunAndAnUnchangedOneChangesNothing() async throws {
        let fileSystem = EvalSupport.fileSystem()
        let store = try ResultStore(clock: Date.init)
        let plan = try EvalPlan.make({ var request = EvalRequest(); request.suites = ["evals/luna.yaml"]; return request }(),
                                     registry: ProviderRegistry(system: .tests), store: store,
                                     catalog: SuiteCatalog(fileSystem: fileSystem)) { _, _ in MockProvider() }
        _ = try await RunExecution.run(plan, store: store)
        let original = try #require(try store.run(plan.run))
        #expect(original.failed == 0 && original.cases == plan.total)

        // The author tightens a check: at most 1 sentence instead of 4.
        let suite = try String(decoding: fileSystem.read("evals/luna.yaml"), as: UTF8.self)
        #expect(suite.contains("{check: sentences, max: 4}"))
        let tightened = EvalSupport.fileSystem(overriding: ["evals/luna.yaml": suite.replacingOccurrences(of: "{check: sentences, max: 4}",
                                                                                                          with: "{check: sentences, max: 1}")])
        let (suites, _) = SuiteCatalog(fileSystem: tightened).load(["evals/luna.yaml"], heldFixtures: .max)
        let (target, summary) = try await Rescorer.rescore(original, suites: suites, paths: ["evals/luna.yaml"], in: store, fileSystem: tightened)
        let rescored = try #require(try store.run(target))
        #expect(target != plan.run && rescored.status == "finished" && rescored.cases == original.cases)
        #expect(rescored.failed > 0 && summary.rescored == original.cases && summary.changed.count == rescored.failed)
        let lines = summary.lines(run: plan.run, target: target)
        #expect(lines[0] == "rescored \(original.cases) cases of run \(plan.run) into run \(target) with no provider calls")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  changed luna/") } && lines.count == 1 + summary.changed.count)
        let failing = try store.results(run: target).filter { $0.outcome == .fail }
        #expect(failing.allSatisfy { $0.turns.flatMap(\.checks).contains { $0.check == "sentences" && !$0.passed } })

        // The same checks give the same verdicts, and the first run is left as it was.
        let (same, unchanged) = try await Rescorer.rescore(original, suites: plan.suites, paths: ["evals/luna.yaml"], in: store, fileSystem: fileSystem)
        let again = try store.run(same)
        #expect(unchanged.changed.isEmpty && again?.failed == 0)
        #expect(try store.run(plan.run) == original)
    }
}

/// `coachlab watch` in the library: each rebuild reads the files as they are then, with no
/// watcher, so every step of an editing session is tested in order.
@Suite struct WatchSessionTests {
    static func read(_ fileSystem: FileSystem, _ path: String) throws -> String { String(decoding: try fileSystem.read(path), as: UTF8.self) }

    /// The files an editor has saved, over the package's.
    final class Edits: @unchecked Sendable {
        private let lock = NSLock()
        private var files: [String: String] = [:]
        subscript(path: String) -> String? {
            get { lock.withLock { files[path] } }
            set { lock.withLock { files[path] = newValue } }
        }
        var fileSystem: FileSystem { EvalSupport.fileSystem(overriding: lock.withLock { files }) }
    }

    @Test func eachSaveRecompilesNamesTheChangedLayersAndRunsOnlyWhatItTouched() async throws {
        let original = EvalSupport.fileSystem()
        let runner = EvalRunner(registry: ProviderRegistry(system: .tests), fileSystem: original)
        let edits = Edits()
        var files: FileSystem { edits.fileSystem }
        let ran = ResultBox()
        var (session, first) = try await WatchSession.start(pack: "personas/luna/", suites: ["evals/luna.yaml"], fileSystem: files) { suites, fixtures in
            var runner = runner
            runner.fileSystem = edits.fileSystem
            let results = ResultBox()
            try await runner.run(suites, include: { fixtures.contains($0.fixture) }) { await results.add($0); await ran.add($0) }
            return await results.all
        }
        let total = await ran.all.count
        #expect(session.pack == "personas/luna" && total > 1)
        #expect(first.text == "ran all \(total) fixtures: \(total) of \(total) cases passed\n", "\(first.text)")
        #expect(session.folders(fileSystem: files) == [".", "evals", "fixtures", "fixtures/luna", "personas", "personas/luna"])

        // A save that changes nothing is not a rebuild.
        #expect(try await session.rebuild(fileSystem: files) == nil && session.rebuilds == 0)

        // 1. The persona's voice: a layer of every variant changes, and every fixture runs.
        edits["personas/luna/pack.yaml"] = try Self.read(original, "personas/luna/pack.yaml")
            .replacingOccurrences(of: "no exclamation marks.", with: "never an exclamation mark.")
        let voice = try #require(try await session.rebuild(fileSystem: files))
        #expect(voice.text.hasPrefix("\n— change 1 —\nlayer "), "\(voice.text)")
        #expect(voice.text.contains(" changed (") && voice.text.hasSuffix("ran \(total) of \(total) fixtures: \(total) of \(total) cases passed\n"))

        // 2. One fixture's text: no layer changes, and only that fixture runs.
        edits["fixtures/luna/greeting.yaml"] = try Self.read(original, "fixtures/luna/greeting.yaml") + "# edited\n"
        let fixture = try #require(try await session.rebuild(fileSystem: files))
        #expect(fixture.text == "\n— change 2 —\nno layer of any variant changed\nran 1 of \(total) fixtures: 1 of 1 cases passed\n", "\(fixture.text)")

        // 3. A broken save: the diagnostics at their place, and the session goes on.
        let rules = try Self.read(original, "personas/luna/rules.yaml")
        edits["personas/luna/rules.yaml"] = "rules: [\n"
        let broken = try #require(try await session.rebuild(fileSystem: files))
        #expect(broken.text == "\n— change 3 —\nthe pack does not load; fix the problems above and save again\n")
        #expect(broken.diagnostics.count == 1 && broken.diagnostics[0].contains("personas/luna/rules.yaml:"), "\(broken.diagnostics)")

        // 4. Fixed as it was: everything loads again, nothing changed since the last good state.
        edits["personas/luna/rules.yaml"] = rules
        let fixed = try #require(try await session.rebuild(fileSystem: files))
        #expect(fixed.text == "\n— change 4 —\neverything loads again\nno layer of any variant changed\nno fixture's prompt or file changed; nothing to run\n",
                "\(fixed.text)")
        #expect(session.rebuilds == 4)
        #expect(try await session.rebuild(fileSystem: files) == nil)
    }

    /// Finding 8 of the secrets issue: a broken save that landed while the fixtures ran made
    /// the runner throw, and `watch` exited with status 2.
    @Test func aSaveThatBreaksAFileWhileTheFixturesRunIsABrokenSaveNotAnExit() async throws {
        let edits = Edits()
        let calls = Calls()
        var (session, _) = try await WatchSession.start(pack: "personas/luna", suites: ["evals/luna.yaml"], fileSystem: edits.fileSystem) { _, _ in
            // The second run reads a rules file the editor has just broken.
            if await calls.next() == 2 {
                throw CoachLabError(.content, [.error("expected a value", at: SourceLocation(file: "personas/luna/rules.yaml", line: 1, column: 9))])
            }
            return []
        }
        edits["personas/luna/pack.yaml"] = try Self.read(EvalSupport.fileSystem(), "personas/luna/pack.yaml")
            .replacingOccurrences(of: "no exclamation marks.", with: "never an exclamation mark.")
        let update = try #require(try await session.rebuild(fileSystem: edits.fileSystem))
        #expect(update.text.hasSuffix("a file changed while the fixtures ran and no longer loads; fix the problems above and save again\n"), "\(update.text)")
        #expect(update.diagnostics.count == 1 && update.diagnostics[0].contains("personas/luna/rules.yaml:1:9"))
        // The next save, whatever it changes, runs again from the last state that loaded.
        let next = try #require(try await session.rebuild(fileSystem: edits.fileSystem))
        #expect(next.text.contains("everything loads again"), "\(next.text)")
    }

    actor Calls {
        private var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    /// Every folder under the pack is watched, with the suites' and fixtures' folders.
    @Test func theFoldersUnderThePackAreWatched() async throws {
        let (session, _) = try await WatchSession.start(pack: "personas/betterone", suites: ["evals/betterone.yaml"],
                                                        fileSystem: EvalSupport.fileSystem()) { _, _ in [] }
        let folders = session.folders(fileSystem: EvalSupport.fileSystem())
        #expect(folders.contains("personas/betterone/topics") && folders.contains("personas/betterone") && folders.contains("evals"))
        #expect(folders.contains { $0.hasPrefix("fixtures/betterone") } && folders == folders.sorted())
    }

    @Test func aPackNoFixtureUsesIsAUsageError() async throws {
        await #expect(throws: CoachLabError.self) {
            _ = try await WatchSession.start(pack: "personas/kindred", suites: ["evals/luna.yaml"], fileSystem: EvalSupport.fileSystem()) { _, _ in [] }
        }
    }
}
