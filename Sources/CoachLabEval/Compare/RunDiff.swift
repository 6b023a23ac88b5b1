import CoachLab
import Foundation

/// What changed between two runs, case by case (cases match by id: suite/fixture/provider#repeat).
public struct RunDiff: Sendable, Codable, Hashable {
    /// A case whose outcome changed.
    public struct Change: Sendable, Codable, Hashable {
        public var id: String
        public var before: Outcome
        public var after: Outcome
        /// Why it fails now (regressions) or failed before (fixes): the first failing check or the error.
        public var reason: String?
    }

    /// A case whose reply text changed while its outcome did not.
    public struct ChangedReply: Sendable, Codable, Hashable {
        public var id: String
        public var turn: Int
        public var before: String
        public var after: String
    }

    public var before: String
    public var after: String
    /// Passed before, fails or errors now.
    public var regressions: [Change] = []
    /// Failed or errored before, passes now.
    public var fixes: [Change] = []
    /// Failed before and errors now, or the reverse.
    public var otherChanges: [Change] = []
    /// Only in the later run.
    public var new: [String] = []
    /// Only in the earlier run.
    public var removed: [String] = []
    /// Same outcome, different reply (the first turn that differs).
    public var changedReplies: [ChangedReply] = []
    /// Cases in both runs.
    public var compared = 0

    /// Compares the run `before` in `beforeStore` with `after` in `afterStore` (they may be one store).
    public init(before: String, in beforeStore: ResultStore, after: String, in afterStore: ResultStore) throws {
        self.before = before
        self.after = after
        var earlier: [String: Digest] = [:]
        try beforeStore.forEachResult(run: before) { earlier[$0.id] = Digest($0) }
        var seen = Set<String>()
        try afterStore.forEachResult(run: after) { result in
            seen.insert(result.id)
            guard let old = earlier[result.id] else {
                new.append(result.id)
                return
            }
            compared += 1
            let now = Digest(result)
            switch (old.outcome, now.outcome) {
            case (.pass, .fail), (.pass, .error):
                regressions.append(Change(id: result.id, before: old.outcome, after: now.outcome, reason: now.reason))
            case (.fail, .pass), (.error, .pass):
                fixes.append(Change(id: result.id, before: old.outcome, after: now.outcome, reason: old.reason))
            case (.fail, .error), (.error, .fail):
                otherChanges.append(Change(id: result.id, before: old.outcome, after: now.outcome, reason: now.reason))
            default:
                if let turn = now.replies.keys.sorted().first(where: { now.replies[$0] != old.replies[$0] }) {
                    changedReplies.append(ChangedReply(id: result.id, turn: turn, before: old.replies[turn] ?? "", after: now.replies[turn] ?? ""))
                }
            }
        }
        removed = earlier.keys.filter { !seen.contains($0) }.sorted()
    }

    /// The outcome and replies of one case, which is all a diff keeps of it.
    private struct Digest {
        var outcome: Outcome
        var reason: String?
        var replies: [Int: String]

        init(_ result: CaseResult) {
            outcome = result.outcome
            replies = Dictionary(result.turns.map { ($0.turn, $0.reply) }) { first, _ in first }
            if result.outcome == .error {
                reason = result.error
            } else if let failure = result.failures.first {
                reason = "turn \(failure.turn) \(failure.check.check): \(failure.check.reason)"
            }
        }
    }

    /// Whether anything passed before and does not now.
    public var hasRegressions: Bool { !regressions.isEmpty }

    /// Plain text for a terminal or a log.
    public func text() -> String {
        var out = "\(before) → \(after): \(compared) cases compared, \(regressions.count) regressions, \(fixes.count) fixes, "
        out += "\(new.count) new, \(removed.count) removed, \(changedReplies.count) changed replies\n"
        func section(_ title: String, _ lines: [String]) {
            guard !lines.isEmpty else { return }
            out += "\n\(title) (\(lines.count))\n" + lines.map { "  \($0)\n" }.joined()
        }
        section("REGRESSIONS", regressions.map { "\($0.id): \($0.before.rawValue) → \($0.after.rawValue)" + ($0.reason.map { " — \($0)" } ?? "") })
        section("FIXES", fixes.map { "\($0.id): \($0.before.rawValue) → \($0.after.rawValue)" })
        section("OTHER OUTCOME CHANGES", otherChanges.map { "\($0.id): \($0.before.rawValue) → \($0.after.rawValue)" + ($0.reason.map { " — \($0)" } ?? "") })
        section("NEW", new)
        section("REMOVED", removed)
        section("CHANGED REPLIES", changedReplies.map { change in
            "\(change.id) turn \(change.turn):\n    - \(Self.oneLine(change.before))\n    + \(Self.oneLine(change.after))"
        })
        return out
    }

    static func oneLine(_ text: String, limit: Int = 160) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ⏎ ")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }
}
