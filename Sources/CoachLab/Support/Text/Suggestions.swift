/// "Did you mean" suggestions by edit distance.
enum Suggestions {
    /// The candidate closest to `word`, if it is close enough to be a likely typo.
    static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let other = candidate.lowercased()
            // A word that is the start of a known name ("apiKey" for "apiKeyEnv") is a likely slip.
            let prefixed = lowered.count >= 3 && other.count - lowered.count <= 4 && other.hasPrefix(lowered)
            let distance = prefixed ? 1 : editDistance(lowered, other)
            let limit = max(2, min(word.count, candidate.count) / 3)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.1 || (distance == best!.1 && candidate < best!.0) {
                best = (candidate, distance)
            }
        }
        return best?.0
    }

    /// A "did you mean" hint, or a list of what is allowed when nothing is close.
    static func hint(for word: String, in candidates: [String], noun: String = "key") -> String {
        if let match = closest(to: word, in: candidates) {
            return "did you mean '\(match)'?"
        }
        let sorted = candidates.sorted()
        let shown = sorted.prefix(12).joined(separator: ", ")
        return sorted.isEmpty ? "no \(noun)s are defined here" :
            "known \(noun)s: \(shown)\(sorted.count > 12 ? ", …" : "")"
    }

    /// Levenshtein distance over Unicode scalars.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
