import CoachLab
import CoachLabEval
import CoachLabProviders
import Foundation
import Testing

/// Fixtures are parsed once per run up to a budget; past it they are read again when their
/// cases run. Either way the run is the same run.
@Suite struct HeldFixtureTests {
    /// Counts reads of fixture files.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var total: Int { lock.withLock { count } }
    }

    private func counted(_ reads: Reads) -> FileSystem {
        var fileSystem = EvalSupport.fileSystem()
        let read = fileSystem.read
        fileSystem.read = { path in
            if path.contains("fixtures/luna/") { reads.add() }
            return try read(path)
        }
        return fileSystem
    }

    private func run(heldFixtures: Int) async throws -> (ids: [String], outcomes: [String: Outcome], readsDuringRun: Int) {
        let reads = Reads()
        let fileSystem = counted(reads)
        let (suites, diagnostics) = SuiteCatalog(fileSystem: fileSystem).load(["evals/luna.yaml"], heldFixtures: heldFixtures)
        #expect(diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
        let afterLoad = reads.total
        let results = ResultBox()
        try await EvalRunner(registry: ProviderRegistry(system: .tests), fileSystem: fileSystem).run(suites) { await results.add($0) }
        let outcomes = Dictionary(await results.all.map { ($0.id, $0.outcome) }) { first, _ in first }
        return (suites.flatMap { $0.fixtures.map(\.id) }, outcomes, reads.total - afterLoad)
    }

    @Test func fixturesPastTheBudgetAreReadAgainAndTheRunIsTheSame() async throws {
        let all = try await run(heldFixtures: .max)
        let two = try await run(heldFixtures: 2)
        #expect(all.ids.count > 4)
        #expect(all.readsDuringRun == 0, "held fixtures are never parsed again")
        #expect(two.readsDuringRun == all.ids.count - 2, "each fixture past the budget is read once, when its case runs")
        #expect(two.ids == all.ids, "the budget does not reorder the suite")
        #expect(two.outcomes == all.outcomes)
        #expect(all.outcomes.values.allSatisfy { $0 == .pass })
    }
}
