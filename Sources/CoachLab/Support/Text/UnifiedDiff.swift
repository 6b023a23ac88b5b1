/// A unified diff of two texts by lines, as `diff -u` prints it, with three lines of context.
public enum UnifiedDiff {
    /// The diff from `old` to `new`, or an empty string when they are equal.
    public static func diff(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        guard old != new else { return "" }
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let edits = script(a, b)
        var out = "--- \(oldName)\n+++ \(newName)\n"
        let changes = edits.indices.filter { edits[$0].kind != .same }
        var groups: [ClosedRange<Int>] = []
        for change in changes {
            if let last = groups.last, change - last.upperBound <= context * 2 {
                groups[groups.count - 1] = last.lowerBound...change
            } else {
                groups.append(change...change)
            }
        }
        for group in groups {
            let hunk = edits[max(0, group.lowerBound - context)...min(edits.count - 1, group.upperBound + context)]
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            let oldStart = (hunk.first?.oldLine ?? 0) + (oldCount == 0 ? 0 : 1)
            let newStart = (hunk.first?.newLine ?? 0) + (newCount == 0 ? 0 : 1)
            out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: out += " \(edit.text)\n"
                case .delete: out += "-\(edit.text)\n"
                case .insert: out += "+\(edit.text)\n"
                }
            }
        }
        return out
    }

    /// Which elements of `a` and of `b` belong to their longest common subsequence: the
    /// others are what changed (a report highlights them, word by word).
    public static func common(_ a: [String], _ b: [String]) -> (a: [Bool], b: [Bool]) {
        var inA = Array(repeating: false, count: a.count), inB = Array(repeating: false, count: b.count)
        for edit in script(a, b) where edit.kind == .same {
            inA[edit.oldLine] = true
            inB[edit.newLine] = true
        }
        return (inA, inB)
    }

    private struct Edit {
        enum Kind { case same, delete, insert }
        var kind: Kind
        var text: String
        /// 0-based line in the old text where this edit stands.
        var oldLine: Int
        /// 0-based line in the new text where this edit stands.
        var newLine: Int
    }

    /// An edit script from a longest common subsequence (prompts are short; O(n·m) is fine).
    private static func script(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count, m = b.count
        var lengths = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        if n > 0, m > 0 {
            for i in stride(from: n - 1, through: 0, by: -1) {
                for j in stride(from: m - 1, through: 0, by: -1) {
                    lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
                }
            }
        }
        var edits: [Edit] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] {
                edits.append(Edit(kind: .same, text: a[i], oldLine: i, newLine: j)); i += 1; j += 1
            } else if i < n, j == m || lengths[i + 1][j] >= lengths[i][j + 1] {
                edits.append(Edit(kind: .delete, text: a[i], oldLine: i, newLine: j)); i += 1
            } else {
                edits.append(Edit(kind: .insert, text: b[j], oldLine: i, newLine: j)); j += 1
            }
        }
        return edits
    }
}
