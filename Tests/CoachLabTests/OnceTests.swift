@testable import CoachLab
import Foundation
import Testing

@Suite struct OnceTests {
    /// Callers that ask while the value is being computed wait for it: four threads that miss
    /// at the same moment compute it once between them and all get that value.
    @Test func callersThatAskAtOnceComputeTheValueOnce() {
        let cell = Once<Int>()
        let computations = Counter()
        let results = Results<Int>()
        let started = DispatchGroup()
        let finished = DispatchGroup()
        let threads = (0..<4).map { index in
            Thread {
                started.leave()
                let value = cell.value {
                    computations.increment()
                    // Long enough that every other thread asks while this one computes.
                    Thread.sleep(forTimeInterval: 0.1)
                    return index + 100
                }
                results.append(value)
                finished.leave()
            }
        }
        for thread in threads {
            started.enter()
            finished.enter()
            thread.start()
        }
        started.wait()
        finished.wait()
        #expect(computations.value == 1)
        #expect(results.all.count == 4 && Set(results.all).count == 1)
        // Later callers take the value without computing it.
        #expect(cell.value { -1 } == results.all.first)
        #expect(computations.value == 1)
    }

    /// Concurrent readings of one prompt agree with a reading made on its own.
    @Test func aPromptReadByManyCasesAtOnceReadsAsItDoesAlone() throws {
        let prompt = "You are Ode-\(UUID().uuidString.prefix(6)), a calm coach.\nReply in at most 2 sentences.\nNever use markdown."
        let alone = MockReading(system: prompt)
        let readings = Results<MockReading>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in readings.append(MockReading.of(prompt)) }
        #expect(readings.all.count == 8)
        #expect(readings.all.allSatisfy { $0.instructions == alone.instructions && $0.name == alone.name })
        #expect(alone.sentenceLimit == 2 && alone.bansBold)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private final class Results<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}

@Suite struct BoundedCacheTests {
    /// A value is computed once while the cache holds it; at its bound the cache starts again.
    @Test func keepsValuesUpToItsBound() {
        let cache = BoundedCache<Int, String>(bound: 3)
        let computations = Counter()
        func value(_ key: Int) -> String { cache.value(for: key) { computations.increment(); return "v\(key)" } }
        #expect((0..<3).map(value) == ["v0", "v1", "v2"])
        #expect((0..<3).map(value) == ["v0", "v1", "v2"])
        #expect(computations.value == 3 && cache.count == 3)
        // The fourth key finds the cache full: it starts again with that key alone.
        #expect(value(3) == "v3" && cache.count == 1)
        #expect(value(0) == "v0" && computations.value == 5)
    }
}
