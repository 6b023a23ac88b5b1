import CoachLab
@testable import CoachLabEval
import CoachLabProviders
import Foundation
import GRDB
import Testing
import CoachLabTestSupport

/// Counts calls, answering as the mock does.
final class CountingProvider: ChatProvider, @unchecked Sendable {
    let id = "mock"
    let model = MockProvider.modelName
    private let lock = NSLock()
    private var count = 0
    var calls: Int { lock.withLock { count } }

    func complete(_ request: ChatRequest) async throws -> ProviderReply {
        lock.withLock { count += 1 }
        return try await MockProvider().complete(request)
    }

    func stream(_ request: ChatRequest) -> AsyncThrowingStream<StreamEvent, Error> {
        lock.withLock { count += 1 }
        return MockProvider().stream(request)
    }
}

struct Stop: Error {}

@Suite struct ResultStoreTests {
    static func temporaryStore() throws -> ResultStore {
        try ResultStore(path: Scratch.path("store") + "/coachlab.sqlite", clock: Date.init)
    }

    /// What must be identical between runs (timings differ).
    static func essence(_ results: [CaseResult]) -> [String] {
        results.sorted { $0.id < $1.id }.map { result in
            "\(result.id) \(result.outcome) \(result.score) " + result.turns.map { turn in
                "\(turn.turn)|\(turn.reply)|\(turn.promptHash)|" + turn.checks.map { "\($0.check):\($0.passed):\($0.reason)" }.joined(separator: ",")
            }.joined(separator: ";")
        }
    }

    /// A new store's foreign keys reference the primary keys they always did, now that the
    /// migrations name those columns rather than have GRDB read them back from the schema.
    @Test func foreignKeysReferenceThePrimaryKeys() throws {
        let store = try Self.temporaryStore()
        let tables = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table'").reduce(into: [String: String]()) {
                $0[$1["name"]] = $1["sql"]
            }
        }
        try store.close()
        #expect(tables["caseResult"]?.contains(#""runId" TEXT NOT NULL REFERENCES "run"("id") ON DELETE CASCADE"#) == true)
        for table in ["turnResult", "checkResult"] {
            #expect(tables[table]?.contains(#"FOREIGN KEY ("runId", "caseId") REFERENCES "caseResult"("runId", "caseId") ON DELETE CASCADE"#) == true,
                    "\(tables[table] ?? "no \(table)")")
        }
    }

    /// A relative store path is taken from the folder of the file system it is opened on, and
    /// named as given; reading it back takes the same folder.
    @Test func aRelativePathIsOpenedInTheFileSystemsFolder() throws {
        let folder = try Scratch.folder("project")
        let store = try ResultStore(path: ".coachlab/runs.sqlite", on: .rooted(at: folder), clock: Date.init)
        let run = try store.startRun(suites: ["evals/luna.yaml"], providers: [], repeats: nil)
        try store.close()
        #expect(store.path == ".coachlab/runs.sqlite")
        #expect(FileManager.default.fileExists(atPath: folder + "/.coachlab/runs.sqlite"))
        #expect(!FileManager.default.fileExists(atPath: ".coachlab/runs.sqlite"))
        #expect(try ResultStore(readingFrom: ".coachlab/runs.sqlite", on: .rooted(at: folder)).runs().map(\.id) == [run])
        let absent = try #require(throws: CoachLabError.self) { _ = try ResultStore(readingFrom: "runs.sqlite", on: .rooted(at: folder)) }
        #expect(absent.description.contains("no result store at runs.sqlite"))
    }

    /// A store that opening made, and that holds no run, goes with its folders when the command
    /// that opened it refuses its input; one that was there before, or holds a run, stays.
    @Test func aNewEmptyStoreIsDiscardedAndNoOtherIs() throws {
        let folder = try Scratch.folder("discard")
        let fresh = try ResultStore(path: "a/b/runs.sqlite", on: .rooted(at: folder), clock: Date.init)
        #expect(FileManager.default.fileExists(atPath: folder + "/a/b/runs.sqlite"))
        fresh.discardIfNew()
        #expect(!FileManager.default.fileExists(atPath: folder + "/a"))
        #expect(FileManager.default.fileExists(atPath: folder))

        let used = try ResultStore(path: "used.sqlite", on: .rooted(at: folder), clock: Date.init)
        _ = try used.startRun(suites: [], providers: [], repeats: nil)
        used.discardIfNew()
        #expect(FileManager.default.fileExists(atPath: folder + "/used.sqlite"))

        try ResultStore(path: "kept.sqlite", on: .rooted(at: folder), clock: Date.init).close()
        let reopened = try ResultStore(path: "kept.sqlite", on: .rooted(at: folder), clock: Date.init)
        reopened.discardIfNew()
        #expect(FileManager.default.fileExists(atPath: folder + "/kept.sqlite"), "a store that was there is not this process's to remove")
        #expect(try reopened.runs().isEmpty, "and it is still open")
    }

    /// Two shards that open a new store at the same moment both see it made: the one that
    /// refuses its input must not remove it while the other, still planning, has it open.
    @Test func aNewStoreAnotherConnectionHasOpenIsKept() throws {
        let folder = try Scratch.folder("discard-shared")
        let refusing = try ResultStore(path: "runs.sqlite", on: .rooted(at: folder), clock: Date.init)
        let planning = try ResultStore(path: "runs.sqlite", on: .rooted(at: folder), clock: Date.init)
        _ = try planning.runs()
        refusing.discardIfNew()
        #expect(FileManager.default.fileExists(atPath: folder + "/runs.sqlite"))
        let run = try planning.startRun(suites: [], providers: [], repeats: nil)
        #expect(try ResultStore(readingFrom: folder + "/runs.sqlite").runs().map(\.id) == [run])
        try planning.close()
    }

    @Test func aStoppedRunResumesToTheSameResultsWithoutRedoingFinishedCases() async throws {
        let suites = try EvalSupport.suites().filter { ["kindred", "luna", "betterone-rollout"].contains($0.suite.id) }

        let straight = CountingProvider()
        let straightStore = try Self.temporaryStore()
        let straightRun = try straightStore.startRun(suites: [], providers: [], repeats: nil)
        try await EvalRunner(registry: ProviderRegistry(system: .tests), concurrency: 1, fileSystem: EvalSupport.fileSystem()) { _, _ in straight }
            .run(suites) { try straightStore.record($0, run: straightRun) }
        let expected = try straightStore.results(run: straightRun)
        #expect(expected.count == 32)

        let counting = CountingProvider()
        let store = try Self.temporaryStore()
        let run = try store.startRun(suites: [], providers: [], repeats: nil)
        let runner = EvalRunner(registry: ProviderRegistry(system: .tests), concurrency: 1, fileSystem: EvalSupport.fileSystem()) { _, _ in counting }
        let recorded = Counter()
        await #expect(throws: Stop.self) {
            try await runner.run(suites) { result in
                try store.record(result, run: run)
                if await recorded.increment() == 7 { throw Stop() }
            }
        }
        let finished = try store.finishedCases(run: run)
        // The seventh result stops the run. Results already on their way to the store then
        // may be kept as well: the runner hands each result on while the next cases run.
        #expect(finished.count >= 7 && finished.count < expected.count)
        let callsBefore = counting.calls
        try await runner.run(suites, include: { !finished.contains($0.id) }) { try store.record($0, run: run) }
        #expect(Self.essence(try store.results(run: run)) == Self.essence(expected))
        // The resume asks the provider only what the unfinished cases ask: a case that was
        // running when the run stopped is run again, a stored one never is.
        let rest = CountingProvider()
        try await EvalRunner(registry: ProviderRegistry(system: .tests), concurrency: 1, fileSystem: EvalSupport.fileSystem()) { _, _ in rest }
            .run(suites, include: { !finished.contains($0.id) }) { _ in }
        #expect(counting.calls - callsBefore == rest.calls, "calls: \(callsBefore) before the stop, \(counting.calls) in all")
        #expect(rest.calls < straight.calls)
    }

    /// The migrations run in the background from `init`; a file they cannot bring up to date
    /// (here, a store whose record of migrations was lost, so v1 meets its own `run` table)
    /// fails its first use with the open error, never with a missing table later.
    @Test func aStoreWhoseMigrationsFailSaysSoOnFirstUse() throws {
        let path = Scratch.path("damaged") + ".sqlite"
        try DatabaseQueue(path: path).write {
            try $0.execute(sql: "CREATE TABLE run (x)")
            try $0.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        let error = try #require(throws: CoachLabError.self) {
            let store = try ResultStore(path: path, clock: Date.init)
            _ = try store.startRun(suites: [], providers: [], repeats: nil)
        }
        #expect(error.description.contains("cannot open the result store") && error.description.contains("already exists"), "\(error)")
    }

    /// A folder named as the store, or a store whose folder cannot be made, is said in words:
    /// SQLite answered "unable to open database file", and Foundation printed its whole
    /// user-info dictionary.
    @Test func aStorePathThatIsAFolderOrCannotBeMadeSaysWhy() throws {
        let folder = Scratch.path("store-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for open in [{ _ = try ResultStore(path: folder, clock: Date.init) }, { _ = try ResultStore(readingFrom: folder) }] {
            let error = try #require(throws: CoachLabError.self) { try open() }
            #expect(error.kind == .usage)
            #expect(error.description.contains("\(folder) is a folder") && error.description.contains("\(folder)/coachlab.sqlite"), "\(error)")
        }
        // A file where its folder should be.
        let file = Scratch.path("store-blocker")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let error = try #require(throws: CoachLabError.self) { _ = try ResultStore(path: file + "/runs/store.sqlite", clock: Date.init) }
        #expect(error.kind == .io)
        #expect(error.description.contains("cannot create the result store's folder \(file)/runs"), "\(error)")
        #expect(!error.description.contains("UserInfo") && !error.description.contains("NSCocoaErrorDomain"), "\(error)")
    }

    /// A file that is not SQLite at all (a report, a README) named as the store is said to be
    /// so, and left as it was: SQLite answered "file is not a database - while executing …".
    @Test func aFileThatIsNotADatabaseIsRefusedInWords() throws {
        let path = Scratch.path("notes") + ".md"
        let text = "# Notes\n\nNot a database.\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        for open in [{ _ = try ResultStore(path: path, clock: Date.init) }, { _ = try ResultStore(readingFrom: path) }] {
            let error = try #require(throws: CoachLabError.self) { try open() }
            #expect(error.kind == .usage && error.description.contains("is not a CoachLab result store (it is not a SQLite database)"), "\(error)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// Another program's SQLite database named as the store by mistake is refused before
    /// anything is written to it: no tables, no journal mode, the file byte for byte.
    @Test func anotherProgramsDatabaseIsNeverChanged() throws {
        let path = Scratch.path("app") + ".db"
        try DatabaseQueue(path: path).write {
            try $0.execute(sql: "CREATE TABLE notes (text)")
            try $0.execute(sql: "INSERT INTO notes VALUES ('mine')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: CoachLabError.self) { _ = try ResultStore(path: path, clock: Date.init) }
        #expect(error.kind == .usage)
        #expect(error.description.contains("is a SQLite database that is not a CoachLab result store (it holds notes); it is never changed"), "\(error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))

        // Another program that keeps its own migration record is not taken for a store either.
        let other = Scratch.path("other-app") + ".db"
        try DatabaseQueue(path: other).write {
            try $0.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('createUsers')")
        }
        #expect(throws: CoachLabError.self) { _ = try ResultStore(path: other, clock: Date.init) }
    }

    /// Parallel CI jobs may share one store: when they all open a new file at once, every
    /// one of them gets a usable store (the migrations race, and the slower ones carry on
    /// from where the faster got).
    @Test func storesOpeningOneNewFileTogetherAllWork() throws {
        for round in 0..<12 {
            let path = Scratch.path("race-\(round)") + "/coachlab.sqlite"
            let opened = (0..<4).concurrentMap { _ in
                Result { try ResultStore(path: path, clock: Date.init).startRun(suites: [], providers: [], repeats: nil) }
            }
            let failures = opened.compactMap { result -> String? in
                guard case .failure(let error) = result else { return nil }
                return "\(error)"
            }
            #expect(failures.isEmpty, "round \(round): \(failures)")
            #expect(try ResultStore(readingFrom: path).runs().count == 4)
        }
    }

    /// A store closed before the process exits leaves what its deinit would: one file in
    /// rollback-journal mode holding every result, with no log beside it; closing twice, or
    /// dropping a closed store, does nothing more.
    @Test func aClosedStoreLeavesOneFileWithEveryResult() throws {
        let path = Scratch.path("closed") + "/coachlab.sqlite"
        let store = try ResultStore(path: path, clock: Date.init)
        let run = try store.startRun(suites: [], providers: ["mock"], repeats: nil)
        try store.record((1...300).map { ReportFromStoreTests.result("s", "f\($0)", 1, .pass) }, run: run)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try store.close()
        try store.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
        #expect(try ResultStore(readingFrom: path).results(run: run).count == 300)
        #expect(throws: CoachLabError.self) { try store.results(run: run) }
    }

    /// The log is copied into the database as a run goes, so what is left for the close at
    /// the end stays small however many cases the run records one by one.
    @Test func theLogStaysSmallWhileARunRecords() throws {
        let path = Scratch.path("log") + "/coachlab.sqlite"
        let store = try ResultStore(path: path, clock: Date.init)
        let run = try store.startRun(suites: [], providers: ["mock"], repeats: nil)
        var largest = 0
        for index in 1...1_500 {
            try store.record(ReportFromStoreTests.result("s", "f\(index)", 1, .pass), run: run)
            let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            largest = max(largest, size)
        }
        #expect(largest > 0 && largest < 1_000_000, "the log reached \(largest) bytes")
        try store.close()
    }

    @Test func runsAreListedWithTheirCounts() throws {
        let store = try Self.temporaryStore()
        let run = try store.startRun(suites: ["evals/luna.yaml"], providers: ["mock"], repeats: 2)
        try store.record(CaseResult(suite: "s", fixture: "f", provider: "mock", model: "m", repeatIndex: 1, outcome: .fail, score: 0.5,
                                    turns: [], error: nil, tags: ["t"]), run: run)
        try store.finishRun(run, status: "finished")
        let info = try #require(try store.run(run))
        #expect(info.suites == ["evals/luna.yaml"] && info.providers == ["mock"] && info.repeats == 2)
        #expect(info.cases == 1 && info.failed == 1 && info.status == "finished")
        #expect(try store.results(run: run).first?.tags == ["t"])
    }
}

@Suite struct ReportFromStoreTests {
    static func result(_ suite: String, _ fixture: String, _ repeatIndex: Int, _ outcome: Outcome) -> CaseResult {
        let check = CheckResult(check: "c", passed: outcome == .pass, reason: outcome == .pass ? "ok" : "it failed")
        let turn = TurnResult(turn: 1, user: "u", reply: "r\(repeatIndex)", checks: [check], latency: 0.1, inputTokens: 1,
                              outputTokens: 1, usageEstimated: true, finishReason: "stop", promptHash: "h")
        let error: String? = outcome == .error ? "HTTP 500" : nil
        return CaseResult(suite: suite, fixture: fixture, provider: "mock", model: "m", repeatIndex: repeatIndex, outcome: outcome,
                          score: outcome == .pass ? 1 : 0, turns: outcome == .error ? [] : [turn], error: error, tags: [])
    }

    /// Two suites whose ids share a prefix, repeats that disagree, and an error.
    static let results: [CaseResult] = [
        result("alpha", "a", 1, .pass), result("alpha", "a", 2, .fail), result("alpha", "a", 3, .pass),
        result("alpha", "b", 1, .pass), result("alpha", "b", 2, .pass), result("alpha", "b", 3, .pass),
        result("alpha-two", "c", 1, .error), result("alpha-two", "c", 2, .pass),
    ]

    /// A case recorded again (resumed, or retried after an error) replaces its earlier result:
    /// its turns, checks and guardrail log entries, in the same run and nowhere else.
    /// A turn's checks go in multi-row inserts of at most 100 rows: a turn with more reads
    /// back whole, in order, each with its own fields.
    @Test func aTurnWithManyChecksKeepsEveryCheckInOrder() throws {
        var result = Self.result("s", "f", 1, .fail)
        result.turns[0].checks = (0..<250).map { (index: Int) -> CheckResult in
            let score: Double = Double(index) / 250
            return CheckResult(check: "c\(index)", passed: index % 3 != 0, score: score, reason: "reason \(index)", weight: Double(index % 4 + 1))
        }
        let store = try ResultStore(clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: nil)
        try store.record(result, run: run)
        let checks = try #require(store.results(run: run).first?.turns.first?.checks)
        #expect(checks == result.turns[0].checks)
    }

    @Test func aCaseRecordedAgainReplacesItsResultTurnsChecksAndLog() throws {
        let luna = try PackLoader(fileSystem: EvalSupport.fileSystem()).load("personas/luna").get()
        let flag = try #require(Screener(pack: luna).screen("I don't want to be here anymore").flags.first)
        var flagged = Self.result("s", "f", 1, .fail)
        flagged.turns[0].flag = flag
        flagged.turns[0].flaggedRule = flag.ruleId
        flagged.turns[0].checks.append(CheckResult(check: "honours-alert", passed: false, reason: "no crisis line"))
        let store = try ResultStore(clock: Date.init)
        let (run, other) = (try store.startRun(suites: [], providers: [], repeats: nil), try store.startRun(suites: [], providers: [], repeats: nil))
        try store.record(flagged, run: run)
        try store.record(flagged, run: other)
        #expect(try store.guardrailLog(run: run).count == 1)

        let passing = Self.result("s", "f", 1, .pass)
        try store.record([passing, Self.result("s", "g", 1, .pass)], run: run)
        let stored = try store.results(run: run)
        #expect(stored.map(\.id) == ["s/f/mock#1", "s/g/mock#1"])
        #expect(stored[0].outcome == .pass && stored[0].turns.count == 1 && stored[0].turns[0].checks.map(\.check) == ["c"])
        #expect(stored[0].turns[0].flaggedRule == nil)
        #expect(try store.guardrailLog(run: run).isEmpty)
        // The other run keeps its own.
        #expect(try store.results(run: other).first?.outcome == .fail)
        #expect(try store.guardrailLog(run: other).count == 1)
    }

    @Test func batchedReadsReturnEveryCaseOnceInSuiteOrder() throws {
        let store = try ResultStore(clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: 3)
        for result in Self.results.shuffled() { try store.record(result, run: run) }
        for size in [1, 2, 3, 7, 8, 100] {
            var seen: [String] = []
            try store.forEachResult(run: run, batchSize: size) { seen.append($0.id) }
            #expect(seen == Self.results.map(\.id), "batch size \(size)")
        }
        #expect(try store.results(run: run, outcomes: [.fail, .error]).map(\.id) == ["alpha/a/mock#2", "alpha-two/c/mock#1"])
    }

    /// A batch's turns and checks are read together for all its cases; each must come back on
    /// its own case and turn, in order, whatever the batch size.
    @Test func batchedReadsKeepEachCasesTurnsAndChecksApart() throws {
        let store = try ResultStore(clock: Date.init)
        let run = try store.startRun(suites: [], providers: [], repeats: 1)
        let written = (1...9).map { number -> CaseResult in
            let fixture = "f\(number)"
            let turns = (1...(number % 3 + 1)).map { turn in
                TurnResult(turn: turn, user: "u", reply: "\(fixture) turn \(turn)",
                           checks: (1...(turn + number % 2)).map { CheckResult(check: "c\($0)", passed: $0 != 2, reason: "\(fixture).\(turn).\($0)") },
                           latency: 0.1, inputTokens: 1, outputTokens: 1, usageEstimated: true, finishReason: "stop", promptHash: "h\(number)")
            }
            return CaseResult(suite: "s", fixture: fixture, provider: "mock", model: "m", repeatIndex: 1, outcome: .pass, score: 1,
                              turns: turns, error: nil, tags: [])
        }
        for result in written.reversed() { try store.record(result, run: run) }
        for size in [1, 2, 4, 256] {
            var read: [CaseResult] = []
            try store.forEachResult(run: run, batchSize: size) { read.append($0) }
            #expect(ResultStoreTests.essence(read) == ResultStoreTests.essence(written), "batch size \(size)")
        }
    }

    /// The counts come from the tally a store keeps of the runs it started, or from one grouped
    /// pass over the rows of any other run. On random runs (several suites, fixtures named in
    /// and out of ASCII, providers, repeats, every outcome, turns from the cache or not,
    /// recorded in batches, sometimes a case recorded again) both must equal the definition,
    /// counted case by case, with the flaky list in SQLite's byte order.
    @Test func suiteCountsEqualTheirDefinitionOnRandomRuns() throws {
        var random = SeededGenerator(seed: 2026_11_27)
        let fixtures = ["a", "b", "B", "é", "e\u{301}", "e", "z", "ä", "a-2"]
        var replacedRuns = 0
        for iteration in 0..<25 {
            let path = Scratch.path("counts") + "/coachlab.sqlite"
            let store = try ResultStore(path: path, clock: Date.init)
            let run = try store.startRun(suites: [], providers: [], repeats: nil)
            var results: [CaseResult] = []
            for suite in ["s1", "s2", "s3"].prefix(Int.random(in: 1...3, using: &random)) {
                for fixture in fixtures where Bool.random(using: &random) {
                    for provider in ["mock", "openai:x"].prefix(Int.random(in: 1...2, using: &random)) {
                        for repeatIndex in 1...Int.random(in: 1...4, using: &random) {
                            let outcome = [Outcome.pass, .pass, .fail, .error].randomElement(using: &random)!
                            let turns = (0..<Int.random(in: 0...2, using: &random)).map { index in
                                var turn = TurnResult(turn: index, user: "u", reply: "r", checks: [], latency: 0.1, inputTokens: 1,
                                                      outputTokens: 1, usageEstimated: true, finishReason: "stop", promptHash: "h")
                                turn.cached = Bool.random(using: &random)
                                return turn
                            }
                            results.append(CaseResult(suite: suite, fixture: fixture, provider: provider, model: "m", repeatIndex: repeatIndex,
                                                      outcome: outcome, score: outcome == .pass ? 1 : 0, turns: turns, error: nil, tags: []))
                        }
                    }
                }
            }
            var start = 0
            while start < results.count {
                let end = min(results.count, start + Int.random(in: 1...20, using: &random))
                try store.record(results[start..<end], run: run)
                start = end
            }
            if iteration % 4 == 3, let index = results.indices.randomElement(using: &random) {
                // Recorded again with the other outcome: it replaces the first result.
                results[index].outcome = results[index].outcome == .pass ? .fail : .pass
                try store.record(results[index], run: run)
                replacedRuns += 1
            }
            var expected: [String: ResultStore.SuiteCounts] = [:]
            for (suite, cases) in Dictionary(grouping: results, by: \.suite) {
                var count = ResultStore.SuiteCounts()
                count.cases = cases.count
                count.passed = cases.count { $0.outcome == .pass }
                count.failed = cases.count { $0.outcome == .fail }
                count.errors = cases.count { $0.outcome == .error }
                count.repeats = cases.map(\.repeatIndex).max() ?? 1
                // By bytes, as SQLite groups: Swift's strings would take "é" and "e\u{301}" for one.
                let groups = Dictionary(grouping: cases) { Array("\($0.fixture)/\($0.provider)".utf8) }
                count.groups = groups.count
                count.groupsAllPassed = groups.values.count { $0.allSatisfy { $0.outcome == .pass } }
                count.groupsAnyPassed = groups.values.count { $0.contains { $0.outcome == .pass } }
                for group in groups.values {
                    count.repeatGroups.add(passed: group.count { $0.outcome == .pass }, scored: group.count { $0.outcome != .error })
                }
                count.flaky = groups.filter { Set($0.value.map(\.outcome)).count > 1 }.keys
                    .sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) }
                expected[suite] = count
            }
            let turns = results.flatMap(\.turns)
            let replies = (cached: turns.count { $0.cached }, replies: turns.count)
            // This store started the run; one opened on the same file only reads its rows.
            let reader = try ResultStore(readingFrom: path)
            for (source, counted) in [("tally", store), ("rows", reader)] {
                #expect(try counted.suiteCounts(run: run) == expected, "\(source), iteration \(iteration)")
                #expect(try counted.cachedReplies(run: run) == replies, "\(source), iteration \(iteration)")
            }
        }
        #expect(replacedRuns == 6)
    }

    /// A run's report counts what its store wrote, and a store that did not start the run
    /// (another process resuming it) counts what is in the file; both stay true as each
    /// writes, and a closed store answers neither.
    @Test func aRunsCountsFollowEveryStoreThatWritesIt() throws {
        let path = Scratch.path("two-writers") + "/coachlab.sqlite"
        let first = try ResultStore(path: path, clock: Date.init)
        let run = try first.startRun(suites: [], providers: [], repeats: nil)
        try first.record(ReportFromStoreTests.result("s", "a", 1, .pass), run: run)
        let second = try ResultStore(path: path, clock: Date.init)
        try second.record(ReportFromStoreTests.result("s", "b", 1, .fail), run: run)
        #expect(try second.suiteCounts(run: run)["s"]?.cases == 2)
        // The first store's tally no longer holds every case of the run: it must not answer.
        try first.record(ReportFromStoreTests.result("s", "c", 1, .pass), run: run)
        #expect(try first.suiteCounts(run: run)["s"]?.cases == 3)
        try first.close()
        #expect(throws: CoachLabError.self) { _ = try first.suiteCounts(run: run) }
        try second.close()
    }

    /// A store keeps the tallies of its latest runs only; the counts of every run it started
    /// stay right, whether they come from a tally or from the rows.
    @Test func everyRunsCountsStayRightAfterManyRuns() throws {
        let store = try ResultStore(path: Scratch.path("many-runs") + "/coachlab.sqlite", clock: Date.init)
        var runs: [(id: String, passed: Int)] = []
        for index in 0..<10 {
            let run = try store.startRun(suites: [], providers: [], repeats: nil)
            try store.record((0...index).map { ReportFromStoreTests.result("s", "f\($0)", 1, .pass) }, run: run)
            try store.record(ReportFromStoreTests.result("s", "failing", 1, .fail), run: run)
            runs.append((run, index + 1))
        }
        for (run, passed) in runs {
            let counts = try #require(try store.suiteCounts(run: run)["s"])
            #expect(counts.passed == passed && counts.failed == 1 && counts.cases == passed + 1)
            #expect(try store.cachedReplies(run: run) == (0, passed + 1))
        }
    }

    @Test func summariesComeFromAggregatesAndMatchTheCases() throws {
        let suites = ["alpha", "alpha-two", "empty"].map {
            Suite(id: $0, threshold: 0.5, repeats: 3, file: "evals/\($0).yaml")
        }
        let report = try RunReport(run: "r", suites: suites, results: Self.results)
        let alpha = try #require(report.suites.first { $0.suite == "alpha" })
        #expect(alpha.cases == 6 && alpha.passed == 5 && alpha.failed == 1 && alpha.errors == 0 && alpha.repeats == 3)
        #expect(alpha.flaky == ["a/mock"])
        #expect(alpha.passAllRepeats == 0.5 && alpha.passAnyRepeat == 1)
        let two = try #require(report.suites.first { $0.suite == "alpha-two" })
        #expect(two.errors == 1 && two.passRate == 1 && !two.held && two.flaky == ["c/mock"])
        #expect(report.suites.first { $0.suite == "empty" }?.cases == 0)
        #expect(report.totals == RunReport.Totals(cases: 8, passed: 6, failed: 1, errors: 1))
        #expect(report.notPassing.map(\.id) == ["alpha/a/mock#2", "alpha-two/c/mock#1"])
        #expect(report.exitCode() == 3)
        let json = try JSONSerialization.jsonObject(with: Data(try Reporters.json(report).utf8)) as? [String: Any]
        #expect((json?["cases"] as? [[String: Any]])?.map { $0["repeatIndex"] as? Int } == [1, 2, 3, 1, 2, 3, 1, 2])
        #expect((json?["totals"] as? [String: Int])?["errors"] == 1)
        let empty = try RunReport(run: "none", suites: suites, results: [])
        let emptyJSON = try JSONSerialization.jsonObject(with: Data(try Reporters.json(empty).utf8)) as? [String: Any]
        #expect((emptyJSON?["cases"] as? [Any])?.isEmpty == true)
    }
}

actor Counter {
    private var value = 0
    func increment() -> Int {
        value += 1
        return value
    }
}

/// The price sheet a run keeps is written without `JSONEncoder`, in the bytes the encoder
/// gives, and reads back whole.
@Suite struct PriceSheetJSONTests {
    @Test func writesWhatTheEncoderWrites() throws {
        let sheets = [
            PriceSheet(file: nil, providers: [:], unpriced: []),
            PriceSheet(file: "providers.yaml", providers: ["openai": .init(input: 0.15, output: 0.6)], unpriced: ["mock"]),
            PriceSheet(file: "a/b \"c\".yaml", providers: ["x": .init(input: 1e-7, output: 1_234_567.891), "a": .init(input: 0, output: 2.5)],
                       unpriced: ["z", "é"]),
        ]
        for sheet in sheets {
            let encoded = String(decoding: try JSONEncoder.sorted().encode(sheet), as: UTF8.self)
            #expect(sheet.json == encoded)
            #expect(PriceSheet(json: sheet.json) == sheet)
        }
    }
}

/// The store's timestamps, written by hand, are the format style's, and run ids are made from them.
@Suite struct StoreTimestampTests {
    @Test func writesWhatTheFormatStyleWrites() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SeededGenerator(seed: 11)
        var times: [TimeInterval] = [0, 0.0004, 0.9996, -0.0004, -1.5, 1_764_000_000.9995, 1_764_000_000.1234567, 951_782_400,
                                     4_107_542_400, -11_676_096_000, -11_676_096_000.5, 253_402_300_799.999, 253_402_300_800,
                                     -62_135_596_800, 1_798_761_599.999, .infinity, -.infinity, .nan]
        for _ in 0..<20_000 { times.append(Double.random(in: -12_000_000_000...254_000_000_000, using: &generator)) }
        for _ in 0..<5_000 { times.append(Double(Int.random(in: 0...4_000_000_000, using: &generator)) + Double.random(in: 0..<1, using: &generator)) }
        for time in times where !time.isNaN && time.isFinite {
            let date = Date(timeIntervalSince1970: time)
            #expect(ResultStore.timestamp(date) == style.format(date), "\(time)")
        }
    }

    @Test func aRunIdIsItsStartTimeAndASuffix() throws {
        let fixed = Date(timeIntervalSince1970: 1_764_447_876.5)
        let store = try ResultStore(clock: { fixed })
        let id = try store.startRun(suites: ["evals/luna.yaml"], providers: ["mock"], repeats: nil)
        #expect(id.hasPrefix("20251129-202436-"), "\(id)")
        #expect(id.dropFirst(16).allSatisfy { $0.isNumber || ("a"..."z").contains($0) } && id.count > 16)
    }
}
