/// The suffix automaton of a token sequence: it answers "what is the longest run of `query`
/// that also occurs in the sequence?" in time linear in the query, whatever the two hold.
/// The leak check asks that of every reply against its system prompt, where the naive scan
/// from every shared word is quadratic on a reply that repeats common words.
struct SuffixAutomaton: Sendable {
    private var links: [Int] = [-1]
    private var lengths: [Int] = [0]
    /// Every transition, for reading: (state, token) → state in one open-addressed table.
    private let table: TransitionTable

    /// Builds the automaton of `tokens` (2n states at most).
    init(_ tokens: [Int]) {
        var transitions: [[Int: Int]] = [[:]]
        transitions.reserveCapacity(2 * tokens.count + 1)
        var last = 0
        for token in tokens {
            let current = transitions.count
            transitions.append([:])
            links.append(0)
            lengths.append(lengths[last] + 1)
            var state = last
            while state != -1, transitions[state][token] == nil {
                transitions[state][token] = current
                state = links[state]
            }
            if state != -1 {
                let next = transitions[state][token]!
                if lengths[state] + 1 == lengths[next] {
                    links[current] = next
                } else {
                    // Split `next`: a clone keeps the shorter strings that now end two ways.
                    let clone = transitions.count
                    transitions.append(transitions[next])
                    links.append(links[next])
                    lengths.append(lengths[state] + 1)
                    while state != -1, transitions[state][token] == next {
                        transitions[state][token] = clone
                        state = links[state]
                    }
                    links[next] = clone
                    links[current] = clone
                }
            }
            last = current
        }
        table = TransitionTable(transitions)
    }

    /// The longest run of `query` that occurs in the sequence, as a range of `query`; the
    /// earliest when several are as long. Tokens the sequence lacks are never matched.
    func longestCommonRun(_ query: [Int]) -> Range<Int> {
        var state = 0
        var length = 0
        var best = 0..<0
        for (index, token) in query.enumerated() {
            var next = table.next(state, token)
            while state != 0, next < 0 {
                state = links[state]
                length = lengths[state]
                next = table.next(state, token)
            }
            if next >= 0 {
                state = next
                length += 1
            }
            if length > best.count { best = (index - length + 1)..<(index + 1) }
        }
        return best
    }
}

/// A built automaton's transitions in one open-addressed table keyed by state and token:
/// a lookup is a multiplication and a probe or two, where a dictionary per state hashed each
/// key with SipHash.
private struct TransitionTable: Sendable {
    private var keys: [UInt64]
    private var targets: [Int32]
    private let mask: Int

    private static let empty = UInt64.max

    init(_ transitions: [[Int: Int]]) {
        let count = transitions.reduce(0) { $0 + $1.count }
        var capacity = 16
        while capacity < 2 * count { capacity *= 2 }
        keys = Array(repeating: Self.empty, count: capacity)
        targets = Array(repeating: -1, count: capacity)
        mask = capacity - 1
        for (state, edges) in transitions.enumerated() {
            for (token, target) in edges {
                guard let key = Self.key(state, token) else { continue }
                var slot = Self.slot(key, mask)
                while keys[slot] != Self.empty { slot = (slot + 1) & mask }
                keys[slot] = key
                targets[slot] = Int32(target)
            }
        }
    }

    /// The state `token` leads to from `state`, or -1.
    func next(_ state: Int, _ token: Int) -> Int {
        guard let key = Self.key(state, token) else { return -1 }
        var slot = Self.slot(key, mask)
        while true {
            let found = keys[slot]
            if found == key { return Int(targets[slot]) }
            if found == Self.empty { return -1 }
            slot = (slot + 1) & mask
        }
    }

    /// State and token in one word; nil for a token no built automaton holds (negative, or
    /// past 32 bits), which then leads nowhere.
    private static func key(_ state: Int, _ token: Int) -> UInt64? {
        guard token >= 0, token <= Int(UInt32.max) - 1, state >= 0, state <= Int(UInt32.max) else { return nil }
        return UInt64(state) << 32 | UInt64(token)
    }

    private static func slot(_ key: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}
