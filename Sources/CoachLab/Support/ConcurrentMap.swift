import Dispatch

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
        return results.map { $0! }
    }
}

/// The result buffer, shared by iterations that never write the same slot.
private struct Slots<T>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<T?>
}
