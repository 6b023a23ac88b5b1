/// The suffix automaton of a token sequence: it answers "what is the longest run of `query`
/// that also occurs in the sequence?" in time linear in the query, whatever the two hold.
/// The leak check asks that of every reply against its system prompt, where the naive scan
/// from every shared word is quadratic on a reply that repeats common words.
struct SuffixAutomaton: Sendable {
    private var transitions: [[Int: Int]] = [[:]]
    private var links: [Int] = [-1]
    private var lengths: [Int] = [0]

    /// Builds the automaton of `tokens` (2n states at most).
    init(_ tokens: [Int]) {
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
    }

    /// The longest run of `query` that occurs in the sequence, as a range of `query`; the
    /// earliest when several are as long. Tokens the sequence lacks are never matched.
    func longestCommonRun(_ query: [Int]) -> Range<Int> {
        var state = 0
        var length = 0
        var best = 0..<0
        for (index, token) in query.enumerated() {
            while state != 0, transitions[state][token] == nil {
                state = links[state]
                length = lengths[state]
            }
            if let next = transitions[state][token] {
                state = next
                length += 1
            }
            if length > best.count { best = (index - length + 1)..<(index + 1) }
        }
        return best
    }
}
