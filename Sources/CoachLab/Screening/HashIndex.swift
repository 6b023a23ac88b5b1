/// A read-only multimap from a 64-bit hash to values, built once and probed on every word of
/// every message: open addressing with linear probing over flat arrays, so a look-up is a few
/// loads and compares, where a `Dictionary` would hash its key again and allocate nothing less.
/// The keys are already hashes (of folded words), so they are used as they are.
struct HashIndex<Value: Sendable>: Sendable {
    private var keys: [UInt64] = []
    /// Where each slot's values start in ``values``, and how many; a count of 0 marks an empty slot.
    private var starts: [Int32] = []
    private var counts: [Int32] = []
    private(set) var values: [Value] = []
    private var mask = 0

    /// An index of `pairs`; the values of one key keep the order they were given in.
    init(_ pairs: [(key: UInt64, value: Value)]) {
        var order: [UInt64] = []
        var grouped: [UInt64: [Value]] = [:]
        for (key, value) in pairs {
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append(value)
        }
        var capacity = 8
        while capacity < order.count * 2 { capacity *= 2 }
        mask = capacity - 1
        keys = Array(repeating: 0, count: capacity)
        starts = Array(repeating: 0, count: capacity)
        counts = Array(repeating: 0, count: capacity)
        values.reserveCapacity(pairs.count)
        for key in order {
            var slot = Self.slot(key, mask)
            while counts[slot] != 0 { slot = (slot + 1) & mask }
            let group = grouped[key]!
            keys[slot] = key
            starts[slot] = Int32(values.count)
            counts[slot] = Int32(group.count)
            values += group
        }
    }

    init() { self.init([]) }

    var isEmpty: Bool { values.isEmpty }

    /// The range in ``values`` of `key`'s values, or nil when it has none.
    @inline(__always)
    func find(_ key: UInt64) -> Range<Int>? {
        var slot = Self.slot(key, mask)
        while counts[slot] != 0 {
            if keys[slot] == key { return Int(starts[slot])..<Int(starts[slot] + counts[slot]) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    @inline(__always)
    private static func slot(_ key: UInt64, _ mask: Int) -> Int { Int(truncatingIfNeeded: key ^ (key >> 31)) & mask }
}

/// A set of 64-bit hashes as one bit each, asked before a ``HashIndex`` is probed: a few
/// kilobytes that stay in cache, where the index they guard is large enough that most probes
/// miss it. "No" is certain; an absent key gets "maybe" about one time in sixteen (with 16 bits
/// per key or more), and the index probe that follows settles it. It reads bits 32 and up of a hash,
/// where ``HashIndex`` reads the low ones, so the two are independent.
struct HashFilter: Sendable {
    private var words: [UInt64]
    private var mask: UInt64

    /// A filter of `keys`.
    init<Keys: Collection>(_ keys: Keys) where Keys.Element == UInt64 {
        var bits = 64
        while bits < keys.count * 16 { bits *= 2 }
        mask = UInt64(bits - 1)
        words = Array(repeating: 0, count: bits / 64)
        for key in keys {
            let bit = (key >> 32) & mask
            words[Int(bit >> 6)] |= 1 << (bit & 63)
        }
    }

    init() { self.init([]) }

    /// False when `key` is certainly not in the set.
    @inline(__always)
    func mayContain(_ key: UInt64) -> Bool {
        let bit = (key >> 32) & mask
        return words[Int(bit >> 6)] & (1 << (bit & 63)) != 0
    }
}
