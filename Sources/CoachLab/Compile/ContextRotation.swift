/// A pack's context-window policy for long conversations (Kindred's): once the history
/// reaches `rotateAt` messages, the last `summarizeLast` are summarised and the conversation
/// continues in a fresh session whose system prompt carries that summary. A provider's
/// context-overflow error triggers the same rotation.
public struct ContextRotation: Sendable, Hashable {
    /// Rotate when the history holds this many messages.
    public var rotateAt: Int
    /// How many of the latest messages the summary covers.
    public var summarizeLast: Int

    public init(rotateAt: Int, summarizeLast: Int) {
        self.rotateAt = max(2, rotateAt)
        self.summarizeLast = max(1, summarizeLast)
    }

    /// The pack's declared policy, or nil when it declares none.
    public init?(_ defaults: Defaults) {
        guard let rotateAt = defaults.rotateAtMessages else { return nil }
        self.init(rotateAt: rotateAt, summarizeLast: defaults.summarizeLast ?? rotateAt)
    }

    /// Whether a history of `count` messages must rotate before the next message.
    public func mustRotate(_ count: Int) -> Bool { count >= rotateAt }

    /// The first line of the summariser's instructions (the mock recognises it).
    public static let summaryMarker = "You summarise a coaching conversation so that it can continue in a new session."

    /// The summariser's instructions.
    public static let summarySystem = """
        \(summaryMarker)
        Write at most five plain sentences, in the third person ("The user…", "The coach…"):
        what the user is working on, what they said matters to them, what was agreed, and
        what the coach asked last. No headings, lists or markdown.
        """

    /// The transcript the summariser reads: the last `summarizeLast` messages of `history`,
    /// as (isUser, text) pairs, one "User:"/"Coach:" line each.
    public func transcript(_ history: [(isUser: Bool, text: String)]) -> String {
        history.suffix(summarizeLast).map { ($0.isUser ? "User: " : "Coach: ") + $0.text }.joined(separator: "\n")
    }

    /// The heading of the summary a rotated session's system prompt ends with.
    public static let carriedHeading = "=== Summary of the earlier conversation (the session was rotated) ==="

    /// A system prompt carrying the summary of the rotated-out conversation.
    public static func carry(_ summary: String, into system: String) -> String {
        system + "\n\n" + carriedHeading + "\n" + summary.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
