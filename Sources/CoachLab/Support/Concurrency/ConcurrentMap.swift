import Dispatch
import Foundation
import Synchronization

extension Collection where Self: Sendable, Element: Sendable, Index == Int {
    /// `map` over every core: for independent, CPU-bound work such as parsing a suite's fixture
    /// files before its cases run. The results keep the collection's order.
    package func concurrentMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer { results.deallocate() }
        let slots = Slots(base: results)
        let start = startIndex
        DispatchQueue.concurrentPerform(iterations: count) { offset in
            // Each iteration writes its own slot, and concurrentPerform returns after all of them.
            slots.base[offset] = transform(self[start + offset])
        }
        // Moved out, so the buffer holds nothing when it is freed: a copy would leave every
        // result retained by a slot no one frees.
        return results.indices.map { results.moveElement(from: $0)! }
    }
}

/// `first` and `second` side by side, on two cores when there are two: for two independent,
/// CPU-bound parts of one preparation, such as a compiler's screener and its templates.
package func concurrently<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
    let results = Mutex<(first: A?, second: B?)>((nil, nil))
    DispatchQueue.concurrentPerform(iterations: 2) { part in
        // Each part computes outside the lock and only stores its result under it.
        if part == 0 {
            let value = first()
            results.withLock { $0.first = value }
        } else {
            let value = second()
            results.withLock { $0.second = value }
        }
    }
    return results.withLock { ($0.first!, $0.second!) }
}

/// The result buffer, shared by iterations that never write the same slot.
///
/// Unchecked because a buffer pointer is not Sendable: safe as each iteration of
/// `concurrentPerform` writes only the slot of its own index, and the buffer is read only after
/// `concurrentPerform` has returned, which orders every write before the reads.
private struct Slots<T>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<T?>
}

/// Jobs run on every core, where a job may add more: for work in stages of uneven size, such
/// as loading packs and then compiling each pack's variants. A core that runs out of its own
/// work takes the next job whichever stage it belongs to, so one large pack does not leave
/// the other core idle while it loads.
///
/// Unchecked because its state is guarded by an `NSCondition`, which the compiler cannot see:
/// safe as every read and write of `pending`, `next` and `running` happens between that
/// condition's `lock()` and `unlock()`. A `Mutex` would not do, since a worker with nothing to
/// take must wait for another to add a job or finish, which needs the condition's `wait()`.
package final class WorkQueue<Job: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [Job]
    private var next = 0
    private var running = 0

    private init(_ jobs: [Job]) { pending = jobs }

    /// Runs `jobs`, and every job they add, on `width` threads (the caller's among them), and
    /// returns when none is left. Jobs start in the order they were added.
    package static func drain(_ jobs: [Job], width: Int = ProcessInfo.processInfo.activeProcessorCount,
                              _ run: @Sendable (Job, WorkQueue) -> Void) {
        guard !jobs.isEmpty else { return }
        let queue = WorkQueue(jobs)
        DispatchQueue.concurrentPerform(iterations: max(1, width)) { _ in
            while let job = queue.take() {
                run(job, queue)
                queue.finish()
            }
        }
    }

    /// Adds a job, to start after those already waiting.
    package func add(_ job: Job) {
        condition.lock()
        pending.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The next job, waiting while others run and might add one; nil when all are done.
    private func take() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while next == pending.count {
            if running == 0 { return nil }
            condition.wait()
        }
        let job = pending[next]
        next += 1
        running += 1
        return job
    }

    private func finish() {
        condition.lock()
        running -= 1
        if running == 0, next == pending.count { condition.broadcast() }
        condition.unlock()
    }
}
