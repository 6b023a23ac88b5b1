@testable import CoachLab
import Foundation
import Testing

@Suite struct WorkQueueTests {
    /// Every job runs once, those added while others run included, and `drain` returns only
    /// after the last: a job of depth d adds d jobs of depth d - 1, so 4 starts 65 jobs.
    @Test(arguments: [1, 2, 8])
    func everyJobAndEveryAddedJobRunsOnce(width: Int) {
        let ran = Tally()
        WorkQueue<Int>.drain([4], width: width) { depth, queue in
            ran.add(depth)
            for _ in 0..<depth { queue.add(depth - 1) }
        }
        #expect(ran.counts == [0: 24, 1: 24, 2: 12, 3: 4, 4: 1])
    }

    /// concurrentMap hands its results over and keeps none: every one is freed once the caller
    /// lets go of the array.
    @Test func concurrentMapKeepsNoResultAlive() {
        let freed = Tally()
        do {
            let results = Array(0..<100).concurrentMap { Token(value: $0, freed: freed) }
            #expect(results.map(\.value) == Array(0..<100))
        }
        #expect(freed.counts.values.reduce(0, +) == 100)
    }

    @Test func anEmptyQueueReturnsAtOnce() {
        let ran = Tally()
        WorkQueue<Int>.drain([]) { depth, _ in ran.add(depth) }
        #expect(ran.counts.isEmpty)
    }

    /// Loading the packs and compiling their variants share one queue; the result keeps the
    /// order of the paths and matches compiling each pack alone.
    @Test func renderingPacksTogetherMatchesRenderingEachAlone() throws {
        let names = ["luna", "betterone", "ticbuddy", "healthwallet", "kindred"]
        let together = try PromptSnapshots.render(packs: names.map { "personas/\($0)" }, fileSystem: TestSupport.fileSystem)
        #expect(together.map(\.pack) == names)
        for (name, rendered) in zip(names, together) {
            let alone = try PromptSnapshots.render(try TestSupport.compiler(name), fileSystem: TestSupport.fileSystem)
            #expect(rendered.files == alone)
        }
    }

    /// With several packs failing, the error is that of the first in the order given, whichever
    /// finished first.
    @Test func theFirstPackInOrderThatFailsIsTheOneReported() {
        let paths = ["personas/luna", "personas/no-such-pack", "personas/betterone", "personas/also-missing"]
        #expect { try PromptSnapshots.render(packs: paths, fileSystem: TestSupport.fileSystem) } throws: { error in
            "\(error)".contains("no-such-pack") && !"\(error)".contains("also-missing")
        }
    }
}

/// A result that counts itself out when it is freed.
private final class Token: Sendable {
    let value: Int
    let freed: Tally
    init(value: Int, freed: Tally) {
        self.value = value
        self.freed = freed
    }
    deinit { freed.add(value) }
}

/// How many times each value was seen, from any thread.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [Int: Int] = [:]
    func add(_ value: Int) { lock.withLock { seen[value, default: 0] += 1 } }
    var counts: [Int: Int] { lock.withLock { seen } }
}
