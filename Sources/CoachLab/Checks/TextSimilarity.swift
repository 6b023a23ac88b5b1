/// How close a reply is to a gold reply, word by word, with no model: the `similar` check.
///
/// Words are ``TextMetrics/words(_:)`` lower-cased, with ’ read as '. Both measures are 1 for
/// identical word sequences and 0 when no word is shared; two empty texts are identical.
public enum TextSimilarity {
    /// The similarity of `candidate` to `reference` by `metric`, in 0…1.
    public static func score(_ candidate: String, _ reference: String, metric: Check.Similarity) -> Double {
        let candidateWords = tokens(candidate), referenceWords = tokens(reference)
        switch metric {
        case .f1: return f1(candidateWords, referenceWords)
        case .rougeL: return rougeL(candidateWords, referenceWords)
        }
    }

    static func tokens(_ text: String) -> [String] {
        TextMetrics.words(text).map { $0.lowercased().replacingText("’", with: "'") }
    }

    /// Word-level F1 over the multisets of words (order ignored).
    static func f1(_ candidate: [String], _ reference: [String]) -> Double {
        if candidate.isEmpty || reference.isEmpty { return candidate.isEmpty && reference.isEmpty ? 1 : 0 }
        var available: [String: Int] = [:]
        for word in reference { available[word, default: 0] += 1 }
        var shared = 0
        for word in candidate where available[word, default: 0] > 0 {
            available[word]! -= 1
            shared += 1
        }
        guard shared > 0 else { return 0 }
        let precision = Double(shared) / Double(candidate.count), recall = Double(shared) / Double(reference.count)
        return 2 * precision * recall / (precision + recall)
    }

    /// ROUGE-L's F-measure (β = 1): the longest common subsequence of words over both lengths.
    /// Memory is one row of the shorter text; time is the product of the lengths.
    static func rougeL(_ candidate: [String], _ reference: [String]) -> Double {
        if candidate.isEmpty || reference.isEmpty { return candidate.isEmpty && reference.isEmpty ? 1 : 0 }
        // Words become integers once, so the inner loop compares numbers, not strings.
        var ids: [String: Int] = [:]
        let a = candidate.map { word in ids[word] ?? { ids[word] = ids.count; return ids.count - 1 }() }
        let b = reference.map { word in ids[word] ?? { ids[word] = ids.count; return ids.count - 1 }() }
        let (long, short) = a.count >= b.count ? (a, b) : (b, a)
        var row = [Int](repeating: 0, count: short.count + 1)
        for x in long {
            var diagonal = 0
            for j in 1...short.count {
                let above = row[j]
                row[j] = x == short[j - 1] ? diagonal + 1 : max(row[j], row[j - 1])
                diagonal = above
            }
        }
        let common = Double(row[short.count])
        guard common > 0 else { return 0 }
        let precision = common / Double(candidate.count), recall = common / Double(reference.count)
        return 2 * precision * recall / (precision + recall)
    }
}
