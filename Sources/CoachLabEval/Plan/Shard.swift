import CoachLab

/// One slice of a run for scale-out: `--shard i/n` runs the cases whose id hashes to slice
/// `i` of `n`. The hash (FNV-1a of the case id) depends on nothing but the id, so the slices
/// are stable across machines and runs, disjoint, and together cover every case.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// The slice, from 1.
    public let index: Int
    /// How many slices there are.
    public let count: Int

    /// A shard from `i/n` with 1 ≤ i ≤ n; nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the case with this id belongs to the shard.
    public func contains(_ caseId: String) -> Bool {
        Int(StableHash.value(caseId) % UInt64(count)) == index - 1
    }
}
